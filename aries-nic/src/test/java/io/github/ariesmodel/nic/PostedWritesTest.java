package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.nic.HostWriteProbeTest.Write;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The NIC's writes on their way to host memory ({@link PostedWrites}): the NIC sees its writes at once, the host's
 * memory takes each when the host link has delivered it, and newer writes are never undone by older ones landing.
 */
class PostedWritesTest {
  private final DeterministicEventLoop loop = new DeterministicEventLoop();
  private final SparsePhysicalMemory memory = new SparsePhysicalMemory(1L << 20);
  private final PostedWrites posted = new PostedWrites(loop, memory);

  @Test
  void aWriteIsSeenByTheNicAtOnceAndByTheHostWhenItIsVisible() {
    posted.writeLong(64, 7);
    assertThat(posted.readLong(64)).as("the NIC's own view").isEqualTo(7);
    assertThat(memory.readLong(64)).as("not settled: held").isZero();
    posted.settle(1_000, 64, 8);
    assertThat(memory.readLong(64)).isZero();
    loop.runUntil(999);
    assertThat(memory.readLong(64)).as("one picosecond before it is visible").isZero();
    loop.runUntil(1_000);
    assertThat(memory.readLong(64)).isEqualTo(7);
    assertThat(posted.held()).isZero();
    assertThat(posted.unsettled()).isZero();
  }

  @Test
  void theNextLandingIsTheEarliestSettledHeldWriteOverTheBytes() {
    posted.writeLong(64, 1);
    assertThat(posted.nextLanding(64, 8)).as("unsettled: no time yet").isEqualTo(-1);
    posted.settle(700, 64, 8);
    posted.writeLong(68, 2);
    posted.settle(900, 68, 8);
    assertThat(posted.nextLanding(64, 8)).isEqualTo(700);
    assertThat(posted.nextLanding(72, 8)).isEqualTo(900);
    assertThat(posted.nextLanding(76, 8)).isEqualTo(-1);
    loop.runUntil(700);
    assertThat(posted.nextLanding(64, 8)).isEqualTo(900);
    loop.run();
    assertThat(posted.nextLanding(64, 8)).isEqualTo(-1);
  }

  @Test
  void aWriteVisibleNowGoesToMemoryAtOnce() {
    posted.writeInt(12, 0x1234);
    posted.settle(loop.now(), 8, 8);
    assertThat(memory.readInt(12)).isEqualTo(0x1234);
    assertThat(posted.held()).isZero();
  }

  @Test
  void readsSeeTheHeldWritesInTheOrderMadeOverMemory() {
    memory.write(0, new byte[] {1, 1, 1, 1, 1, 1, 1, 1}, 0, 8);
    posted.write(2, new byte[] {2, 2, 2}, 0, 3);
    posted.write(4, new byte[] {3, 3}, 0, 2);
    posted.settle(500, 0, 8);
    byte[] b = new byte[8];
    posted.read(0, b, 0, 8);
    assertThat(b).containsExactly(1, 1, 2, 2, 3, 3, 1, 1);
    loop.run();
    memory.read(0, b, 0, 8);
    assertThat(b).containsExactly(1, 1, 2, 2, 3, 3, 1, 1);
  }

  @Test
  void aDeferredResultIsSettledByItselfAndLandsWithoutUndoingANewerWrite() {
    // a memory AMO's result, settled only by its own result write, a read round trip later
    posted.writeLong(64, 5);
    posted.deferNewest();
    posted.writeLong(64, 9);            // a put over the same word meanwhile, newer in the NIC's order
    posted.settle(300, 64, 8);          // the put's settle leaves the AMO's result held
    assertThat(posted.unsettled()).isEqualTo(1);
    assertThat(posted.readLong(64)).as("the NIC's view: the newer write").isEqualTo(9);
    loop.runUntil(300);
    assertThat(memory.readLong(64)).isEqualTo(9);
    posted.settleDeferred(800, 64, 8);
    loop.runUntil(799);
    assertThat(posted.readLong(64)).isEqualTo(9);
    loop.run();
    assertThat(memory.readLong(64)).as("the older result lands after the put and leaves its bytes").isEqualTo(9);
    assertThat(posted.held()).isZero();
  }

  /**
   * The host's CPU stores over a newer write that has landed while an older one is still held: the older one, landing
   * later, leaves the CPU's bytes, and the NIC reads them (the last look of stop 69: it wrote the newer write's bytes
   * again, over the CPU's store).
   */
  @Test
  void anOlderWriteLandingLaterLeavesWhatTheCpuStoredOverANewerOne() {
    posted.writeLong(64, 5);
    posted.deferNewest();               // a memory AMO's result, settled a round trip later
    posted.writeLong(64, 9);            // a put over it, visible first
    posted.settle(300, 64, 8);
    loop.runUntil(300);
    memory.writeLong(64, 11);           // the CPU's store after the put landed
    assertThat(posted.readLong(64)).as("the NIC's view").isEqualTo(11);
    posted.settleDeferred(800, 64, 8);
    loop.run();
    assertThat(memory.readLong(64)).isEqualTo(11);
  }

  @Test
  void twoDeferredResultsOnAWordLandEachAtItsOwnTime() {
    posted.writeLong(64, 3);
    posted.deferNewest();
    posted.writeLong(64, 7);
    posted.deferNewest();
    posted.settleDeferred(1_000, 64, 8); // the oldest first: AMOs on a word answer in the order they executed
    loop.runUntil(1_000);
    assertThat(memory.readLong(64)).as("the first result, not the second").isEqualTo(3);
    assertThat(posted.readLong(64)).isEqualTo(7);
    posted.settleDeferred(1_500, 64, 8);
    loop.runUntil(1_499);
    assertThat(memory.readLong(64)).isEqualTo(3);
    loop.run();
    assertThat(memory.readLong(64)).isEqualTo(7);
  }

  @Test
  void aNewerWriteVisibleFirstKeepsItsBytesWhenAnOlderOneLandsLater() {
    posted.write(64, new byte[] {1, 1, 1, 1}, 0, 4); // older, deferred
    posted.deferNewest();
    posted.write(66, new byte[] {9}, 0, 1);          // newer, one byte inside it, visible at once
    posted.settle(loop.now(), 66, 1);
    byte[] one = new byte[1];
    memory.read(66, one, 0, 1);
    assertThat(one[0]).isEqualTo((byte) 9);
    posted.settleDeferred(200, 64, 4);
    loop.run();
    byte[] b = new byte[4];
    memory.read(64, b, 0, 4);
    assertThat(b).containsExactly(1, 1, 9, 1);
  }

  @Test
  void aLongWriteIsHeldIn64ByteChunksAndAWrongOneChangesNothing() {
    byte[] data = new byte[200];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) i;
    }
    posted.write(1_000, data, 0, 200);
    assertThat(posted.held()).isEqualTo(4);
    posted.settle(10, 1_000, 200);
    loop.run();
    byte[] back = new byte[200];
    memory.read(1_000, back, 0, 200);
    assertThat(back).isEqualTo(data);

    assertThatThrownBy(() -> posted.write((1L << 20) - 4, data, 0, 8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("address must leave 8 bytes within the memory's 1048576 but was 1048572");
    assertThat(posted.held()).isZero();
  }

  @Test
  void aPutsDataReachesTheTargetsMemoryWhenItIsVisibleNotWhenTheNicMakesTheWrite() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor target = c.register(0, 4096);
    MemoryDomainDescriptor source = c.register(1, 4096);
    List<Write> seen = HostWriteProbeTest.watch(c, 0);
    c.write(1, source.mdh(), 0, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    c.nics[1].post(Post.put(1, source.mdh(), 0, NetworkAddress.of(0, target.mdh(), 16), 8));
    while (seen.isEmpty() && c.loop.step()) {
      // up to the NIC's write
    }
    Write w = seen.get(0);
    assertThat(w.visiblePs()).isGreaterThan(w.calledAt());
    assertThat(c.nics[0].nextHostWriteLanding(w.pa(), w.length())).isEqualTo(w.visiblePs());
    c.loop.runUntil(w.visiblePs() - 1);
    assertThat(c.readLong(0, target.mdh(), 16)).as("the host's memory before the write is visible").isZero();
    c.loop.runUntil(w.visiblePs());
    assertThat(c.readLong(0, target.mdh(), 16)).isEqualTo(0x0807_0605_0403_0201L);
    c.run();
    assertThat(c.nics[0].postedWrites().held()).isZero();
    assertThat(c.nics[0].postedWrites().unsettled()).isZero();
    assertThatThrownBy(() -> c.nics[0].nextHostWriteLanding(0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("length must be >= 1 but was 0");
  }

  /** The review of stop 69: the second AMO's result reached memory at the first's visible time, 40 ns early. */
  @Test
  void twoMemoryAmosOnAWordEachReachMemoryAtTheTimeItsWriteIsVisible() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor target = c.register(0, 4096);
    List<Write> seen = HostWriteProbeTest.watch(c, 0);
    c.nics[1].post(Post.amo(1, AmoOperation.parse("FADD"), NetworkAddress.of(0, target.mdh(), 8), 3, 0));
    c.nics[1].post(Post.amo(2, AmoOperation.parse("FADD"), NetworkAddress.of(0, target.mdh(), 8), 4, 0));
    while (seen.size() < 2 && c.loop.step()) {
      // up to both result writes
    }
    assertThat(seen).hasSize(2);
    assertThat(seen.get(1).visiblePs()).isGreaterThan(seen.get(0).visiblePs());
    c.loop.runUntil(seen.get(0).visiblePs());
    assertThat(c.readLong(0, target.mdh(), 8)).as("the first result alone").isEqualTo(3);
    c.loop.runUntil(seen.get(1).visiblePs() - 1);
    assertThat(c.readLong(0, target.mdh(), 8)).isEqualTo(3);
    c.loop.runUntil(seen.get(1).visiblePs());
    assertThat(c.readLong(0, target.mdh(), 8)).isEqualTo(7);
    c.run();
    assertThat(c.nics[0].postedWrites().held()).isZero();
  }

  @Test
  void aMemoryAmosResultReachesMemoryWithItsResultWriteNotWhenTheUnitComputesIt() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor target = c.register(0, 4096);
    List<Write> seen = HostWriteProbeTest.watch(c, 0);
    c.nics[1].post(Post.amo(1, AmoOperation.parse("FADD"), NetworkAddress.of(0, target.mdh(), 8), 3, 0));
    while ((c.nics[0].postedWrites() == null || c.nics[0].postedWrites().unsettled() == 0) && c.loop.step()) {
      // up to the AMO unit's computing the result
    }
    long computedAt = c.loop.now();
    assertThat(c.readLong(0, target.mdh(), 8)).as("computed, not yet written over the host link").isZero();
    while (seen.isEmpty() && c.loop.step()) {
      // up to the NIC's write
    }
    Write w = seen.get(0);
    assertThat(w.calledAt()).isGreaterThan(computedAt);
    c.loop.runUntil(w.visiblePs() - 1);
    assertThat(c.readLong(0, target.mdh(), 8)).isZero();
    c.loop.runUntil(w.visiblePs());
    assertThat(c.readLong(0, target.mdh(), 8)).isEqualTo(3);
    c.run();
    assertThat(c.nics[0].postedWrites().held()).isZero();
  }
}
