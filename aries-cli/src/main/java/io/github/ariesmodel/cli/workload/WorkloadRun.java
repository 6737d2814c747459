package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.system.BuiltSystems;
import io.github.ariesmodel.cli.system.RecordedSettings;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.cli.report.PlotSpec;
import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.FabricKind;
import io.github.ariesmodel.system.SystemStatistics;
import io.github.ariesmodel.system.TranslatorKind;
import io.github.ariesmodel.cli.report.Metric;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.RunMetadata;
import io.github.ariesmodel.cli.report.WallClock;
import java.lang.ref.SoftReference;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run of a workload turned into the documented {@link Results} (plus the plots it asked for and its notes): the
 * one path the {@code run} command and sweep points share.
 *
 * @param results the results
 * @param plots the plots to draw from them
 * @param notes sentences for the text and HTML reports ({@link WorkloadReport#note})
 */
public record WorkloadRun(Results results, List<PlotSpec> plots, List<String> notes) {

  /** Parameter names a sweep point or a configuration uses for the system rather than the workload. */
  public static final List<String> SYSTEM_KEYS = List.of("system", "routing", "seed", "fabric", "translator");

  /**
   * The parameter a run on the partitioned engine ({@code --threads N}) records, with the value {@code partitioned}:
   * its results differ from the single loop's. No workload has a parameter of this name ({@code WorkloadsTest}).
   */
  public static final String SIMULATION_ENGINE = "simulationEngine";

  /**
   * Runs a workload.
   *
   * @param w the workload
   * @param spec the system spec
   * @param params its parameters
   * @param command the command line recorded in the results
   * @return the run
   */
  public static WorkloadRun run(Workload w, SystemSpec spec, Params params, String command) {
    return run(w, spec, params, command, Progress.NONE);
  }

  /**
   * The routing the results record: the workload's own when it ran its own list (null for several), none on the ideal
   * fabric, which has no routers (it recorded "by-delivery-mode" there, a routing no packet took), else the system's.
   */
  private static String routing(SystemSpec spec, WorkloadReport r) {
    if (r.hasOwnRouting()) {
      return r.ownRouting();
    }
    return spec.fabric() == FabricKind.IDEAL ? null : spec.routing();
  }

  /**
   * Runs a workload, reporting progress.
   *
   * @param w the workload
   * @param spec the system spec
   * @param params its parameters
   * @param command the command line recorded in the results
   * @param progress where progress goes
   * @return the run
   */
  public static WorkloadRun run(Workload w, SystemSpec spec, Params params, String command, Progress progress) {
    Instant started = Instant.now();
    BuiltSystems built = new BuiltSystems();
    WorkloadReport r = w.run(spec.withBuiltSystems(built), params, progress);
    Instant finished = Instant.now();
    java.util.Map<String, String> recorded = new java.util.LinkedHashMap<>(params.asMap());
    if (spec.threads() > 0) {
      // the engine's results differ from the single loop's (not with its thread count): say which made them, under a
      // key of its own (it was "engine", which replaced mpi-collectives' own engine=on/off in the record)
      if (recorded.putIfAbsent(SIMULATION_ENGINE, "partitioned") != null) {
        throw new IllegalStateException("workload " + w.name() + " has a parameter " + SIMULATION_ENGINE
            + ", the name the results give the partitioned engine");
      }
    }
    SystemStatistics statistics = built.statistics();
    // A run that built no node (traffic drives router fabrics of its own) had no NIC and translated nothing: its
    // results record no translator and no NIC or IOMMU settings (they recorded the spec's, which nothing used).
    boolean nodes = statistics != null && statistics.nodesBuilt() > 0;
    RunMetadata.Builder m = RunMetadata.builder(RunMetadata.currentTool(), command)
        .system(spec.system()).routing(routing(spec, r)).fabric(RecordedSettings.fabric(spec.fabric()))
        .translator(nodes ? RecordedSettings.translator(spec.translator()) : null)
        .nic(nodes ? RecordedSettings.nic(spec.nic()) : null)
        .iommu(nodes && spec.translator() == TranslatorKind.IOMMU ? RecordedSettings.iommu(spec.iommu()) : null)
        .seed(spec.seed()).parameters(recorded)
        .simulatedTimePs(r.simulatedPs()).events(r.events()).wallClock(new WallClock(started, finished));
    Results.Builder b = Results.builder(m.build());
    for (Metric metric : r.metrics()) {
      b.metric(metric);
    }
    r.tables().forEach(b::table);
    b.statistics(statistics);
    return new WorkloadRun(b.build(), List.copyOf(r.plots()), List.copyOf(r.notes()));
  }

  /**
   * Runs a workload at one sweep point: the keys in {@link #SYSTEM_KEYS} build the system (defaults: system
   * {@code default}, routing by delivery mode, seed 1, routers, IOMMU), the rest are the workload's parameters.
   *
   * @param w the workload
   * @param point the point's parameters
   * @return the results
   */
  public static Results sweepPoint(Workload w, Map<String, String> point) {
    Map<String, String> rest = new LinkedHashMap<>(point);
    SystemSpec spec = sweepSystem(rest);
    return run(w, spec, Params.of(rest), "sweep --job " + w.name()).results();
  }

  /**
   * Checks a sweep point without simulating: the system keys must build a system (topology, routing, fabric and
   * translator names) and the rest must pass the workload's {@link Workload#check}: known names, the ranges and
   * choices of the workload's own parameters (those bounded by the system against the point's system), and the needs
   * computable up front. A bad value in a sweep's last point is so refused before its first point runs.
   *
   * @param w the workload
   * @param point the point's parameters
   * @throws IllegalArgumentException naming the bad key or value
   */
  public static void checkSweepPoint(Workload w, Map<String, String> point) {
    new PointChecker().check(w, point);
  }

  /**
   * Checks the points of one sweep as {@link #checkSweepPoint} does, reusing the system of the last point checked.
   * Consecutive points of a sweep mostly share their system keys, and the full system takes about a quarter of a
   * second to build (its router fabric), so a check of many points builds it once. Checks only read a system (they
   * build no node: {@code SweepPointCheckTest}) and none depends on its seed, so the seed is not part of the key. The
   * system is held softly, so that the sweep's runs can take the memory back. One checker for one sweep (the
   * built-in jobs of a {@code SweepJobs} share one), never shared between sweeps through static state.
   */
  public static final class PointChecker {

    /** A system built for checking points, with the point keys that described it. */
    private record CheckedSystem(List<String> keys, AriesSystem system) {}

    private SoftReference<CheckedSystem> lastChecked = new SoftReference<>(null);

    /**
     * Checks one point.
     *
     * @param w the workload
     * @param point the point's parameters
     * @throws IllegalArgumentException naming the bad key or value
     */
    public void check(Workload w, Map<String, String> point) {
      Map<String, String> rest = new LinkedHashMap<>(point);
      // the seed is checked (sweepSystem parses it) but left out of the key: no check depends on it
      List<String> keys = Arrays.asList(rest.get("system"), rest.get("routing"), rest.get("fabric"),
          rest.get("translator"));
      SystemSpec spec = sweepSystem(rest);
      w.check(system(keys, spec), Params.of(rest));
    }

    private synchronized AriesSystem system(List<String> keys, SystemSpec spec) {
      CheckedSystem last = lastChecked.get();
      if (last != null && last.keys().equals(keys)) {
        return last.system();
      }
      AriesSystem system = spec.build();
      lastChecked = new SoftReference<>(new CheckedSystem(keys, system));
      return system;
    }
  }

  /** Removes the system keys from a point and builds the spec they describe. */
  private static SystemSpec sweepSystem(Map<String, String> rest) {
    String system = rest.remove("system");
    String routing = rest.remove("routing");
    String seed = rest.remove("seed");
    String fabric = rest.remove("fabric");
    String translator = rest.remove("translator");
    SystemSpec spec = new SystemSpec(system == null ? "default" : system,
        routing == null ? AriesSystem.Builder.BY_DELIVERY_MODE : routing,
        seed == null ? 1 : parseSeed(seed), SystemSpec.parseFabric(fabric == null ? "routers" : fabric),
        SystemSpec.parseTranslator(translator == null ? "iommu" : translator), IommuConfig.defaults(),
          NicConfig.defaults(), null);
    return spec;
  }

  private static long parseSeed(String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("seed must be an integer but was " + Texts.abbreviate(text), e);
    }
  }

}
