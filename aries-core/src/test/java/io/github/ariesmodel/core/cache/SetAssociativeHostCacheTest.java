package io.github.ariesmodel.core.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.NicWritePolicy;
import org.junit.jupiter.api.Test;

class SetAssociativeHostCacheTest {

  private static final long FLAG = 0x1000;

  private static SetAssociativeHostCache cache(NicWritePolicy policy) {
    return new SetAssociativeHostCache(new SparsePhysicalMemory(1 << 20),
        HostCacheConfig.xc40().withNicWritePolicy(policy));
  }

  /** The host polls a flag (a CPU load that caches it), the NIC writes it, the host reads it again. */
  private static long[] pollWritePoll(SetAssociativeHostCache c) {
    byte[] word = new byte[8];
    long first = c.cpuLoad(FLAG, word, 0, 8);
    long write = c.nicWrite(FLAG, LittleEndian.ofLong(42), 0, 8);
    long second = c.cpuLoad(FLAG, word, 0, 8);
    assertThat(LittleEndian.getLong(word)).isEqualTo(42);
    return new long[] {first, write, second};
  }

  @Test
  void updateKeepsTheLineSoThePollerHits() {
    SetAssociativeHostCache c = cache(NicWritePolicy.UPDATE);
    assertThat(pollWritePoll(c)).containsExactly(82_000, 17_400, 17_400);
    assertThat(c.count(HostCacheStatistic.NIC_WRITE_UPDATED)).isEqualTo(1);
    assertThat(c.holdsDirty(FLAG)).as("updated in place, memory behind").isTrue();
    assertThat(c.memory().readLong(FLAG)).as("memory still holds the old value").isZero();
    assertThat(c.nicView().readLong(FLAG)).as("a NIC read sees the newest data").isEqualTo(42);
  }

  /**
   * Data Direct I/O's write-allocate: a NIC write of a line nobody cached allocates it, so the first poll hits; a
   * whole line costs a hit, part of one the memory read that completes it.
   */
  @Test
  void allocateMakesTheFirstPollOfANicWrittenLineHit() {
    SetAssociativeHostCache c = cache(NicWritePolicy.ALLOCATE);
    byte[] word = new byte[8];
    assertThat(c.nicWrite(FLAG, LittleEndian.ofLong(42), 0, 8)).as("part of a line").isEqualTo(82_000);
    assertThat(c.count(HostCacheStatistic.NIC_WRITE_ALLOCATED)).isEqualTo(1);
    assertThat(c.holdsDirty(FLAG)).isTrue();
    assertThat(c.memory().readLong(FLAG)).as("memory behind the cache").isZero();
    assertThat(c.cpuLoad(FLAG, word, 0, 8)).as("the first poll hits").isEqualTo(17_400);
    assertThat(LittleEndian.getLong(word)).isEqualTo(42);
    assertThat(c.nicWrite(FLAG + 64, new byte[64], 0, 64)).as("a whole line").isEqualTo(17_400);
    assertThat(c.nicWrite(FLAG, LittleEndian.ofLong(43), 0, 8)).as("a cached line").isEqualTo(17_400);
    assertThat(c.count(HostCacheStatistic.NIC_WRITE_UPDATED)).isEqualTo(1);
    // the poll before a NIC write under UPDATE misses where ALLOCATE's hits
    SetAssociativeHostCache update = cache(NicWritePolicy.UPDATE);
    update.nicWrite(FLAG, LittleEndian.ofLong(42), 0, 8);
    assertThat(update.cpuLoad(FLAG, word, 0, 8)).isEqualTo(82_000);
  }

  /**
   * A NIC write that reaches its first line's set again (more lines than the cache has sets) may, under ALLOCATE,
   * evict its own first line to bring in a later one: a write to a cached line updates it in place and leaves its
   * place in the replacement order as it was (as under UPDATE), so that line can be the set's least recently used.
   * Found by {@code SetAssociativeHostCacheProperties} (stop 54), whose assertion on the first line had not allowed it.
   */
  @Test
  void aWriteThatWrapsItsSetMayEvictItsOwnFirstLineUnderAllocate() {
    int sets = 4;
    SetAssociativeHostCache c = new SetAssociativeHostCache(new SparsePhysicalMemory(4096),
        HostCacheConfig.xc40().withGeometry(sets * 2 * 64, 64, 2).withLatencies(10, 100)
            .withNicWritePolicy(NicWritePolicy.ALLOCATE));
    byte[] one = new byte[1];
    c.cpuLoad(512, one, 0, 1); // line 8, set 0, least recently used
    c.cpuLoad(0, one, 0, 1); // line 0, set 0
    c.nicWrite(570, new byte[199], 0, 199); // lines 8 to 12: line 12 is set 0's again
    assertThat(c.holds(570)).as("line 8 made way for line 12").isFalse();
    assertThat(c.holds(768)).isTrue();
    assertThat(c.holds(0)).isTrue();
    assertThat(c.count(HostCacheStatistic.NIC_WRITE_UPDATED)).isEqualTo(1);
    assertThat(c.count(HostCacheStatistic.NIC_WRITE_ALLOCATED)).isEqualTo(4);
  }

  /**
   * A NIC write allocates only into a set's first two ways (Data Direct I/O's default share of the L3), evicting the
   * least recently used line there, whoever brought it in; the CPU's lines in the other ways stay.
   */
  @Test
  void allocatingWritesTakeAtMostTwoWaysOfASet() {
    SetAssociativeHostCache big = new SetAssociativeHostCache(new SparsePhysicalMemory(64L << 20),
        HostCacheConfig.xc40().withNicWritePolicy(NicWritePolicy.ALLOCATE));
    long stride = (long) big.config().sets() * 64; // lines this far apart share a set
    byte[] word = new byte[8];
    for (int i = 0; i < 5; i++) {
      big.cpuLoad(i * stride, word, 0, 8); // ways 0..4, way 0 the least recently used
    }
    long x = 5 * stride;
    long y = 6 * stride;
    long z = 7 * stride;
    big.nicWrite(x, new byte[64], 0, 64); // evicts line 0 (way 0)
    big.nicWrite(y, new byte[64], 0, 64); // evicts line 1 (way 1)
    big.nicWrite(z, new byte[64], 0, 64); // evicts x, the older of the two I/O ways
    assertThat(big.holds(0)).isFalse();
    assertThat(big.holds(stride)).isFalse();
    assertThat(big.holds(x)).isFalse();
    assertThat(big.holds(y)).isTrue();
    assertThat(big.holds(z)).isTrue();
    for (int i = 2; i < 5; i++) {
      assertThat(big.holds(i * stride)).as("the CPU's line %s", i).isTrue();
    }
    assertThat(big.count(HostCacheStatistic.EVICTION)).isEqualTo(3);
    assertThat(big.count(HostCacheStatistic.WRITEBACK)).as("x was dirty").isEqualTo(1);
    assertThat(big.residentLines()).isEqualTo(5);
  }

  @Test
  void invalidateAndBypassMakeThePollerMiss() {
    for (NicWritePolicy p : new NicWritePolicy[] {NicWritePolicy.INVALIDATE, NicWritePolicy.BYPASS}) {
      SetAssociativeHostCache c = cache(p);
      assertThat(pollWritePoll(c)).as(p.toString()).containsExactly(82_000, 82_000, 82_000);
      assertThat(c.memory().readLong(FLAG)).isEqualTo(42);
    }
    assertThat(cache(NicWritePolicy.INVALIDATE).count(HostCacheStatistic.NIC_WRITE_INVALIDATED)).isZero();
  }

  @Test
  void aNicReadOfADirtyLineHitsExceptUnderBypass() {
    byte[] word = new byte[8];
    SetAssociativeHostCache update = cache(NicWritePolicy.UPDATE);
    update.cpuStore(FLAG, LittleEndian.ofLong(7), 0, 8);
    assertThat(update.nicRead(FLAG, word, 0, 8)).isEqualTo(17_400);
    assertThat(update.holdsDirty(FLAG)).isTrue();
    SetAssociativeHostCache bypass = cache(NicWritePolicy.BYPASS);
    bypass.cpuStore(FLAG, LittleEndian.ofLong(7), 0, 8);
    assertThat(bypass.nicRead(FLAG, word, 0, 8)).isEqualTo(82_000);
    assertThat(LittleEndian.getLong(word)).isEqualTo(7);
    assertThat(bypass.holds(FLAG)).isTrue();
    assertThat(bypass.holdsDirty(FLAG)).as("written back by the snoop").isFalse();
    assertThat(bypass.count(HostCacheStatistic.WRITEBACK)).isEqualTo(1);
  }

  @Test
  void aNicWriteOfAnUncachedLineGoesToMemoryAndAllocatesNothing() {
    SetAssociativeHostCache c = cache(NicWritePolicy.UPDATE);
    assertThat(c.nicWrite(FLAG, new byte[64], 0, 64)).isEqualTo(82_000);
    assertThat(c.materializedSets()).isZero();
    assertThat(c.residentLines()).isZero();
    assertThat(c.count(HostCacheStatistic.NIC_WRITE_MISS)).isEqualTo(1);
  }

  @Test
  void theDefaultCacheIsSparse() {
    SetAssociativeHostCache c = new SetAssociativeHostCache(new SparsePhysicalMemory(1L << 36), HostCacheConfig.xc40());
    assertThat(c.config().sets()).isEqualTo(32_768);
    assertThat(c.materializedSets()).isZero();
    byte[] b = new byte[256];
    c.cpuLoad(1L << 30, b, 0, 256);
    assertThat(c.materializedSets()).isEqualTo(4);
    assertThat(c.residentLines()).isEqualTo(4);
    assertThat(c.allocatedWays()).as("a set is given two of its 20 ways at first").isEqualTo(8);
  }

  @Test
  void everySetOfAGeometryThatIsNotAPowerOfTwoIsItsOwn() {
    // 100 sets: line i maps to set i % 100; each set must keep its own line.
    HostCacheConfig cfg = HostCacheConfig.xc40().withGeometry(64L * 2 * 100, 64, 2);
    SetAssociativeHostCache c = new SetAssociativeHostCache(new SparsePhysicalMemory(1L << 24), cfg);
    assertThat(c.config().sets()).isEqualTo(100);
    for (int i = 0; i < 100; i++) {
      c.cpuStore(64L * i, LittleEndian.ofLong(i + 1), 0, 8);
    }
    assertThat(c.materializedSets()).isEqualTo(100);
    assertThat(c.allocatedWays()).isEqualTo(200);
    byte[] word = new byte[8];
    for (int i = 0; i < 100; i++) {
      assertThat(c.holdsDirty(64L * i)).as("line %d", i).isTrue();
      assertThat(c.cpuLoad(64L * i, word, 0, 8)).as("line %d hits", i).isEqualTo(cfg.hitLatencyPs());
      assertThat(LittleEndian.getLong(word)).isEqualTo(i + 1);
      assertThat(c.holds(64L * (i + 100))).as("the next line of set %d is not cached", i).isFalse();
    }
    assertThat(c.count(HostCacheStatistic.CPU_LOAD_HIT)).isEqualTo(100);
  }

  @Test
  void theLastSetOfTheLargestGeometryIsReached() {
    // 2^31 - 1 sets of one 64-byte way: the last set index is the largest an int holds.
    long sets = Integer.MAX_VALUE;
    HostCacheConfig cfg = HostCacheConfig.xc40().withGeometry(64L * sets, 64, 1);
    SetAssociativeHostCache c = new SetAssociativeHostCache(new SparsePhysicalMemory(1L << 40), cfg);
    long last = 64L * (sets - 1);
    c.cpuStore(last, LittleEndian.ofLong(9), 0, 8);
    c.cpuStore(0, LittleEndian.ofLong(8), 0, 8);
    assertThat(c.materializedSets()).isEqualTo(2);
    assertThat(c.holdsDirty(last)).isTrue();
    assertThat(c.holdsDirty(0)).isTrue();
    assertThat(c.holds(64L * (sets - 2))).isFalse();
    assertThat(c.nicView().readLong(last)).isEqualTo(9);
  }

  @Test
  void aSetsWaysAreAddedAsItFills() {
    SetAssociativeHostCache c = new SetAssociativeHostCache(new SparsePhysicalMemory(1L << 36), HostCacheConfig.xc40());
    long setStride = (long) c.config().sets() * c.config().lineBytes();
    byte[] b = new byte[1];
    int[] expected = {2, 2, 4, 4, 8, 8, 8, 8, 16, 16, 16, 16, 16, 16, 16, 16, 20, 20, 20, 20, 20, 20};
    for (int i = 0; i < expected.length; i++) {
      c.cpuStore(i * setStride, b, 0, 1); // line i of set 0
      assertThat(c.allocatedWays()).as("after %d lines", i + 1).isEqualTo(expected[i]);
    }
    assertThat(c.residentLines()).isEqualTo(20);
    assertThat(c.count(HostCacheStatistic.EVICTION)).isEqualTo(2);
    assertThat(c.holds(0)).as("the least recently used line went first").isFalse();
    assertThat(c.holds(2 * setStride)).isTrue();
  }

  @Test
  void aMultiLineAccessCostsItsSlowestLine() {
    SetAssociativeHostCache c = cache(NicWritePolicy.UPDATE);
    byte[] b = new byte[128];
    c.cpuLoad(FLAG, b, 0, 64);
    assertThat(c.cpuLoad(FLAG, b, 0, 128)).isEqualTo(82_000);
    assertThat(c.cpuLoad(FLAG, b, 0, 128)).isEqualTo(17_400);
    assertThat(c.count(HostCacheStatistic.CPU_LOAD_HIT)).isEqualTo(3);
  }

  @Test
  void viewsReadAndWriteWordsThroughTheirPath() {
    SetAssociativeHostCache c = cache(NicWritePolicy.UPDATE);
    HostMemory cpu = c.cpuView();
    HostMemory nic = c.nicView();
    cpu.writeLong(FLAG, -5);
    nic.writeInt(FLAG + 8, 9);
    assertThat(nic.readLong(FLAG)).isEqualTo(-5);
    assertThat(cpu.readInt(FLAG + 8)).isEqualTo(9);
    assertThat(c.count(HostCacheStatistic.NIC_WRITE_UPDATED)).isEqualTo(1);
    assertThat(cpu.capacity()).isEqualTo(1 << 20);
    long before = nic.allocatedBytes();
    assertThat(cpu.allocate(4096, 4096)).isEqualTo(before + SparsePhysicalMemory.FIRST_ALLOCATABLE);
  }

  @Test
  void callerMistakesNameTheRange() {
    SetAssociativeHostCache c = cache(NicWritePolicy.UPDATE);
    assertThatThrownBy(() -> c.cpuLoad((1 << 20) - 4, new byte[8], 0, 8))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must lie within [0, 0x100000)");
    assertThatThrownBy(() -> c.nicWrite(0, new byte[4], 2, 4))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("srcOffset + length");
    assertThatThrownBy(() -> HostCacheConfig.xc40().withGeometry(1000, 64, 4))
        .hasMessageContaining("capacityBytes must be a positive multiple of lineBytes × ways (256)");
    assertThatThrownBy(() -> HostCacheConfig.xc40().withGeometry(4096, 48, 4))
        .hasMessageContaining("lineBytes must be a power of two from 8 to 4096 but was 48");
    assertThatThrownBy(() -> HostCacheConfig.xc40().withLatencies(10, 5))
        .hasMessageContaining("memoryLatencyPs must be >= hitLatencyPs (10) but was 5");
    assertThatThrownBy(() -> HostCacheConfig.xc40().withLatencies(10, Long.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("memoryLatencyPs must be in [0, 1e9] ps (1 ms) but was " + Long.MAX_VALUE);
    assertThatThrownBy(() -> HostCacheConfig.xc40().withLatencies(-1, 5))
        .hasMessage("hitLatencyPs must be in [0, 1e9] ps (1 ms) but was -1");
    assertThatThrownBy(() -> c.count(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("statistic must not be null");
  }

  @Test
  void configurationTextRoundTrips() {
    HostCacheConfig c = HostCacheConfig.xc40();
    assertThat(c.toString()).isEqualTo("capacity=40M,line=64,ways=20,hitPs=17400,memoryPs=82000,policy=update");
    assertThat(HostCacheConfig.parse(c.toString())).isEqualTo(c);
    assertThat(HostCacheConfig.parse("")).isEqualTo(c);
    HostCacheConfig small = HostCacheConfig.parse("capacity=2560K,ways=20,policy=INVALIDATE");
    assertThat(small.nicWritePolicy()).isEqualTo(NicWritePolicy.INVALIDATE);
    assertThat(HostCacheConfig.parse(small.toString())).isEqualTo(small);
    assertThatThrownBy(() -> HostCacheConfig.parse("policy=writeback"))
        .hasMessageContaining("nicWritePolicy must be one of update, invalidate, bypass, allocate but was 'writeback'");
    assertThatThrownBy(() -> HostCacheConfig.parse("size=1M")).hasMessageContaining("but was 'size'");
    assertThatThrownBy(() -> HostCacheConfig.parse("hitPs=-1")).hasMessageContaining("hitPs must be a whole number");
  }

  @Test
  void aRepeatedKeyIsRefusedRatherThanTheLaterOneWinningInSilence() {
    assertThatThrownBy(() -> HostCacheConfig.parse("ways=4,capacity=1M,ways=8"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("host cache key ways must be given once but was given twice: 'ways=4,capacity=1M,ways=8'");
    assertThatThrownBy(() -> HostCacheConfig.parse("policy=update,Policy=bypass"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("host cache key policy must be given once but was given twice");
    assertThat(HostCacheConfig.parse("ways=8,capacity=1M").ways()).isEqualTo(8);
  }

  @Test
  void noneIsNamedNone() {
    HostCache none = HostCache.none(new SparsePhysicalMemory(4096));
    assertThat(none).hasToString("none");
    assertThat(none.nicView().readLong(8)).isZero();
  }
}
