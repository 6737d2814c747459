package io.github.ariesmodel.bench.iommu;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationHit;
import io.github.ariesmodel.core.spi.TranslationListener;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.iommu.BuiltInPolicy;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.iommu.internal.SetAssociativePteCache;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The PTE-cache lookup on a hit (tag compare, policy update, PTE read: what the hardware does per cycle), and the
 * IOMMU's whole timed translation path: a PTE-cache hit (huge pages: one lookup; 4 KB pages: directory and leaf
 * lookups), each including the scheduler's completion event and the listener call, the same hits through the
 * fast path {@code translateHit} (no event; {@code clockOnly} is the clock step those two include), and the throughput of a
 * miss-heavy trace (random 8-byte reads over a 1 GB region of 4 KB pages, 64 outstanding, default Aries geometry and
 * 8 fetch buffers).
 *
 * <p>Run: {@code mvn -B -o -q -pl aries-bench -am package -DskipTests && java -jar aries-bench/target/benchmarks.jar
 * 'iommu' -prof gc -f 1 -wi 3 -w 1s -i 5 -r 1s}
 */
@State(Scope.Thread)
public class PteCacheBenchmark {

  // 4,096 inputs (32 KB per array): small enough to stay in L1/L2, random enough to defeat branch prediction.
  private static final int OFFSETS = 1 << 12;
  private static final int WINDOW = 64;

  private DeterministicEventLoop loop;
  private Iommu hugeIommu;
  private Iommu smallIommu;
  private Iommu missIommu;
  private int hugeMdh;
  private int smallMdh;
  private int missMdh;
  private long[] hugeOffsets;
  private long[] smallOffsets;
  private long[] missOffsets;
  private SetAssociativePteCache cache;
  private long[] cachedLines;
  private int next;
  private long checksum;
  private final TranslationListener listener = this::onTranslated;
  private final TranslationHit hit = new TranslationHit();
  private static final long HIT_LATENCY_PS = IommuConfig.DEFAULT_HIT_LATENCY_PS;

  private void onTranslated(long now, Status status, long pa, int contiguous, Object ref, long arg) {
    checksum += pa;
  }

  /** Builds three IOMMUs on one clock and warms the hit cases so every lookup hits. */
  @Setup(Level.Trial)
  public void setUp() {
    loop = new DeterministicEventLoop();
    SplittableRandom rnd = new SplittableRandom(42);
    hugeIommu = new Iommu(new SparsePhysicalMemory(1L << 34), loop, IommuConfig.defaults());
    hugeMdh = hugeIommu.register(MemoryRegistration.of(0, 1L << 30, 1, 1).withPageSize(PageSize.SIZE_2M)).mdh();
    smallIommu = new Iommu(new SparsePhysicalMemory(1L << 30), loop, IommuConfig.defaults());
    smallMdh = smallIommu.register(MemoryRegistration.of(0, 2L << 20, 1, 1)).mdh();
    missIommu = new Iommu(new SparsePhysicalMemory(1L << 32), loop, IommuConfig.defaults());
    missMdh = missIommu.register(MemoryRegistration.of(0, 1L << 30, 1, 1)).mdh();
    cache = new SetAssociativePteCache(4, 32, 8, BuiltInPolicy.LRU.create(32, 4, 0));
    cachedLines = new long[OFFSETS];
    long[] ptes = new long[8];
    for (int i = 0; i < 128; i++) {
      long line = 0x100000L + 64L * i;
      ptes[0] = line;
      cache.fill(cache.allocate(line, 0), ptes);
    }
    for (int i = 0; i < OFFSETS; i++) {
      cachedLines[i] = 0x100000L + 64L * rnd.nextInt(128);
    }
    hugeOffsets = new long[OFFSETS];
    smallOffsets = new long[OFFSETS];
    missOffsets = new long[OFFSETS];
    for (int i = 0; i < OFFSETS; i++) {
      hugeOffsets[i] = rnd.nextLong((1L << 30) - 8) & -8L;
      smallOffsets[i] = rnd.nextLong((2L << 20) - 8) & -8L;
      missOffsets[i] = rnd.nextLong((1L << 30) - 8) & -8L;
    }
    for (int i = 0; i < OFFSETS; i++) {
      hugeIommu.translate(TranslationClient.NETWORK_REQUEST, hugeMdh, hugeOffsets[i], 8, AccessKind.READ, 1, 1,
          listener, null, 0);
      smallIommu.translate(TranslationClient.NETWORK_REQUEST, smallMdh, smallOffsets[i], 8, AccessKind.READ, 1, 1,
          listener, null, 0);
      loop.run();
    }
  }

  /** A PTE-cache lookup that hits (default 4 × 32 geometry, LRU): find, policy update, PTE read. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public long pteCacheLookupHit() {
    long line = cachedLines[next++ & (OFFSETS - 1)];
    int l = cache.find(line);
    cache.touch(l, line);
    return cache.pte(l, 0);
  }

  /** One translation that hits (2 MB pages, one-level), through the scheduler to the listener. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public long translateHitHugePage() {
    hugeIommu.translate(TranslationClient.NETWORK_REQUEST, hugeMdh, hugeOffsets[next++ & (OFFSETS - 1)], 8,
        AccessKind.READ, 1, 1, listener, null, 0);
    loop.run();
    return checksum;
  }

  /** One translation that hits (4 KB pages: directory and leaf lines both cached). */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public long translateHit4K() {
    smallIommu.translate(TranslationClient.NETWORK_REQUEST, smallMdh, smallOffsets[next++ & (OFFSETS - 1)], 8,
        AccessKind.READ, 1, 1, listener, null, 0);
    loop.run();
    return checksum;
  }

  /**
   * One translation that hits (2 MB pages) through the fast path {@link Iommu#translateHit}: no event, no listener.
   * The clock is then moved on by the hit latency (no event runs), so the next request finds the pipeline free.
   */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public long fastHitHugePage() {
    if (!hugeIommu.translateHit(TranslationClient.NETWORK_REQUEST, hugeMdh, hugeOffsets[next++ & (OFFSETS - 1)], 8,
        AccessKind.READ, 1, 1, hit)) {
      throw new IllegalStateException("the fast path refused a warm hit");
    }
    loop.runUntil(loop.now() + HIT_LATENCY_PS);
    return hit.physicalAddress();
  }

  /** The same with 4 KB pages (directory and leaf lines both cached). */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public long fastHit4K() {
    if (!smallIommu.translateHit(TranslationClient.NETWORK_REQUEST, smallMdh, smallOffsets[next++ & (OFFSETS - 1)],
        8, AccessKind.READ, 1, 1, hit)) {
      throw new IllegalStateException("the fast path refused a warm hit");
    }
    loop.runUntil(loop.now() + HIT_LATENCY_PS);
    return hit.physicalAddress();
  }

  /** Moving the clock on by the hit latency alone, as the fast-hit benchmarks do: the part of their score that is not
   * the translation. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public long clockOnly() {
    return loop.runUntil(loop.now() + HIT_LATENCY_PS);
  }

  /** A miss-heavy trace: 64 random translations over 1 GB of 4 KB pages, run to completion; score per translation. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(WINDOW)
  public long missHeavyTrace() {
    for (int i = 0; i < WINDOW; i++) {
      missIommu.translate(TranslationClient.NETWORK_REQUEST, missMdh, missOffsets[next++ & (OFFSETS - 1)], 8,
          AccessKind.READ, 1, 1, listener, null, 0);
    }
    loop.run();
    return checksum;
  }
}
