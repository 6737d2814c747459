package io.github.ariesmodel.system.mpi;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Synthetic MPI load: a program that repeats one communication step, with a pause between steps, for a number of
 * steps or for ever. It is the usual background job of an interference study ({@link MpiJob#together()}): a job
 * whose only purpose is to load the network, as the "background traffic" of dragonfly interference studies (for
 * example Yang et al., "Watch Out for the Bully! Job Interference Study on Dragonfly Network", SC16, whose synthetic
 * jobs send uniform random or all-to-all traffic).
 *
 * <ul>
 *   <li>{@link #uniform}: each step, every rank sends one message to a random other rank and receives one; the pairs
 *       of a step are a random cycle through all ranks (each rank sends to the next of the cycle and receives from
 *       the one before), drawn from the seed and the step's number, so a destination is uniform over the other ranks
 *       and every rank sends and receives exactly once a step;
 *   <li>{@link #alltoall}: each step is an {@code MPI_Alltoall} of the given bytes to every rank.
 * </ul>
 *
 * <p>The ranks do nothing between steps but pause ({@link MpiJob#idle}: idle time, which OS noise does not stretch,
 * since stop 68; it was {@link Mpi#compute}); a pause of 0 makes the job send as
 * fast as MPI and the network let it. A program's steps are the same on every run and thread count.
 */
public final class SyntheticTraffic implements MpiProgram {

  /** The kinds of step. */
  public enum Pattern {
    /** A message to the next rank of a random cycle, one a step. */
    UNIFORM,
    /** An all-to-all exchange a step. */
    ALLTOALL;

    /** @return the name on the command line */
    public String text() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Largest message (bytes); the all-to-all's buffers hold it once for every rank. */
  public static final int MAX_BYTES = 1 << 26;

  /**
   * Longest pause after a step: 10^15 ps (1,000 s), the CLI's bound on {@code --background-gap-us} (10^9 µs) and the
   * one {@link MpiJob#MAX_START_PS} has (assumed: far beyond any study's pause). A longer one was taken here and
   * refused only inside a rank's run, naming {@code ps} instead of {@code gapPs}.
   */
  public static final long MAX_GAP_PS = 1_000_000_000_000_000L;

  private static final int TAG = 0x5157;

  private final Pattern pattern;
  private final int bytes;
  private final long gapPs;
  private final long steps;
  private final long seed;
  /** A step's cycle, made by the first rank that needs it and dropped once every rank has read it. */
  private final Map<Long, Cycle> cycles = new ConcurrentHashMap<>();

  private SyntheticTraffic(Pattern pattern, int bytes, long gapPs, long steps, long seed) {
    checkArgument(bytes >= 1 && bytes <= MAX_BYTES, "bytes must be in [1, %s] but was %s", MAX_BYTES, bytes);
    checkArgument(gapPs >= 0 && gapPs <= MAX_GAP_PS, "gapPs must be in [0, %s] (1,000 s) but was %s", MAX_GAP_PS,
        gapPs);
    checkArgument(steps >= 0, "steps must be >= 0 (0: for ever) but was %s", steps);
    this.pattern = pattern;
    this.bytes = bytes;
    this.gapPs = gapPs;
    this.steps = steps;
    this.seed = seed;
  }

  /**
   * Messages to random other ranks.
   *
   * @param bytes each message's size, 1 to {@link #MAX_BYTES}
   * @param gapPs pause after each step, 0 to {@link #MAX_GAP_PS}
   * @param steps steps to make; 0 for no end (a background job, stopped where the foreground ends)
   * @param seed seed of the cycles
   * @return the program
   */
  public static SyntheticTraffic uniform(int bytes, long gapPs, long steps, long seed) {
    return new SyntheticTraffic(Pattern.UNIFORM, bytes, gapPs, steps, seed);
  }

  /**
   * All-to-all exchanges.
   *
   * @param bytes sent to each rank a step, 1 to {@link #MAX_BYTES}
   * @param gapPs pause after each step, 0 to {@link #MAX_GAP_PS}
   * @param steps steps to make; 0 for no end
   * @return the program
   */
  public static SyntheticTraffic alltoall(int bytes, long gapPs, long steps) {
    return new SyntheticTraffic(Pattern.ALLTOALL, bytes, gapPs, steps, 0);
  }

  /** @return the kind of step */
  public Pattern pattern() {
    return pattern;
  }

  /** @return bytes of each message (to each rank, for all-to-all) */
  public int bytes() {
    return bytes;
  }

  /** @return pause after each step, picoseconds */
  public long gapPs() {
    return gapPs;
  }

  /** @return steps, 0 for no end */
  public long steps() {
    return steps;
  }

  @Override
  public void run(Mpi mpi) {
    int n = mpi.size();
    checkArgument(n >= 2, "synthetic traffic needs at least 2 ranks but the job has %s", n);
    if (pattern == Pattern.ALLTOALL) {
      checkArgument((long) bytes * n <= MAX_BYTES, "an all-to-all of %s bytes to each of %s ranks needs buffers of"
          + " %s bytes, more than %s", bytes, n, (long) bytes * n, MAX_BYTES);
      byte[] send = new byte[bytes * n];
      byte[] recv = new byte[bytes * n];
      for (long s = 0; steps == 0 || s < steps; s++) {
        mpi.alltoall(send, recv, mpi.world());
        pause(mpi);
      }
      return;
    }
    byte[] send = new byte[bytes];
    byte[] recv = new byte[bytes];
    int me = mpi.rank();
    for (long s = 0; steps == 0 || s < steps; s++) {
      Cycle c = cycles.computeIfAbsent(s, k -> new Cycle(n, seed, k));
      int next = c.next[me];
      int previous = c.previous[me];
      if (c.readers.incrementAndGet() == n) {
        cycles.remove(s);
      }
      Request r = mpi.irecv(recv, 0, bytes, previous, TAG, mpi.world());
      mpi.send(send, 0, bytes, next, TAG, mpi.world());
      mpi.wait(r);
      pause(mpi);
    }
  }

  private void pause(Mpi mpi) {
    if (gapPs > 0) {
      MpiJob.idle(mpi, gapPs); // a pause, not work: OS noise does not stretch it (docs/mpi.md)
    }
  }

  /** A random cycle through the ranks: a random order, each rank followed by the next and the last by the first. */
  private static final class Cycle {
    final int[] next;
    final int[] previous;
    final AtomicInteger readers = new AtomicInteger();

    Cycle(int n, long seed, long step) {
      int[] order = new int[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + step);
      for (int i = n - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      next = new int[n];
      previous = new int[n];
      for (int i = 0; i < n; i++) {
        int a = order[i];
        int b = order[(i + 1) % n];
        next[a] = b;
        previous[b] = a;
      }
    }
  }

  @Override
  public String toString() {
    return pattern.text() + " " + bytes + " B, gap " + gapPs + " ps, " + (steps == 0 ? "no end" : steps + " steps");
  }
}
