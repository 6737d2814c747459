package io.github.ariesmodel.nic;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Packetization properties: packet counts against a brute-force count, and delivered bytes against bytes sent. */
class NicProperties {

  @Test
  void packetCountIsTheNumberOf64ByteLinesTouched() {
    qt().withExamples(2000)
        .forAll(integers().between(0, 10_000), integers().between(0, 5_000))
        .check((offset, length) -> {
          long lines = length == 0 ? 1 : java.util.stream.LongStream.range(offset, offset + length)
              .map(b -> b >>> 6).distinct().count();
          return Transaction.packetCount(offset, length) == lines;
        });
  }

  @Test
  void everyPutDeliversExactlyTheBytesSentInThePredictedPackets() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor src = c.register(0, 1 << 16);
    MemoryDomainDescriptor dst = c.register(1, 1 << 16);
    byte[] data = new byte[1 << 16];
    new java.util.SplittableRandom(5).nextBytes(data);
    c.write(0, src.mdh(), 0, data);
    qt().withExamples(300)
        .forAll(integers().between(0, 20_000), integers().between(0, 20_000), integers().between(0, 20_000))
        .check((from, to, length) -> {
          NicStatistics s0 = c.nics[0].statistics();
          NicStatistics s1 = c.nics[1].statistics();
          long req = s0.requestsSent();
          long sent = s0.payloadBytesSent();
          long received = s1.payloadBytesReceived();
          c.events.clear();
          c.nics[0].post(Post.put(1, src.mdh(), from, NetworkAddress.of(1, dst.mdh(), to), length));
          c.run();
          return s0.requestsSent() - req == Transaction.packetCount(to, length)
              && s0.payloadBytesSent() - sent == length
              && s1.payloadBytesReceived() - received == length
              && c.events.size() == 1 && !c.events.get(0).isError()
              && Arrays.equals(c.read(1, dst.mdh(), to, length), Arrays.copyOfRange(data, from, from + length));
        });
  }
}
