package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A user's port implementation that breaks its contract is named where the NIC meets it (found by stop 63's hunt of
 * the extension points): a fabric that delivers a packet to the wrong node (its PUT landed in the wrong memory,
 * silently) or at a time other than now (the work was timed from then), and a translation that completes one
 * translation twice (a NullPointerException inside the AMO unit, from an access already pooled). And a probe of a
 * NIC's completion events is never replaced, as the listener is by a job.
 */
class NicPortMisuseTest {

  @Test
  void aPacketForAnotherNodeOrAtAnotherTimeIsRefusedAndNothingIsWritten() {
    Cluster c = new Cluster(3, NicConfig.defaults());
    MemoryDomainDescriptor at1 = c.register(1, 4096);
    Packet forNode2 = Packet.put(0, NetworkAddress.of(2, at1.mdh(), 0), 1, DeliveryMode.ADAPTIVE_0, new byte[] {7},
        Cluster.PTAG, Cluster.PKEY);
    assertThatThrownBy(() -> c.nics[1].deliver(c.loop.now(), forNode2)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("node 1's NIC was given a packet for node 2 (")
        .hasMessageEndingWith("): a fabric delivers a packet to its destination");
    Packet forNode1 = Packet.put(0, NetworkAddress.of(1, at1.mdh(), 0), 1, DeliveryMode.ADAPTIVE_0, new byte[] {7},
        Cluster.PTAG, Cluster.PKEY);
    c.loop.runUntil(5_000);
    assertThatThrownBy(() -> c.nics[1].deliver(1_000, forNode1)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("node 1's NIC was given a packet at 1000 ps where its clock is at 5000 ps (");
    c.run();
    assertThat(c.nics[1].statistics().packetsReceived()).isZero();
    assertThat(c.read(1, at1.mdh(), 0, 1)).containsExactly(0);
    // a put through the fabric, as the port says, lands
    MemoryDomainDescriptor at0 = c.register(0, 4096);
    c.write(0, at0.mdh(), 0, new byte[] {7});
    c.nics[0].post(Post.put(1, at0.mdh(), 0, NetworkAddress.of(1, at1.mdh(), 0), 1));
    c.run();
    assertThat(c.read(1, at1.mdh(), 0, 1)).containsExactly(7);
  }

  /** A flat translation that calls its listener twice for every translation. */
  private static final class Twice implements AddressTranslation {
    private final FlatTranslation inner;
    private final DeterministicEventLoop loop;

    Twice(SparsePhysicalMemory m, DeterministicEventLoop loop) {
      this.inner = new FlatTranslation(m, loop, 0);
      this.loop = loop;
    }

    @Override
    public MemoryDomainDescriptor register(MemoryRegistration r) {
      return inner.register(r);
    }

    @Override
    public void deregister(int mdh) {
      inner.deregister(mdh);
    }

    @Override
    public Optional<MemoryDomainDescriptor> descriptor(int mdh) {
      return inner.descriptor(mdh);
    }

    @Override
    public TranslationResult translateNow(int mdh, long offset, int length, AccessKind access, int tag, int key) {
      return inner.translateNow(mdh, offset, length, access, tag, key);
    }

    @Override
    public void translate(TranslationClient client, int mdh, long offset, int length, AccessKind access, int tag,
        int key, TranslationListener listener, Object ref, long arg) {
      TranslationResult r = inner.translateNow(mdh, offset, length, access, tag, key);
      for (int k = 1; k <= 2; k++) {
        loop.scheduleAt(loop.now() + 100 * k, (now, x, y) -> listener.onTranslated(now, r.status(),
            r.physicalAddress(), r.contiguousBytes(), ref, arg), null, 0);
      }
    }
  }

  @Test
  void aTranslationCompletedTwiceIsNamed() {
    Cluster c = new Cluster(2, NicConfig.defaults(), loop -> new io.github.ariesmodel.core.sim.IdealFabric(loop, 2,
        0, Double.POSITIVE_INFINITY), Twice::new);
    MemoryDomainDescriptor src = c.register(0, 4096);
    MemoryDomainDescriptor dst = c.register(1, 4096);
    c.nics[0].post(Post.put(1, src.mdh(), 0, NetworkAddress.of(1, dst.mdh(), 0), 8));
    assertThatThrownBy(c::run).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("translation " + Twice.class.getName() + " completed a translation the NIC is not"
            + " waiting for (number ")
        .hasMessageEndingWith("): a translation must complete once, with the ref and arg it was given");
  }

  @Test
  void aProbeSeesEveryEventAfterTheListenerAndOutlivesAReplacedListener() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    List<String> seen = new ArrayList<>();
    CompletionListener probe = e -> seen.add("probe " + e.type());
    c.nics[0].addCompletionProbe(probe);
    c.nics[0].completionListener(e -> seen.add("listener " + e.type())); // as a job does
    MemoryDomainDescriptor src = c.register(0, 4096);
    MemoryDomainDescriptor dst = c.register(1, 4096);
    c.nics[0].post(Post.put(1, src.mdh(), 0, NetworkAddress.of(1, dst.mdh(), 0), 8));
    c.run();
    assertThat(c.nics[0].statistics().eventsWritten()).isPositive();
    assertThat(seen).hasSize((int) (2 * c.nics[0].statistics().eventsWritten()));
    for (int i = 0; i < seen.size(); i += 2) {
      assertThat(seen.get(i)).startsWith("listener ");
      assertThat(seen.get(i + 1)).isEqualTo("probe" + seen.get(i).substring("listener".length()));
    }
    assertThatThrownBy(() -> c.nics[0].addCompletionProbe(probe)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was added to node 0's NIC already");
    assertThatThrownBy(() -> c.nics[0].addCompletionProbe(null)).hasMessage("probe must not be null");
    assertThat(c.nics[0].removeCompletionProbe(probe)).isTrue();
    assertThat(c.nics[0].removeCompletionProbe(probe)).isFalse();
    int before = seen.size();
    c.nics[0].post(Post.put(2, src.mdh(), 0, NetworkAddress.of(1, dst.mdh(), 0), 8));
    c.run();
    assertThat(seen.subList(before, seen.size())).isNotEmpty().allMatch(s -> s.startsWith("listener "));
  }
}
