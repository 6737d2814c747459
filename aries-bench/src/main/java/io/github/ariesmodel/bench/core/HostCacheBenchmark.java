package io.github.ariesmodel.bench.core;

import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.cache.SetAssociativeHostCache;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The host cache's set lookup as an MPI replay meets it: {@code nodes} caches of the default geometry (40 MB, 20
 * ways, 32,768 sets), each with {@code SETS_USED} sets in use (about what a rank of stop 30's 1,024-rank ring replay
 * materializes: 1,066 a node), and operations that go round the nodes, so that with 1,024 nodes the caches' state is
 * not in the CPU's caches (as in a replay, where a node's turn comes after many others'). Each operation is one 8-byte
 * access:
 *
 * <ul>
 *   <li>{@code nicReadHit}: a NIC read of a cached line (its set and way found, data copied from the cache);
 *   <li>{@code nicReadAbsentSet}: a NIC read of a line whose set holds nothing (the NIC reading a buffer the CPU never
 *       touched), from memory;
 *   <li>{@code nicReadMissInSet}: a NIC read of an uncached line of a set in use (every way compared), from memory;
 *   <li>{@code cpuLoadHit}: a CPU load of a cached line (its LRU stamp moved);
 *   <li>{@code nicReadBufferLine}, {@code nicReadUncachedBufferLine}: the next 64-byte line of a 16 KiB buffer that
 *       the CPU has (has not) cached, as the NIC reads a message's payload one packet at a time (each node has its own
 *       buffer and place in it; between two lines of one node's buffer come the other nodes' turns).
 * </ul>
 *
 * <p>Run: {@code mvn -B -o -q -pl aries-bench -am package -DskipTests && java -jar aries-bench/target/benchmarks.jar
 * HostCacheBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HostCacheBenchmark {

  /** Sets in use a node. */
  private static final int SETS_USED = 1_024;
  /** Addresses of each kind a node, walked in turn. */
  private static final int ADDRESSES = 256;

  /** Caches the operations go round (a power of two). */
  @Param({"1", "1024"})
  public int nodes;

  private SetAssociativeHostCache[] caches;
  private long[] cached;
  private long[] absentSet;
  private long[] missInSet;
  private final byte[] word = new byte[8];
  private final byte[] line = new byte[64];
  private int next;
  /** Per node, the next line of its buffer to read. */
  private int[] bufferLine;
  /** The buffers: the cached one at {@code BUFFER}, the uncached one at {@code 2 × BUFFER}. */
  private static final long BUFFER = 1L << 30;
  private static final int BUFFER_LINES = 256;

  /** Builds the caches and fills {@code SETS_USED} random sets of each with one line. */
  @Setup
  public void setUp() {
    SplittableRandom r = new SplittableRandom(1);
    HostCacheConfig cfg = HostCacheConfig.xc40();
    int sets = cfg.sets();
    long setStride = (long) sets * cfg.lineBytes();
    caches = new SetAssociativeHostCache[nodes];
    cached = new long[nodes * ADDRESSES];
    absentSet = new long[nodes * ADDRESSES];
    missInSet = new long[nodes * ADDRESSES];
    bufferLine = new int[nodes];
    byte[] buffer = new byte[BUFFER_LINES * 64];
    for (int n = 0; n < nodes; n++) {
      SetAssociativeHostCache c = new SetAssociativeHostCache(new SparsePhysicalMemory(1L << 34), cfg);
      caches[n] = c;
      c.cpuStore(BUFFER, buffer, 0, buffer.length);
      boolean[] used = new boolean[sets];
      int[] usedSets = new int[SETS_USED];
      for (int k = 0; k < SETS_USED; k++) {
        int s;
        do {
          s = r.nextInt(sets);
        } while (used[s]);
        used[s] = true;
        usedSets[k] = s;
        c.cpuLoad((long) s * cfg.lineBytes(), word, 0, 8); // line s of memory: set s, first tag
      }
      for (int k = 0; k < ADDRESSES; k++) {
        int s = usedSets[r.nextInt(SETS_USED)];
        cached[n * ADDRESSES + k] = (long) s * cfg.lineBytes();
        missInSet[n * ADDRESSES + k] = (long) s * cfg.lineBytes() + (1 + r.nextInt(64)) * setStride;
        int a;
        do {
          a = r.nextInt(sets);
        } while (used[a]);
        absentSet[n * ADDRESSES + k] = (long) a * cfg.lineBytes();
      }
    }
  }

  private int index() {
    int i = next++;
    // node i mod nodes, then the next address of that node
    return (i & (nodes - 1)) * ADDRESSES + ((i / nodes) & (ADDRESSES - 1));
  }

  /** A NIC read of a cached line. */
  @Benchmark
  public long nicReadHit() {
    int i = index();
    return caches[i / ADDRESSES].nicRead(cached[i], word, 0, 8);
  }

  /** A NIC read of a line whose set is not in use. */
  @Benchmark
  public long nicReadAbsentSet() {
    int i = index();
    return caches[i / ADDRESSES].nicRead(absentSet[i], word, 0, 8);
  }

  /** A NIC read of an uncached line of a set in use. */
  @Benchmark
  public long nicReadMissInSet() {
    int i = index();
    return caches[i / ADDRESSES].nicRead(missInSet[i], word, 0, 8);
  }

  /** The next line of a node's cached 16 KiB buffer. */
  @Benchmark
  public long nicReadBufferLine() {
    return readNextLine(BUFFER);
  }

  /** The next line of a node's uncached 16 KiB buffer. */
  @Benchmark
  public long nicReadUncachedBufferLine() {
    return readNextLine(2 * BUFFER);
  }

  /** The next node's next line of its buffer at {@code base}. */
  private long readNextLine(long base) {
    int n = next++ & (nodes - 1);
    int l = bufferLine[n]++ & (BUFFER_LINES - 1);
    return caches[n].nicRead(base + 64L * l, line, 0, 64);
  }

  /** A CPU load of a cached line. */
  @Benchmark
  public long cpuLoadHit() {
    int i = index();
    return caches[i / ADDRESSES].cpuLoad(cached[i], word, 0, 8);
  }
}
