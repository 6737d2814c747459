package io.github.ariesmodel.bench.system;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.MpiConfig;
import io.github.ariesmodel.system.mpi.MpiJob;
import io.github.ariesmodel.system.mpi.ReduceOp;
import java.util.Locale;

/**
 * Simulated latency of MPI_Barrier and of an 8-byte MPI_Allreduce (sum of longs) on the world communicator, with
 * MPICH's software algorithms and with the NICs' collective engine, by node count (one rank a node, nodes spread
 * over Theta's nine groups as a linear placement of a large job would not: node i·stride), seed 1. Each figure is the
 * mean of {@code ITERATIONS} calls after {@code WARMUP}, as OSU's osu_barrier and osu_allreduce time them. Simulated
 * time, so the figures are the same on every machine. Run:
 * {@code java -cp aries-bench/target/benchmarks.jar io.github.ariesmodel.bench.system.CollectiveEngineLatency}.
 */
public final class CollectiveEngineLatency {

  private static final int WARMUP = 5;
  private static final int ITERATIONS = 50;

  private CollectiveEngineLatency() {}

  /**
   * Prints a Markdown table: software against the engine with its default radix, by node count; or, with
   * {@code --radix R1,R2,...} first, the engine's barrier by radix.
   *
   * @param args node counts (default 2 4 8 16 64 256 1024), after an optional {@code --radix} list
   */
  public static void main(String[] args) {
    int[] radixes = null;
    int from = 0;
    if (args.length >= 2 && args[0].equals("--radix")) {
      radixes = java.util.Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray();
      from = 2;
    }
    int[] counts = args.length == from ? new int[] {2, 4, 8, 16, 64, 256, 1024}
        : java.util.Arrays.stream(args, from, args.length).mapToInt(Integer::parseInt).toArray();
    if (radixes != null) {
      StringBuilder head = new StringBuilder("| nodes |");
      StringBuilder rule = new StringBuilder("|---|");
      for (int r : radixes) {
        head.append(" barrier, CE radix ").append(r).append(" |");
        rule.append("---|");
      }
      System.out.println(head);
      System.out.println(rule);
      for (int n : counts) {
        StringBuilder row = new StringBuilder("| " + n + " |");
        for (int r : radixes) {
          row.append(String.format(Locale.ROOT, " %.3f µs |", measure(n, true, r)[0]));
        }
        System.out.println(row);
      }
      return;
    }
    System.out.println("| nodes | barrier, software | barrier, CE | allreduce 8 B, software | allreduce 8 B, CE |");
    System.out.println("|---|---|---|---|---|");
    int radix = MpiConfig.defaults().collectiveEngineRadix();
    for (int n : counts) {
      double[] soft = measure(n, false, radix);
      double[] ce = measure(n, true, radix);
      System.out.printf(Locale.ROOT, "| %d | %.3f µs | %.3f µs | %.3f µs | %.3f µs |%n", n, soft[0], ce[0], soft[1],
          ce[1]);
    }
  }

  /** @return mean barrier and allreduce times, microseconds */
  static double[] measure(int nodes, boolean engine, int radix) {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.aries(9), "theta").seed(1).build();
    int stride = sys.nodeCount() / nodes;
    int[] ids = new int[nodes];
    for (int i = 0; i < nodes; i++) {
      ids[i] = i * stride;
    }
    MpiJob job = MpiJob.builder(sys).nodes(ids).ranksPerNode(1)
        .config(MpiConfig.builder().collectiveEngine(engine).collectiveEngineRadix(radix).build()).build();
    double[] out = new double[2];
    job.run(mpi -> {
      var w = mpi.world();
      for (int i = 0; i < WARMUP; i++) {
        mpi.barrier(w);
      }
      long t0 = mpi.now();
      for (int i = 0; i < ITERATIONS; i++) {
        mpi.barrier(w);
      }
      long t1 = mpi.now();
      long[] in = {mpi.rank()};
      long[] sum = new long[1];
      for (int i = 0; i < WARMUP; i++) {
        mpi.allreduce(in, sum, ReduceOp.SUM, w);
      }
      mpi.barrier(w);
      long t2 = mpi.now();
      for (int i = 0; i < ITERATIONS; i++) {
        mpi.allreduce(in, sum, ReduceOp.SUM, w);
      }
      long t3 = mpi.now();
      if (mpi.rank() == 0) {
        out[0] = (t1 - t0) / 1e6 / ITERATIONS;
        out[1] = (t3 - t2) / 1e6 / ITERATIONS;
      }
    });
    return out;
  }
}
