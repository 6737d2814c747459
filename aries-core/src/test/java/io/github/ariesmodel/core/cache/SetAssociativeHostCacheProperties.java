package io.github.ariesmodel.core.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.core.spi.NicWritePolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * {@link SetAssociativeHostCache} against a flat reference memory (coherence), against its own counters (they add
 * up), and against a per-set LRU list (replacement). A small cache (4 sets × 2 ways × 64 B) over a 2 KB range keeps
 * evictions, write-backs and NIC hits on cached and dirty lines frequent.
 */
class SetAssociativeHostCacheProperties {

  private static final int RANGE = 2048;
  private static final int LINE = 64;
  private static final int SETS = 4;
  private static final HostCacheConfig SMALL =
      HostCacheConfig.xc40().withGeometry(SETS * 2 * LINE, LINE, 2).withLatencies(10, 100);

  enum Kind { CPU_LOAD, CPU_STORE, NIC_WRITE, NIC_READ }

  record Op(Kind kind, int address, int length, int seed) {}

  private static Gen<Op> ops() {
    Gen<Integer> lengths = integers().between(0, 8).mix(integers().between(0, 200), 25);
    return arbitrary().enumValues(Kind.class).zip(integers().between(0, RANGE - 1), lengths, integers().all(),
        (k, a, n, s) -> new Op(k, a, Math.min(n, RANGE - a), s));
  }

  @Test
  void everyReadReturnsTheLastWriteUnderEachPolicy() {
    for (NicWritePolicy policy : NicWritePolicy.values()) {
      qt().withExamples(300).forAll(lists().of(ops()).ofSizeBetween(1, 80))
          .checkAssert(ops -> replay(policy, ops));
    }
  }

  private static void replay(NicWritePolicy policy, List<Op> ops) {
    SparsePhysicalMemory memory = new SparsePhysicalMemory(RANGE * 2);
    SetAssociativeHostCache cache = new SetAssociativeHostCache(memory, SMALL.withNicWritePolicy(policy));
    byte[] ref = new byte[RANGE];
    Map<Kind, Long> lines = new EnumMap<>(Kind.class);
    for (Op op : ops) {
      int a = op.address();
      int n = op.length();
      lines.merge(op.kind(), touched(a, n), Long::sum);
      byte[] buf = new byte[n + 1];
      switch (op.kind()) {
        case CPU_STORE, NIC_WRITE -> {
          for (int i = 0; i < n; i++) {
            buf[1 + i] = (byte) (op.seed() * 31 + i);
          }
          boolean wasHeld = n > 0 && cache.holds(a);
          long latency = op.kind() == Kind.CPU_STORE ? cache.cpuStore(a, buf, 1, n) : cache.nicWrite(a, buf, 1, n);
          System.arraycopy(buf, 1, ref, a, n);
          // The policy's effect on the first line, the one a flag write touches. A write of more lines than there
          // are sets reaches the first line's set again, and under ALLOCATE may evict the first line to bring in a
          // later one: the effect is asserted only on writes that touch each set once.
          if (op.kind() == Kind.NIC_WRITE && n > 0 && touched(a, n) <= SETS) {
            assertThat(cache.holds(a)).as("%s: line of 0x%x still cached after a NIC write", policy, a)
                .isEqualTo(wasHeld && policy == NicWritePolicy.UPDATE || policy == NicWritePolicy.ALLOCATE);
            if (wasHeld && policy != NicWritePolicy.INVALIDATE && policy != NicWritePolicy.BYPASS
                && touched(a, n) == 1) {
              assertThat(latency).isEqualTo(10);
            }
          }
        }
        case CPU_LOAD, NIC_READ -> {
          if (op.kind() == Kind.CPU_LOAD) {
            cache.cpuLoad(a, buf, 1, n);
          } else {
            cache.nicRead(a, buf, 1, n);
          }
          if (!Arrays.equals(buf, 1, n + 1, ref, a, a + n)) {
            assertThat(Arrays.copyOfRange(buf, 1, n + 1)).as("%s: %s of [0x%x, +%d)", policy, op.kind(), a, n)
                .isEqualTo(Arrays.copyOfRange(ref, a, a + n));
          }
        }
        default -> throw new AssertionError(op);
      }
      // Never a stale line in memory: a line the cache does not hold dirty has memory equal to the reference.
      for (int line = 0; line < RANGE; line += LINE) {
        if (!cache.holdsDirty(line)) {
          byte[] m = new byte[LINE];
          memory.read(line, m, 0, LINE);
          if (!Arrays.equals(m, 0, LINE, ref, line, line + LINE)) {
            assertThat(m).as("%s: memory of line 0x%x (not dirty in the cache)", policy, line)
                .isEqualTo(Arrays.copyOfRange(ref, line, line + LINE));
          }
        }
      }
    }
    assertCountersAddUp(cache, policy, lines);
  }

  private static void assertCountersAddUp(SetAssociativeHostCache c, NicWritePolicy policy, Map<Kind, Long> lines) {
    assertThat(c.count(HostCacheStatistic.CPU_LOAD_HIT) + c.count(HostCacheStatistic.CPU_LOAD_MISS))
        .isEqualTo(lines.getOrDefault(Kind.CPU_LOAD, 0L));
    assertThat(c.count(HostCacheStatistic.CPU_STORE_HIT) + c.count(HostCacheStatistic.CPU_STORE_MISS))
        .isEqualTo(lines.getOrDefault(Kind.CPU_STORE, 0L));
    long nicWrites = lines.getOrDefault(Kind.NIC_WRITE, 0L);
    long updated = c.count(HostCacheStatistic.NIC_WRITE_UPDATED);
    long invalidated = c.count(HostCacheStatistic.NIC_WRITE_INVALIDATED);
    long miss = c.count(HostCacheStatistic.NIC_WRITE_MISS);
    long bypassed = c.count(HostCacheStatistic.NIC_WRITE_BYPASSED);
    long backInvalidated = c.count(HostCacheStatistic.BACK_INVALIDATION);
    switch (policy) {
      case UPDATE -> assertThat(List.of(updated + miss, invalidated, bypassed, backInvalidated))
          .containsExactly(nicWrites, 0L, 0L, 0L);
      case INVALIDATE -> assertThat(List.of(invalidated + miss, updated, bypassed, backInvalidated))
          .containsExactly(nicWrites, 0L, 0L, 0L);
      case BYPASS -> {
        assertThat(List.of(bypassed, updated, invalidated, miss)).containsExactly(nicWrites, 0L, 0L, 0L);
        assertThat(backInvalidated).isLessThanOrEqualTo(bypassed);
      }
      case ALLOCATE -> assertThat(List.of(updated + c.count(HostCacheStatistic.NIC_WRITE_ALLOCATED), miss, invalidated,
          bypassed, backInvalidated)).containsExactly(nicWrites, 0L, 0L, 0L, 0L);
      default -> throw new AssertionError(policy);
    }
    assertThat(c.count(HostCacheStatistic.NIC_READ_CACHE) + c.count(HostCacheStatistic.NIC_READ_MEMORY))
        .isEqualTo(lines.getOrDefault(Kind.NIC_READ, 0L));
    if (policy == NicWritePolicy.BYPASS) {
      assertThat(c.count(HostCacheStatistic.NIC_READ_CACHE)).isZero();
    }
    // Every line brought in is still resident, or was evicted, or was dropped by a NIC write.
    long filled = c.count(HostCacheStatistic.CPU_LOAD_MISS) + c.count(HostCacheStatistic.CPU_STORE_MISS)
        + c.count(HostCacheStatistic.NIC_WRITE_ALLOCATED);
    assertThat(filled).isEqualTo(
        c.residentLines() + c.count(HostCacheStatistic.EVICTION) + invalidated + backInvalidated);
    assertThat(c.residentLines()).isLessThanOrEqualTo(8);
  }

  private static long touched(int address, int length) {
    return length == 0 ? 0 : (address + length - 1) / LINE - address / LINE + 1;
  }

  /**
   * CPU accesses, and NIC writes that drop a line (the invalidate policy): the cache holds exactly the lines a per-set
   * LRU list holds, and evicts as often. Up to 20 ways, so a set's ways are allocated as it fills (2, 4, 8, 16, 20),
   * and the holes a dropped line leaves are filled before a way is added or a line evicted.
   */
  @Test
  void replacementIsLeastRecentlyUsedPerSet() {
    Gen<List<Integer>> lineSequences = lists().of(integers().between(0, 80)).ofSizeBetween(1, 400);
    qt().withExamples(300).forAll(lineSequences, integers().between(1, 20), integers().between(0, 2))
        .checkAssert((seq, ways, setsLog2) -> {
          int sets = 1 << setsLog2;
          SetAssociativeHostCache cache = new SetAssociativeHostCache(new SparsePhysicalMemory(8192),
              HostCacheConfig.xc40().withGeometry((long) sets * ways * LINE, LINE, ways)
                  .withNicWritePolicy(NicWritePolicy.INVALIDATE));
          List<LinkedHashMap<Integer, Boolean>> lru = new ArrayList<>();
          for (int s = 0; s < sets; s++) {
            lru.add(new LinkedHashMap<>(16, 0.75f, true));
          }
          long evictions = 0;
          byte[] one = new byte[1];
          for (int i = 0; i < seq.size(); i++) {
            int value = seq.get(i);
            if (value >= 64) { // a NIC write to line value - 64 drops it if held
              int line = value - 64;
              lru.get(line % sets).remove(line);
              cache.nicWrite((long) line * LINE + 3, one, 0, 1);
              continue;
            }
            int line = value;
            LinkedHashMap<Integer, Boolean> set = lru.get(line % sets);
            if (set.get(line) == null) {
              if (set.size() == ways) {
                Iterator<Integer> eldest = set.keySet().iterator();
                eldest.next();
                eldest.remove();
                evictions++;
              }
              set.put(line, Boolean.TRUE);
            }
            if (i % 3 == 0) {
              cache.cpuStore((long) line * LINE + 5, one, 0, 1);
            } else {
              cache.cpuLoad((long) line * LINE + 5, one, 0, 1);
            }
          }
          int held = 0;
          for (int line = 0; line < 64; line++) {
            boolean expected = lru.get(line % sets).containsKey(line);
            assertThat(cache.holds((long) line * LINE)).as("line %d", line).isEqualTo(expected);
            held += expected ? 1 : 0;
          }
          assertThat(cache.residentLines()).isEqualTo(held);
          assertThat(cache.count(HostCacheStatistic.EVICTION)).isEqualTo(evictions);
        });
  }

  /** The pass-through adapter is coherent too, trivially, and counts one miss per line. */
  @Test
  void noneCountsEveryLineAsAMemoryAccess() {
    qt().withExamples(200).forAll(lists().of(ops()).ofSizeBetween(1, 40)).checkAssert(ops -> {
      HostCache none = HostCache.none(new SparsePhysicalMemory(2 * RANGE));
      long nicWrites = 0;
      long cpuLoads = 0;
      for (Op op : ops) {
        byte[] buf = new byte[op.length()];
        long latency = switch (op.kind()) {
          case CPU_LOAD -> none.cpuLoad(op.address(), buf, 0, op.length());
          case CPU_STORE -> none.cpuStore(op.address(), buf, 0, op.length());
          case NIC_WRITE -> none.nicWrite(op.address(), buf, 0, op.length());
          case NIC_READ -> none.nicRead(op.address(), buf, 0, op.length());
        };
        assertThat(latency).isZero();
        nicWrites += op.kind() == Kind.NIC_WRITE ? touched(op.address(), op.length()) : 0;
        cpuLoads += op.kind() == Kind.CPU_LOAD ? touched(op.address(), op.length()) : 0;
      }
      assertThat(none.count(HostCacheStatistic.NIC_WRITE_MISS)).isEqualTo(nicWrites);
      assertThat(none.count(HostCacheStatistic.CPU_LOAD_MISS)).isEqualTo(cpuLoads);
      assertThat(none.count(HostCacheStatistic.CPU_LOAD_HIT)).isZero();
    });
  }
}
