package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
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

  /** A flat translation that calls its listener twice for every translation of one client (or of all, if null). */
  private static final class Twice extends DelegatingTranslation {
    private final DeterministicEventLoop loop;
    private final TranslationClient only;

    Twice(SparsePhysicalMemory m, DeterministicEventLoop loop) {
      this(m, loop, null);
    }

    Twice(SparsePhysicalMemory m, DeterministicEventLoop loop, TranslationClient only) {
      super(new FlatTranslation(m, loop, 0));
      this.loop = loop;
      this.only = only;
    }

    @Override
    public void translate(TranslationClient client, int mdh, long offset, int length, AccessKind access, int tag,
        int key, TranslationListener listener, Object ref, long arg) {
      TranslationResult r = inner.translateNow(mdh, offset, length, access, tag, key);
      int times = only == null || only == client ? 2 : 1;
      for (int k = 1; k <= times; k++) {
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
  void aCompletionQueueEntrysTranslationCompletedTwiceIsNamedNotCountedTwice() {
    Cluster c = new Cluster(2, NicConfig.defaults(), loop -> new io.github.ariesmodel.core.sim.IdealFabric(loop, 2,
        0, Double.POSITIVE_INFINITY), (m, loop) -> new Twice(m, loop, TranslationClient.COMPLETION_WRITE));
    MemoryDomainDescriptor src = c.register(0, 4096);
    MemoryDomainDescriptor dst = c.register(1, 4096);
    CompletionQueue q = c.nics[0].createCompletionQueue(8);
    c.nics[0].post(Post.put(1, src.mdh(), 0, NetworkAddress.of(1, dst.mdh(), 0), 8)
        .withCompletion(q.handle(), Post.LOCAL_EVENT));
    assertThatThrownBy(c::run).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("translation " + Twice.class.getName() + " on node 0 completed a completion-queue"
            + " entry's translation the NIC is not waiting for (queue " + q.handle() + ", slot 0)")
        .hasMessageEndingWith("a translation must complete once, with the ref and arg it was given");
    assertThat(q.writtenEvents()).as("the entry was written once").isEqualTo(1);
  }

  @Test
  void aCollectiveResultsTranslationCompletedTwiceIsNamed() {
    Cluster c = new Cluster(1, NicConfig.defaults(), loop -> new io.github.ariesmodel.core.sim.IdealFabric(loop, 1,
        0, Double.POSITIVE_INFINITY), (m, loop) -> new Twice(m, loop, TranslationClient.NETWORK_RESPONSE));
    assertThat(c.nics[0].createCollectiveChannel()).isZero();
    c.nics[0].configureCollectiveChannel(0, CeChannelConfig.of(List.of(CeChild.pe()), null));
    MemoryDomainDescriptor buffer = c.register(0, 4096);
    int cq = c.nics[0].createCompletionQueue(8).handle();
    c.nics[0].postCollective(CePost.of(1, 0, 0, CeOperation.IADD, 5, 1, buffer.mdh(), 64, cq));
    assertThatThrownBy(c::run).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("translation " + Twice.class.getName() + " on node 0 completed a collective"
            + " result's translation the NIC is not waiting for (ref ")
        .hasMessageEndingWith(", completed before): a translation must complete once, with the ref and arg it was"
            + " given");
    c.run(); // what the first completion booked: the result's write lands, the GLOBAL event after it
    assertThat(c.nics[0].collectiveResult(buffer.mdh(), 64).result1()).isEqualTo(5);
    assertThat(c.events(0)).as("one GLOBAL event, not two").hasSize(1);
  }

  /**
   * A flat translation whose physical addresses are moved past the end of the node's memory; on the hit path
   * ({@link AddressTranslation#translateHit}) when {@code hits}, else on the listener path.
   */
  private static final class Beyond extends DelegatingTranslation {
    private final DeterministicEventLoop loop;
    private final long capacity;
    private final boolean hits;

    Beyond(SparsePhysicalMemory m, DeterministicEventLoop loop, boolean hits) {
      super(new FlatTranslation(m, loop, 0));
      this.loop = loop;
      this.capacity = m.capacity();
      this.hits = hits;
    }

    @Override
    public boolean translateHit(TranslationClient client, int mdh, long offset, int length, AccessKind access,
        int tag, int key, io.github.ariesmodel.core.spi.TranslationHit hit) {
      if (!hits) {
        return false;
      }
      TranslationResult r = inner.translateNow(mdh, offset, length, access, tag, key);
      hit.set(capacity - 4 + r.physicalAddress() % 4, loop.now());
      return true;
    }

    @Override
    public void translate(TranslationClient client, int mdh, long offset, int length, AccessKind access, int tag,
        int key, TranslationListener listener, Object ref, long arg) {
      TranslationResult r = inner.translateNow(mdh, offset, length, access, tag, key);
      loop.scheduleAt(loop.now() + 100, (now, x, y) -> listener.onTranslated(now, r.status(),
          r.physicalAddress() + capacity, r.contiguousBytes(), ref, arg), null, 0);
    }
  }

  @Test
  void aTranslationGivingAnAddressOutsideTheNodesMemoryIsNamedAndNothingIsWritten() {
    for (boolean hits : new boolean[] {false, true}) {
      Cluster c = new Cluster(2, NicConfig.defaults(), loop -> new io.github.ariesmodel.core.sim.IdealFabric(loop,
          2, 0, Double.POSITIVE_INFINITY), (m, loop) -> new Beyond(m, loop, hits));
      MemoryDomainDescriptor src = c.register(0, 4096);
      MemoryDomainDescriptor dst = c.register(1, 4096);
      c.nics[0].post(Post.put(1, src.mdh(), 0, NetworkAddress.of(1, dst.mdh(), 0), 8));
      assertThatThrownBy(c::run).as("hits %s", hits).isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("translation " + Beyond.class.getName() + " on node 0 translated 8 bytes at MDH "
              + src.mdh() + " offset 0x0 to physical range [0x")
          .hasMessageContaining("), outside the node's memory [0, 0x")
          .hasMessageEndingWith("): a translation must give addresses in the node's memory");
      assertThat(c.read(1, dst.mdh(), 0, 8)).as("hits %s", hits).containsOnly(0);
    }
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
