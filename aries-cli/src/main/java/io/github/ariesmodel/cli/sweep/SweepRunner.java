package io.github.ariesmodel.cli.sweep;

import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.report.RunMetadata;
import io.github.ariesmodel.cli.report.SweepCoordinates;
import io.github.ariesmodel.cli.report.WallClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.AbstractList;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Runs a job at every point of one shard of a sweep and writes each point's results to {@code
 * <out>/point-<index>.json}. Each point is an independent run: the job gets the point's parameters (including the seed,
 * when the sweep has a {@code seed} parameter) and must be deterministic in them, so a point gives the same file
 * whichever shard, machine or order runs it.
 *
 * <p>Before writing, the runner records the point in the results' metadata: the point's parameters come first in
 * {@link RunMetadata#parameters()} (overriding the job's values for the same names), followed by the job's other
 * parameters, and {@link RunMetadata#sweep()} is set to the point's
 * {@link SweepCoordinates}, which {@link SweepMerge} uses to find duplicate and missing points.
 */
public final class SweepRunner {

  /** Listens to a sweep's progress, e.g. to print a line per point. */
  @FunctionalInterface
  public interface Listener {
    /**
     * Called after a point's file was written.
     *
     * @param point the point
     * @param done points of this shard done so far, including this one
     * @param total points in this shard
     * @param file the file written
     */
    void pointDone(SweepPoint point, int done, int total, Path file);
  }

  private final Function<Map<String, String>, Results> job;
  private final Clock clock;

  /**
   * A runner of one job, timing points with the system clock.
   *
   * @param job maps a point's parameters to its results; must be deterministic in the parameters
   */
  public SweepRunner(Function<Map<String, String>, Results> job) {
    this(job, Clock.systemUTC());
  }

  /**
   * A runner of one job.
   *
   * @param job maps a point's parameters to its results; must be deterministic in the parameters
   * @param clock wall clock used to time points whose results carry no {@link WallClock} of their own
   */
  public SweepRunner(Function<Map<String, String>, Results> job, Clock clock) {
    this.job = Objects.requireNonNull(job, "job");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * The file name of a point's results.
   *
   * @param index point index
   * @return {@code point-<index>.json}
   */
  public static String fileName(int index) {
    return "point-" + index + ".json";
  }

  /**
   * Runs one point.
   *
   * @param spec the sweep
   * @param point one of its points
   * @return the job's results with the point recorded in the metadata, and a wall clock when the job set none
   * @throws IllegalStateException when the job returns null
   */
  public Results runPoint(SweepSpec spec, SweepPoint point) {
    Instant start = clock.instant();
    Results r;
    try {
      r = job.apply(point.parameters());
    } catch (IllegalArgumentException e) {
      // a workload's own range, checked as its point runs: say which point (the type keeps its exit status)
      throw new IllegalArgumentException(where(point) + e.getMessage(), e);
    } catch (IllegalStateException e) {
      throw new IllegalStateException(where(point) + e.getMessage(), e);
    } catch (RuntimeException e) {
      // another kind keeps its own report (a trace that cannot be replayed, a file's error): the point goes before it
      throw new PointFailedException(where(point), e);
    }
    Instant end = clock.instant();
    if (r == null) {
      throw new IllegalStateException("the sweep job returned no results for point " + point.index() + " "
          + point.parameters());
    }
    Map<String, String> params = new LinkedHashMap<>(point.parameters());
    r.metadata().parameters().forEach(params::putIfAbsent);
    RunMetadata m = r.metadata().toBuilder()
        .clearParameters()
        .parameters(params)
        .sweep(new SweepCoordinates(point.index(), spec.size(), spec.toString()))
        .wallClock(r.metadata().wallClock() != null ? r.metadata().wallClock()
            : new WallClock(start, end.isBefore(start) ? start : end))
        .build();
    return r.withMetadata(m);
  }

  /**
   * A sweep point's failure of a kind the command line reports in its own way (a trace that cannot be replayed, an
   * input file's error, another command's error): the cause, with the point it happened in, whose words
   * ({@code point N {coordinates}: }) go before the cause's report.
   */
  public static final class PointFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String point;

    /**
     * @param point the words naming the point, ending in ": "
     * @param cause the failure
     */
    public PointFailedException(String point, RuntimeException cause) {
      super(point + cause.getMessage(), cause);
      this.point = point;
    }

    /** @return the words naming the point, ending in ": " */
    public String point() {
      return point;
    }
  }

  private static String where(SweepPoint point) {
    return "point " + point.index() + " " + point.parameters() + ": ";
  }

  /**
   * Runs the points of one shard, in index order, writing each file as soon as its point is done.
   *
   * @param spec the sweep
   * @param shard which points to run
   * @param outDir directory for the point files (created when missing)
   * @param includeWallClock whether the files include the wall-clock fields (leave out for byte-identical reruns)
   * @param listener told after each point, or null
   * @return the files written, in index order
   * @throws IOException when a file cannot be written
   */
  public List<Path> run(SweepSpec spec, Shard shard, Path outDir, boolean includeWallClock, Listener listener)
      throws IOException {
    return run(spec, shard, outDir, includeWallClock, listener, 1);
  }

  /**
   * Runs the points of one shard, up to {@code jobs} at a time on as many threads. Each point is an independent,
   * deterministic run, so the files are byte-for-byte those of a sequential run; they are written, and the listener
   * told, in index order as the points finish, so the output is in the same order too. A point that fails stops the
   * sweep with its exception after the points before it were written, as in a sequential run (points after it that
   * were already running are abandoned). At most {@value #AHEAD_PER_THREAD} points per thread are started ahead of
   * the next one to write, so memory holds a few points' results, not the shard's.
   *
   * @param spec the sweep
   * @param shard which points to run
   * @param outDir directory for the point files (created when missing)
   * @param includeWallClock whether the files include the wall-clock fields (leave out for byte-identical reruns)
   * @param listener told after each point, or null
   * @param jobs points run at the same time, ≥ 1 (1 runs them one after another on the calling thread)
   * @return the files written, in index order
   * @throws IOException when a file cannot be written
   */
  public List<Path> run(SweepSpec spec, Shard shard, Path outDir, boolean includeWallClock, Listener listener,
      int jobs) throws IOException {
    if (jobs < 1) {
      throw new IllegalArgumentException("jobs must be >= 1 but was " + jobs);
    }
    if (jobs > 1) {
      return runConcurrently(spec, shard, outDir, includeWallClock, listener, jobs);
    }
    List<SweepPoint> points = spec.points(shard);
    // An empty shard still leaves its directory, so that merging every shard's directory works.
    Files.createDirectories(outDir);
    for (int i = 0; i < points.size(); i++) {
      SweepPoint p = points.get(i);
      Path file = outDir.resolve(fileName(p.index()));
      ResultsJson.write(runPoint(spec, p), file, includeWallClock);
      if (listener != null) {
        listener.pointDone(p, i + 1, points.size(), file);
      }
    }
    return files(outDir, points); // (as the concurrent path: made as read, not a list of every path)
  }

  private List<Path> runConcurrently(SweepSpec spec, Shard shard, Path outDir, boolean includeWallClock,
      Listener listener, int jobs) throws IOException {
    List<SweepPoint> points = spec.points(shard);
    Files.createDirectories(outDir);
    int threads = Math.min(jobs, Math.max(1, points.size()));
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "sweep-point");
      t.setDaemon(true);
      return t;
    });
    try {
      runAhead(pool, AHEAD_PER_THREAD * threads, spec, points, outDir, includeWallClock, listener);
    } finally {
      pool.shutdownNow();
    }
    return files(outDir, points);
  }

  /**
   * Points started per thread beyond the next one to write: 2, so that a slow point holds back the others only after
   * each thread has run one more point past it (assumed: enough to keep the threads busy over points of mixed cost).
   */
  static final int AHEAD_PER_THREAD = 2;

  /**
   * Runs points on an executor, at most {@code ahead} of them started and not yet written, and writes them in order.
   * Until stop 77 every point of the shard was submitted at once and each one's results were kept until the sweep
   * ended, so memory grew with the shard's size: a shard of millions of points, or of thousands of large results,
   * ran out of heap with {@code --jobs 2} where a sequential sweep kept one point's.
   *
   * @param executor runs the points (tests give one that runs them at once)
   * @param ahead points started and not yet written, at most; {@code >= 1}
   */
  void runAhead(Executor executor, int ahead, SweepSpec spec, List<SweepPoint> points,
      Path outDir, boolean includeWallClock, Listener listener) throws IOException {
    ArrayDeque<FutureTask<Results>> started = new ArrayDeque<>();
    int next = 0;
    for (int i = 0; i < points.size(); i++) {
      while (next < points.size() && next < i + ahead) {
        SweepPoint p = points.get(next++);
        FutureTask<Results> task = new FutureTask<>(() -> runPoint(spec, p));
        started.add(task);
        executor.execute(task);
      }
      SweepPoint p = points.get(i);
      Results r;
      try {
        r = started.remove().get(); // (removed: the written point's results are not kept)
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for sweep point " + p.index(), e);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException re) {
          throw re;
        }
        if (cause instanceof Error err) {
          throw err;
        }
        throw new IllegalStateException("sweep point " + p.index() + " failed", cause);
      }
      Path file = outDir.resolve(fileName(p.index()));
      ResultsJson.write(r, file, includeWallClock);
      if (listener != null) {
        listener.pointDone(p, i + 1, points.size(), file);
      }
    }
  }

  /** The files of points, in their order, each made as it is read (a list of millions of paths took gigabytes). */
  private static List<Path> files(Path outDir, List<SweepPoint> points) {
    return new AbstractList<>() {
      @Override
      public Path get(int k) {
        return outDir.resolve(fileName(points.get(k).index()));
      }

      @Override
      public int size() {
        return points.size();
      }
    };
  }
}
