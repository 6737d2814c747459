package io.github.ariesmodel.system.mpi;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.system.AriesSystem;
import java.util.ArrayList;
import java.util.List;

/**
 * The two OSU micro-benchmarks most quoted for MPI on a network, run on the MPI layer between two nodes, or between
 * two ranks of one node (the same node twice: Cray MPICH's on-node path through shared memory when the configuration
 * has it on): {@code osu_latency} (ping-pong; half the round trip) and {@code osu_bw} (a window of non-blocking sends
 * in flight, then a 4-byte acknowledgement), with the benchmarks' structure (warm-up iterations excluded from the
 * timing). Each call builds a fresh two-rank job on the system it is given, so run it on a quiet system.
 */
public final class OsuBenchmarks {

  /**
   * The largest buffer a rank of {@link #alltoall} may need, in bytes: the longest Java array the JDK's own collections
   * grow to, {@code Integer.MAX_VALUE - 8} (the JDK's {@code ArraysSupport.SOFT_MAX_ARRAY_LENGTH}: some VMs refuse a
   * longer one; the bound {@code RouterFabric} keeps its arrays to).
   */
  public static final long MAX_BUFFER_BYTES = Integer.MAX_VALUE - 8;

  /** osu_bw's default window of messages in flight. */
  public static final int OSU_WINDOW = 64;

  private OsuBenchmarks() {}

  /**
   * One row of a latency table.
   *
   * @param bytes message size
   * @param latencyNs half the average round trip, nanoseconds
   */
  public record LatencyRow(long bytes, double latencyNs) {}

  /**
   * One row of a bandwidth table.
   *
   * @param bytes message size
   * @param gigabytesPerSecond payload delivered per second, 10^9 bytes
   */
  public record BandwidthRow(long bytes, double gigabytesPerSecond) {}

  /**
   * One row of a collectives table: osu_barrier's and osu_allreduce's (8 bytes, one long, sum) average latency.
   *
   * @param nodes ranks, one a node
   * @param barrierUs the mean over ranks of each rank's average barrier time, microseconds
   * @param allreduceUs the same for an 8-byte allreduce, microseconds
   */
  public record CollectiveRow(int nodes, double barrierUs, double allreduceUs) {}

  /**
   * {@code osu_barrier} and {@code osu_allreduce} (8 bytes) on one rank on each of the given nodes, with the
   * benchmarks' structure (OSU 5.x's {@code osu_barrier.c} and {@code osu_allreduce.c}): the barrier's warm-up calls
   * untimed, then its timed calls back to back; the allreduce after a barrier, each call timed alone with an untimed
   * barrier after it (warm-up calls included in the loop, not in the sum). The figure is the mean over the ranks of
   * each rank's average (OSU's "Avg Latency"). Builds one job on the system, which should be quiet.
   *
   * @param system the system
   * @param nodes distinct nodes, at least 2
   * @param warmup untimed calls of each
   * @param iterations timed calls of each, at least 1
   * @param config the MPI configuration (with or without the collective engine)
   * @return the row
   */
  public static CollectiveRow collectives(AriesSystem system, int[] nodes, int warmup, int iterations,
      MpiConfig config) {
    return collectives(system, nodes, 1, warmup, iterations, config);
  }

  /**
   * The same with several ranks on each node (ranks fill a node before the next, as {@link MpiJob.Builder#nodes}
   * places them); the figure is the mean over all ranks.
   *
   * @param system the system
   * @param nodes distinct nodes, at least 2
   * @param ranksPerNode ranks on each node, 1 to 272
   * @param warmup untimed calls of each
   * @param iterations timed calls of each, at least 1
   * @param config the MPI configuration
   * @return the row
   */
  public static CollectiveRow collectives(AriesSystem system, int[] nodes, int ranksPerNode, int warmup,
      int iterations, MpiConfig config) {
    checkCollective(nodes, warmup, iterations);
    MpiJob job = MpiJob.builder(system).nodes(nodes).ranksPerNode(ranksPerNode).config(config).build();
    double[] barrier = new double[nodes.length * ranksPerNode];
    double[] allreduce = new double[nodes.length * ranksPerNode];
    job.run(mpi -> {
      var w = mpi.world();
      for (int i = 0; i < warmup; i++) {
        mpi.barrier(w);
      }
      long t0 = mpi.now();
      for (int i = 0; i < iterations; i++) {
        mpi.barrier(w);
      }
      long t1 = mpi.now();
      long[] in = {mpi.rank()};
      long[] out = new long[1];
      barrier[mpi.rank()] = (t1 - t0) / 1e6 / iterations;
      allreduce[mpi.rank()] = eachCallAlone(mpi, warmup, iterations, () -> mpi.allreduce(in, out, ReduceOp.SUM, w));
    });
    return new CollectiveRow(nodes.length, mean(barrier), mean(allreduce));
  }

  /**
   * {@code osu_alltoall} at one block size: every rank sends {@code bytes} to each rank (itself included) in one
   * {@code MPI_Alltoall} of {@code MPI_CHAR}, each call timed alone with an untimed barrier after it, as OSU 5.x's
   * {@code osu_alltoall.c} does; the figure is the mean over the ranks of each rank's average. MPICH's algorithm is
   * chosen by the block size and the ranks ({@link Mpi#alltoall}): Bruck for blocks up to
   * {@link MpiConfig#alltoallShortBytes()} from {@link MpiConfig#alltoallMinProcs()} ranks, else all isends and
   * irecvs at once, else pairwise. Builds one job on the system, which should be quiet.
   *
   * @param system the system
   * @param nodes distinct nodes, at least 2
   * @param ranksPerNode ranks on each node, 1 to 272 (ranks fill a node before the next)
   * @param bytes the block each rank sends to each rank, 1 to 1,048,576; with the ranks, a rank's buffer (ranks ×
   *     bytes) at most {@link #MAX_BUFFER_BYTES}
   * @param warmup untimed calls
   * @param iterations timed calls, at least 1
   * @param config the MPI configuration
   * @return microseconds, the mean over the ranks of their average call
   * @throws IllegalArgumentException for an argument out of range, and when a rank's buffer would pass a Java array,
   *     naming the ranks, the block and the product, before the job is built
   */
  public static double alltoall(AriesSystem system, int[] nodes, int ranksPerNode, int bytes, int warmup,
      int iterations, MpiConfig config) {
    checkCollective(nodes, warmup, iterations);
    checkArgument(bytes >= 1 && bytes <= (1 << 20), "bytes must be in [1, 1048576] but was %s", bytes);
    MpiJob.Builder b = MpiJob.builder(system).nodes(nodes).ranksPerNode(ranksPerNode).config(config);
    long ranks = (long) nodes.length * ranksPerNode;
    // (the int product wrapped: 8 nodes of 256 ranks at 1 MiB made a NegativeArraySizeException in every rank)
    checkArgument(ranks * bytes <= MAX_BUFFER_BYTES, "ranks × bytes (each rank's send and receive buffer, a block"
        + " for every rank) must be at most %s (the largest Java array) but was %s × %s = %s (%s nodes × %s"
        + " ranksPerNode)", MAX_BUFFER_BYTES, ranks, bytes, ranks * bytes, nodes.length, ranksPerNode);
    MpiJob job = b.build();
    double[] us = new double[nodes.length * ranksPerNode];
    job.run(mpi -> {
      int n = mpi.world().size();
      byte[] send = new byte[n * bytes];
      byte[] recv = new byte[n * bytes];
      java.util.Arrays.fill(send, (byte) 1);
      us[mpi.rank()] = eachCallAlone(mpi, warmup, iterations, () -> mpi.alltoall(send, recv, mpi.world()));
    });
    return mean(us);
  }

  /**
   * OSU's loop for a collective's latency: a barrier, then each call timed alone and followed by an untimed barrier;
   * the first {@code warmup} calls are not summed.
   *
   * @return this rank's average call, microseconds
   */
  private static double eachCallAlone(Mpi mpi, int warmup, int iterations, Runnable call) {
    var w = mpi.world();
    mpi.barrier(w);
    long sum = 0;
    for (int i = 0; i < warmup + iterations; i++) {
      long start = mpi.now();
      call.run();
      if (i >= warmup) {
        sum += mpi.now() - start;
      }
      mpi.barrier(w);
    }
    return sum / 1e6 / iterations;
  }

  private static void checkCollective(int[] nodes, int warmup, int iterations) {
    checkArgument(nodes != null && nodes.length >= 2, "nodes must name at least 2 nodes");
    checkArgument(warmup >= 0, "warmup must be >= 0 but was %s", warmup);
    checkArgument(iterations >= 1, "iterations must be >= 1 but was %s", iterations);
  }

  private static double mean(double[] values) {
    return java.util.Arrays.stream(values).average().orElse(0);
  }

  /**
   * osu_latency's sizes: 0, then powers of two up to a maximum.
   *
   * @param maxBytes the largest size, 1 to 2^30
   * @return the sizes
   */
  public static long[] sizes(long maxBytes) {
    checkArgument(maxBytes >= 1 && maxBytes <= (1L << 30), "maxBytes must be in [1, 2^30] but was %s", maxBytes);
    List<Long> s = new ArrayList<>();
    s.add(0L);
    for (long b = 1; b <= maxBytes; b <<= 1) {
      s.add(b);
    }
    return s.stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * Ping-pong latency by size between two nodes, or two ranks of one node ({@code osu_latency}): for each size a
   * barrier, then the round trips, rank 0's clock started after the warm-up ones; half the mean timed round trip.
   *
   * @param system a quiet system
   * @param nodeA node of rank 0
   * @param nodeB node of rank 1 (nodeA itself for two ranks of one node)
   * @param sizes message sizes, bytes, each 0 to 2^30
   * @param warmup untimed round trips per size, ≥ 0
   * @param iterations timed round trips per size, ≥ 1
   * @param config the MPI settings
   * @return one row per size, in the order given
   */
  public static List<LatencyRow> latency(AriesSystem system, int nodeA, int nodeB, long[] sizes, int warmup,
      int iterations, MpiConfig config) {
    checkArgs(system, nodeA, nodeB, sizes, warmup, iterations, config);
    long max = max(sizes);
    MpiJob job = MpiJob.builder(system).placement(nodeA, nodeB).config(withHeap(config, 4 * max)).build();
    double[] ns = new double[sizes.length];
    job.run(mpi -> {
      var w = mpi.world();
      int peer = 1 - mpi.rank();
      for (int k = 0; k < sizes.length; k++) {
        byte[] buf = new byte[(int) sizes[k]];
        // osu_latency starts each size with an MPI_Barrier (OSU 5.x and 7.x), so the first round trip of a size, and
        // of the job, does not find the peer still in the previous size or at the job's start; without it the first
        // size of a run with no warm-up was 11 % slower (1,443.8 against 1,299.4 ns, 0 bytes first, two-groups, same router)
        mpi.barrier(w);
        long start = 0;
        for (int i = 0; i < warmup + iterations; i++) {
          if (i == warmup) {
            start = mpi.now();
          }
          if (mpi.rank() == 0) {
            mpi.send(buf, 0, buf.length, peer, 1, w);
            mpi.recv(buf, 0, buf.length, peer, 1, w);
          } else {
            mpi.recv(buf, 0, buf.length, peer, 1, w);
            mpi.send(buf, 0, buf.length, peer, 1, w);
          }
        }
        if (mpi.rank() == 0) {
          ns[k] = (mpi.now() - start) / 1e3 / (2.0 * iterations);
        }
      }
    });
    List<LatencyRow> rows = new ArrayList<>();
    for (int k = 0; k < sizes.length; k++) {
      rows.add(new LatencyRow(sizes[k], ns[k]));
    }
    return rows;
  }

  /**
   * Uni-directional bandwidth by size between two nodes, or two ranks of one node ({@code osu_bw}): rank 0 starts
   * {@code window} isends, rank 1 as many irecvs; both wait; rank 1 answers with 4 bytes.
   *
   * @param system a quiet system
   * @param nodeA the sender's node
   * @param nodeB the receiver's node (nodeA itself for two ranks of one node)
   * @param sizes message sizes, bytes, each 0 to 2^30
   * @param window messages in flight, 1 to 1024 ({@link #OSU_WINDOW} in osu_bw)
   * @param warmup untimed windows per size, ≥ 0
   * @param iterations timed windows per size, ≥ 1
   * @param config the MPI settings (the internal buffer space is raised to hold a window when needed)
   * @return one row per size, in the order given
   */
  public static List<BandwidthRow> bandwidth(AriesSystem system, int nodeA, int nodeB, long[] sizes, int window,
      int warmup, int iterations, MpiConfig config) {
    checkArgs(system, nodeA, nodeB, sizes, warmup, iterations, config);
    checkArgument(window >= 1 && window <= 1024, "window must be in [1, 1024] but was %s", window);
    long max = max(sizes);
    long need = bandwidthBufferBytes(sizes, window);
    MpiConfig raised = withHeap(config, need);
    MpiJob job;
    try {
      job = MpiJob.builder(system).placement(nodeA, nodeB).config(raised).build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      if (raised == config) {
        throw e;
      }
      // The buffer space was raised from the window and the largest size (the node's memory refused its
      // registration), so name those, not the heap they became; the refusal follows.
      throw new IllegalArgumentException("window (" + window + ") x 2 x (largest size " + max + " + 128) = " + need
          + " bytes of MPI buffer space do not fit a rank's node: " + e.getMessage(), e);
    }
    double[] gbps = new double[sizes.length];
    job.run(mpi -> {
      var w = mpi.world();
      byte[] ack = new byte[4];
      for (int k = 0; k < sizes.length; k++) {
        byte[] buf = new byte[(int) sizes[k]];
        Request[] rs = new Request[window];
        long start = 0;
        for (int i = 0; i < warmup + iterations; i++) {
          if (i == warmup) {
            start = mpi.now();
          }
          if (mpi.rank() == 0) {
            for (int j = 0; j < window; j++) {
              rs[j] = mpi.isend(buf, 0, buf.length, 1, 100, w);
            }
            mpi.waitall(rs);
            mpi.recv(ack, 0, 4, 1, 101, w);
          } else {
            for (int j = 0; j < window; j++) {
              rs[j] = mpi.irecv(buf, 0, buf.length, 0, 100, w);
            }
            mpi.waitall(rs);
            mpi.send(ack, 0, 4, 0, 101, w);
          }
        }
        if (mpi.rank() == 0) {
          double seconds = (mpi.now() - start) / 1e12;
          gbps[k] = sizes[k] * (double) window * iterations / seconds / 1e9;
        }
      }
    });
    List<BandwidthRow> rows = new ArrayList<>();
    for (int k = 0; k < sizes.length; k++) {
      rows.add(new BandwidthRow(sizes[k], gbps[k]));
    }
    return rows;
  }

  /**
   * The MPI buffer space {@link #bandwidth} asks of each rank: two windows of the largest message, each message with
   * 128 bytes of the heap's bookkeeping. The configuration's heap is raised to this and 1 MiB more when it is smaller,
   * up to {@link MpiConfig.Builder#heapBytes}'s 64 GiB bound.
   *
   * @param sizes message sizes, bytes, each 0 to 2^30
   * @param window messages in flight, 1 to 1024
   * @return bytes
   * @throws IllegalArgumentException for a size or window out of range
   */
  public static long bandwidthBufferBytes(long[] sizes, int window) {
    checkArgument(sizes != null && sizes.length > 0, "sizes must name at least one size");
    for (long s : sizes) {
      checkArgument(s >= 0 && s <= (1L << 30), "sizes must be in [0, 2^30] but one was %s", s);
    }
    checkArgument(window >= 1 && window <= 1024, "window must be in [1, 1024] but was %s", window);
    return 2L * window * (max(sizes) + 128);
  }

  /**
   * The memory each rank of {@link #bandwidth}'s two-rank job registers on its node: its mailboxes and its buffer
   * heap, raised as {@link #bandwidthBufferBytes} says, in whole pages of the configuration's page size. A node whose
   * memory is smaller cannot run it (the IOMMU refuses the registration); one whose memory is larger may still refuse
   * it for the page tables and what the node holds already.
   *
   * @param sizes message sizes, bytes, each 0 to 2^30
   * @param window messages in flight, 1 to 1024
   * @param config the MPI settings the job would start from
   * @return bytes
   * @throws IllegalArgumentException for a size or window out of range, or a null configuration
   */
  public static long bandwidthRegistrationBytes(long[] sizes, int window, MpiConfig config) {
    checkArgument(config != null, "config must not be null");
    return Rank.registrationBytes(withHeap(config, bandwidthBufferBytes(sizes, window)), 2);
  }

  /** The synchronization of a one-sided latency test, as OSU's {@code -s} option names them. */
  public enum RmaSync {
    /** {@code -s lock}: a shared lock, the operation, an unlock, every iteration. */
    LOCK,
    /** {@code -s flush}: one lock around the loop; the operation and a flush every iteration (OSU's MPI-3 default). */
    FLUSH,
    /** {@code -s flush_local}: one lock around the loop; the operation and a local flush every iteration. */
    FLUSH_LOCAL,
    /** {@code -s lock_all}: a lock-all, the operation, an unlock-all, every iteration. */
    LOCK_ALL,
    /** {@code -s fence}: both ranks fence; an operation each way between; half the time of an iteration. */
    FENCE,
    /** {@code -s pscw}: start, the operation, complete, then post and wait for the other's; half an iteration. */
    PSCW
  }

  /**
   * One-sided latency by size between two nodes, or two ranks of one node ({@code osu_put_latency} and {@code
   * osu_get_latency} with {@code -w create}): the loops of OSU 5.x's benchmarks, with OSU's division (per iteration
   * for lock, lock_all, flush and flush_local, per half iteration for fence and pscw). The target window is {@code max(sizes)} bytes.
   *
   * @param system a quiet system
   * @param nodeA node of rank 0, the origin of lock and flush
   * @param nodeB node of rank 1 (nodeA itself for two ranks of one node)
   * @param get a get ({@code osu_get_latency}) instead of a put
   * @param sync the synchronization
   * @param sizes message sizes, bytes, each 0 to 2^30
   * @param warmup untimed iterations per size, ≥ 0
   * @param iterations timed iterations per size, ≥ 1
   * @param config the MPI settings
   * @return one row per size, in the order given
   */
  public static List<LatencyRow> rmaLatency(AriesSystem system, int nodeA, int nodeB, boolean get, RmaSync sync,
      long[] sizes, int warmup, int iterations, MpiConfig config) {
    checkArgs(system, nodeA, nodeB, sizes, warmup, iterations, config);
    checkArgument(sync != null, "sync must not be null");
    long max = max(sizes);
    MpiJob job = MpiJob.builder(system).placement(nodeA, nodeB).config(withHeap(config, 4 * max)).build();
    double[] ns = new double[sizes.length];
    job.run(mpi -> {
      int me = mpi.rank();
      int peer = 1 - me;
      int[] other = {peer};
      byte[] mem = new byte[(int) max];
      Window w = mpi.winCreate(mem, 1, mpi.world());
      for (int k = 0; k < sizes.length; k++) {
        byte[] buf = new byte[(int) sizes[k]];
        int n = buf.length;
        long start = 0;
        mpi.barrier(mpi.world());
        boolean held = sync == RmaSync.FLUSH || sync == RmaSync.FLUSH_LOCAL;
        if (held && me == 0) {
          mpi.winLock(false, 1, 0, w);
        }
        for (int i = 0; i < warmup + iterations; i++) {
          if (i == warmup) {
            start = mpi.now();
          }
          switch (sync) {
            case LOCK -> {
              if (me == 0) {
                mpi.winLock(false, 1, 0, w);
                operate(mpi, get, buf, n, 1, w);
                mpi.winUnlock(1, w);
              }
            }
            case FLUSH -> {
              if (me == 0) {
                operate(mpi, get, buf, n, 1, w);
                mpi.winFlush(1, w);
              }
            }
            case FLUSH_LOCAL -> {
              if (me == 0) {
                operate(mpi, get, buf, n, 1, w);
                mpi.winFlushLocal(1, w);
              }
            }
            case LOCK_ALL -> {
              if (me == 0) {
                mpi.winLockAll(0, w);
                operate(mpi, get, buf, n, 1, w);
                mpi.winUnlockAll(w);
              }
            }
            case FENCE -> {
              if (me == 0) {
                mpi.winFence(0, w);
                operate(mpi, get, buf, n, peer, w);
                mpi.winFence(0, w);
                mpi.winFence(0, w);
              } else {
                mpi.winFence(0, w);
                mpi.winFence(0, w);
                operate(mpi, get, buf, n, peer, w);
                mpi.winFence(0, w);
              }
            }
            case PSCW -> {
              if (me == 0) {
                mpi.winStart(other, 0, w);
                operate(mpi, get, buf, n, peer, w);
                mpi.winComplete(w);
                mpi.winPost(other, 0, w);
                mpi.winWait(w);
              } else {
                mpi.winPost(other, 0, w);
                mpi.winWait(w);
                mpi.winStart(other, 0, w);
                operate(mpi, get, buf, n, peer, w);
                mpi.winComplete(w);
              }
            }
          }
        }
        long end = mpi.now();
        if (held && me == 0) {
          mpi.winUnlock(1, w);
        }
        if (me == 0) {
          boolean half = sync == RmaSync.FENCE || sync == RmaSync.PSCW;
          ns[k] = (end - start) / 1e3 / iterations / (half ? 2 : 1);
        }
        mpi.barrier(mpi.world());
      }
      mpi.winFree(w);
    });
    List<LatencyRow> rows = new ArrayList<>();
    for (int k = 0; k < sizes.length; k++) {
      rows.add(new LatencyRow(sizes[k], ns[k]));
    }
    return rows;
  }

  private static void operate(Mpi mpi, boolean get, byte[] buf, int n, int target, Window w) {
    if (get) {
      mpi.get(buf, 0, n, target, 0, w);
    } else {
      mpi.put(buf, 0, n, target, 0, w);
    }
  }

  private static void checkArgs(AriesSystem system, int nodeA, int nodeB, long[] sizes, int warmup, int iterations,
      MpiConfig config) {
    checkArgument(system != null, "system must not be null");
    checkArgument(config != null, "config must not be null");
    checkArgument(nodeA >= 0 && nodeA < system.nodeCount(), "nodeA must be in [0, %s] but was %s",
        system.nodeCount() - 1, nodeA);
    checkArgument(nodeB >= 0 && nodeB < system.nodeCount(), "nodeB must be in [0, %s] but was %s",
        system.nodeCount() - 1, nodeB);
    checkArgument(sizes != null && sizes.length > 0, "sizes must name at least one size");
    for (long s : sizes) {
      checkArgument(s >= 0 && s <= (1L << 30), "sizes must be in [0, 2^30] but one was %s", s);
    }
    checkArgument(warmup >= 0, "warmup must be >= 0 but was %s", warmup);
    checkArgument(iterations >= 1, "iterations must be >= 1 but was %s", iterations);
  }

  private static long max(long[] sizes) {
    long m = 0;
    for (long s : sizes) {
      m = Math.max(m, s);
    }
    return m;
  }

  private static MpiConfig withHeap(MpiConfig c, long need) {
    long bytes = Math.max(c.heapBytes(), need + (1L << 20));
    return bytes == c.heapBytes() ? c : c.toBuilder().heapBytes(Math.min(bytes, 64L << 30)).build();
  }
}
