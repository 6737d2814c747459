package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketPool;
import io.github.ariesmodel.core.packet.WireFormat;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Once the fabric has accepted a packet the NIC does not read it again: a fabric (here one that answers at once, as
 * a benchmark's loop-back does) may hand it on and its receiver give it back to the pool before {@code inject}
 * returns. The NIC once counted the packet after offering it, and read a released one.
 */
class PooledInjectionTest {

  @Test
  void aPacketGivenBackDuringInjectIsCountedFromWhatWasReadBefore() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    PacketPool pool = new PacketPool();
    AnswerAtOnce fabric = new AnswerAtOnce(loop, pool);
    SparsePhysicalMemory memory = new SparsePhysicalMemory(1L << 30);
    Nic nic = new Nic(0, loop, memory, new FlatTranslation(memory, loop, 0), fabric, NicConfig.defaults());
    nic.recyclePackets(pool);
    int mdh = nic.register(MemoryRegistration.of(0, 1 << 16, 1, 1)).mdh();
    List<CompletionEvent> events = new ArrayList<>();
    nic.completionListener(events::add);
    long[] made = new long[2];
    for (int round = 0; round < 2; round++) {
      nic.post(Post.put(round, mdh, 0, NetworkAddress.of(1, 5, 0), 4096));
      loop.run();
      made[round] = pool.made();
    }
    assertThat(events).extracting(CompletionEvent::status).containsExactly(Status.OK, Status.OK);
    NicStatistics s = nic.statistics();
    assertThat(s.packetsSent()).isEqualTo(128);
    assertThat(s.requestsSent()).isEqualTo(128);
    assertThat(s.wireBytesSent()).isEqualTo(128L * WireFormat.wireBytes(true, 64));
    assertThat(s.payloadBytesSent()).isEqualTo(2 * 4096);
    assertThat(made[0]).isPositive();
    assertThat(made[1]).as("the second PUT reuses the first one's packets").isEqualTo(made[0]);
  }

  /** Node 1 of two: answers each request of node 0 with an ACK, and gives the request back, inside inject. */
  private static final class AnswerAtOnce implements Fabric {
    private final DeterministicEventLoop loop;
    private final PacketPool pool;
    private FabricEndpoint node0;

    AnswerAtOnce(DeterministicEventLoop loop, PacketPool pool) {
      this.loop = loop;
      this.pool = pool;
    }

    @Override
    public int nodeCount() {
      return 2;
    }

    @Override
    public void attach(int nodeId, FabricEndpoint endpoint) {
      if (nodeId == 0) {
        node0 = endpoint;
      }
    }

    @Override
    public boolean inject(Packet packet) {
      Packet ack = pool.ack(packet);
      pool.release(packet);
      node0.deliver(loop.now(), ack);
      return true;
    }
  }
}
