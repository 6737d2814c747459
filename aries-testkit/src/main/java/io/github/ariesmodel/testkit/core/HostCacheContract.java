package io.github.ariesmodel.testkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.core.spi.HostMemory;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The contract of core's {@link HostCache} port, as an abstract JUnit 5 test: extend it, return a fresh cache over the
 * given memory from {@link #create(HostMemory)}, and the inherited tests check what the port promises whatever the
 * write policy:
 *
 * <ul>
 *   <li>coherence: random interleavings of CPU loads and stores and NIC writes and reads over a small range (so a
 *       small cache evicts) return, on every read of either path, the last data written by either path;
 *   <li>the NIC's reads see data the CPU stored and has not yet written back, and the CPU's reads see data the NIC
 *       wrote, whether or not the line was cached;
 *   <li>counters add up: CPU loads, CPU stores, NIC writes and NIC reads each equal the sum of their statistics, one
 *       per cache line touched (the line size is found from {@link #lineBytes()});
 *   <li>latencies are never negative, and a zero-length access costs and counts nothing;
 *   <li>an access outside the memory is refused with an {@link IllegalArgumentException}.
 * </ul>
 *
 * <pre>{@code
 * class MyCacheContractTest extends HostCacheContract {
 *   protected HostCache create(HostMemory memory) { return new MyCache(memory, 8 << 10); }
 * }
 * }</pre>
 */
public abstract class HostCacheContract {

  private static final int RANGE = 4096;

  /** For subclasses. */
  protected HostCacheContract() {}

  /**
   * @param memory a fresh 8 MiB memory
   * @return a fresh cache over it
   */
  protected abstract HostCache create(HostMemory memory);

  /** @return the line size the cache counts statistics in (64 unless overridden) */
  protected int lineBytes() {
    return 64;
  }

  private HostCache fresh() {
    return create(new SparsePhysicalMemory(8L << 20));
  }

  @Test
  void everyReadReturnsTheLastWriteWhicheverPathItTook() {
    int line = lineBytes();
    qt().withExamples(150).forAll(longs().all()).checkAssert(seed -> {
      HostCache c = fresh();
      byte[] model = new byte[RANGE];
      long[] lines = new long[4];
      SplittableRandom r = new SplittableRandom(seed);
      for (int step = 0; step < 60; step++) {
        int a = r.nextInt(RANGE);
        int n = Math.min(RANGE - a, r.nextInt(6) == 0 ? r.nextInt(0, 300) : r.nextInt(0, 9));
        int kind = r.nextInt(4);
        lines[kind] += n == 0 ? 0 : (a + n - 1) / line - a / line + 1;
        byte[] buf = new byte[n];
        long latency;
        if (kind < 2) {
          r.nextBytes(buf);
          latency = kind == 0 ? c.cpuStore(a, buf, 0, n) : c.nicWrite(a, buf, 0, n);
          System.arraycopy(buf, 0, model, a, n);
        } else {
          latency = kind == 2 ? c.cpuLoad(a, buf, 0, n) : c.nicRead(a, buf, 0, n);
          for (int i = 0; i < n; i++) {
            if (buf[i] != model[a + i]) {
              fail((kind == 2 ? "CPU" : "NIC") + " read of byte 0x" + Integer.toHexString(a + i) + " returned "
                  + buf[i] + " but " + model[a + i] + " was written last (step " + step + ", seed " + seed + ")");
            }
          }
        }
        assertThat(latency).as("latency").isNotNegative();
        if (n == 0) {
          assertThat(latency).as("latency of a zero-length access").isZero();
        }
      }
      assertThat(c.count(HostCacheStatistic.CPU_STORE_HIT) + c.count(HostCacheStatistic.CPU_STORE_MISS))
          .as("CPU stores, in lines").isEqualTo(lines[0]);
      assertThat(c.count(HostCacheStatistic.NIC_WRITE_UPDATED) + c.count(HostCacheStatistic.NIC_WRITE_INVALIDATED)
          + c.count(HostCacheStatistic.NIC_WRITE_MISS) + c.count(HostCacheStatistic.NIC_WRITE_BYPASSED)
          + c.count(HostCacheStatistic.NIC_WRITE_ALLOCATED))
          .as("NIC writes, in lines").isEqualTo(lines[1]);
      assertThat(c.count(HostCacheStatistic.CPU_LOAD_HIT) + c.count(HostCacheStatistic.CPU_LOAD_MISS))
          .as("CPU loads, in lines").isEqualTo(lines[2]);
      assertThat(c.count(HostCacheStatistic.NIC_READ_CACHE) + c.count(HostCacheStatistic.NIC_READ_MEMORY))
          .as("NIC reads, in lines").isEqualTo(lines[3]);
    });
  }

  @Test
  void theNicSeesWhatTheCpuStoredAndTheCpuWhatTheNicWrote() {
    HostCache c = fresh();
    HostMemory cpu = c.cpuView();
    HostMemory nic = c.nicView();
    cpu.writeLong(0x100, 0x1122334455667788L);
    assertThat(nic.readLong(0x100)).as("NIC read of a line the CPU just stored").isEqualTo(0x1122334455667788L);
    assertThat(cpu.readLong(0x200)).isZero();
    nic.writeLong(0x200, 42);
    assertThat(cpu.readLong(0x200)).as("CPU read of a cached line the NIC wrote").isEqualTo(42);
    nic.writeLong(0x300, 43);
    assertThat(cpu.readLong(0x300)).as("CPU read of an uncached line the NIC wrote").isEqualTo(43);
  }

  /**
   * The cache's views say they view its memory (stop 74): their {@code physicalMemory()} is null or the memory's own,
   * so that a translator gives frames back through them ({@code AddressTranslation.deregisterAndFree} refuses a view
   * of another memory).
   */
  @Test
  void theViewsSayTheyViewTheCachesMemory() {
    HostCache c = fresh();
    HostMemory physical = c.memory().physicalMemory();
    for (HostMemory view : new HostMemory[] {c.cpuView(), c.nicView()}) {
      HostMemory said = view.physicalMemory();
      if (said != null && physical != null) {
        assertThat(said).as("physicalMemory() of a view of the cache").isSameAs(physical);
      }
    }
  }

  @Test
  void accessesOutsideTheMemoryAreRefused() {
    HostCache c = fresh();
    long cap = c.memory().capacity();
    byte[] b = new byte[8];
    assertThatThrownBy(() -> c.cpuLoad(cap - 4, b, 0, 8)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> c.cpuStore(-1, b, 0, 8)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> c.nicWrite(cap, b, 0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> c.nicRead(cap - 1, b, 0, 2)).isInstanceOf(IllegalArgumentException.class);
  }
}
