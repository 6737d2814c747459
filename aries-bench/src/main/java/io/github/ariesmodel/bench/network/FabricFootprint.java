package io.github.ariesmodel.bench.network;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.network.RouterFabric;
import io.github.ariesmodel.network.Topologies;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;

/**
 * A command-line measurement (not a JMH benchmark, it is a one-shot cost): build time and retained heap of a whole
 * fabric, by default the full 241-group Aries system (23,136 routers, 92,544 nodes, 925,440 ports). Prints one line
 * per phase; heap is measured after {@code System.gc()} as used-heap growth, so it is approximate.
 *
 * <p>Run: {@code java -cp aries-bench/target/benchmarks.jar io.github.ariesmodel.bench.network.FabricFootprint
 * [topology spec]}.
 */
public final class FabricFootprint {

  private FabricFootprint() {}

  /**
   * Measures.
   *
   * @param args optional topology spec (default {@code full})
   */
  public static void main(String[] args) {
    String spec = args.length > 0 ? args[0] : "full";
    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
    long before = usedAfterGc(mem);
    long t0 = System.nanoTime();
    Dragonfly topology = Topologies.parse(spec);
    long t1 = System.nanoTime();
    long afterTopology = usedAfterGc(mem);
    DeterministicEventLoop loop = new DeterministicEventLoop();
    long t2 = System.nanoTime();
    RouterFabric fabric = RouterFabric.builder(topology, loop).routing("adaptive0").build();
    long t3 = System.nanoTime();
    long afterFabric = usedAfterGc(mem);
    System.out.println(topology.describe());
    System.out.printf(Locale.ROOT, "topology build  %.3f s, retained %.1f MiB%n", (t1 - t0) / 1e9,
        (afterTopology - before) / 1048576.0);
    System.out.printf(Locale.ROOT, "fabric build    %.3f s, retained %.1f MiB (%d ports, %d VCs)%n", (t3 - t2) / 1e9,
        (afterFabric - afterTopology) / 1048576.0, topology.routerCount() * topology.portCount(), fabric.vcCount());
    System.out.printf(Locale.ROOT, "total           %.3f s, retained %.1f MiB%n", (t1 - t0 + t3 - t2) / 1e9,
        (afterFabric - before) / 1048576.0);
    if (fabric.nodeCount() != topology.nodeCount()) {
      throw new IllegalStateException("node counts differ");
    }
  }

  private static long usedAfterGc(MemoryMXBean mem) {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return mem.getHeapMemoryUsage().getUsed();
  }
}
