package io.github.ariesmodel.cli.sweep;

import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.workload.Workload;
import io.github.ariesmodel.cli.workload.WorkloadRun;
import io.github.ariesmodel.cli.workload.Workloads;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The jobs a sweep can run, by name: each maps a point's parameters to {@link Results}. A registry is an ordinary
 * object (there is no global one); {@link #builtIn()} makes one holding the built-in jobs, and callers (the CLI, a
 * user's program) may register more.
 *
 * <p>To add a built-in job, add one {@link #register} line to {@link #builtIn()}.
 */
public final class SweepJobs {

  /**
   * A registered job.
   *
   * @param name name used with {@code --job}
   * @param description one line for {@code sweep --list-jobs}
   * @param job the job: parameters to results, deterministic in the parameters
   * @param check checks a point's parameters without running it (throws IllegalArgumentException); run on every
   *     point before the first simulation starts
   */
  public record Job(String name, String description, Function<Map<String, String>, Results> job,
      Consumer<Map<String, String>> check) {

    /**
     * A job whose points are only checked when they run.
     *
     * @param name name used with {@code --job}
     * @param description one line
     * @param job the job
     */
    public Job(String name, String description, Function<Map<String, String>, Results> job) {
      this(name, description, job, p -> { });
    }

    /**
     * Validates the entry.
     *
     * @throws IllegalArgumentException when the name is not letters, digits, {@code . _ -}
     */
    public Job {
      if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
        throw new IllegalArgumentException("job name must be letters, digits, '.', '_' or '-' but was \"" + name
            + "\"");
      }
      Objects.requireNonNull(description, "description");
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(check, "check");
    }
  }

  private final Map<String, Job> jobs = new LinkedHashMap<>();

  /** An empty registry. */
  public SweepJobs() {}

  /** @return a new registry holding the built-in jobs */
  public static SweepJobs builtIn() {
    SweepJobs j = new SweepJobs();
    WorkloadRun.PointChecker checker = new WorkloadRun.PointChecker();
    for (Workloads w : Workloads.values()) {
      Workload workload = w.create();
      Job job = new Job(workload.name(), workload.description() + " (system, routing, seed, fabric, translator set"
          + " the system; other parameters go to the workload)", point -> WorkloadRun.sweepPoint(w.create(), point),
          point -> checker.check(workload, point));
      j.add(job);
    }
    return j;
  }

  /**
   * Registers a job.
   *
   * @param name name used with {@code --job}
   * @param description one line
   * @param job the job
   * @return this registry
   * @throws IllegalArgumentException when a job of that name is registered
   */
  public SweepJobs register(String name, String description, Function<Map<String, String>, Results> job) {
    return add(new Job(name, description, job));
  }

  /**
   * Registers a job with its point check.
   *
   * @param job the job
   * @return this registry
   * @throws IllegalArgumentException when a job of that name is registered
   */
  public SweepJobs add(Job job) {
    if (jobs.putIfAbsent(job.name(), job) != null) {
      throw new IllegalArgumentException("a sweep job named \"" + job.name() + "\" is already registered");
    }
    return this;
  }

  /**
   * A job by name.
   *
   * @param name job name
   * @return the job
   * @throws IllegalArgumentException listing the registered names when none matches
   */
  public Job job(String name) {
    Job j = jobs.get(name);
    if (j == null) {
      throw new IllegalArgumentException("sweep job must be one of " + names() + " but was \"" + io.github.ariesmodel.core.Texts.abbreviate(name)
          + "\"");
    }
    return j;
  }

  /** @return the registered jobs, in registration order */
  public List<Job> jobs() {
    return List.copyOf(jobs.values());
  }

  /** @return the registered names, in registration order */
  public List<String> names() {
    return new ArrayList<>(jobs.keySet());
  }
}
