package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.cli.report.PlotSpec;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.network.RouterFabric;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.FabricKind;
import io.github.ariesmodel.cli.report.ResultTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.WeakHashMap;

/**
 * Synthetic traffic load sweeps on the router fabric alone (no NICs): for each routing and offered load, one
 * {@link TrafficExperiment} point (Bernoulli injection, the network's documented warm-up and measurement window).
 * Reports latency and accepted load against offered load, and link utilization by rank.
 */
final class TrafficWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "traffic";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "synthetic traffic: latency and throughput vs offered load per routing";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("pattern", "uniform: uniform, permutation, adversarial, neighbor, hotspot, all-to-all");
    m.put("loads", "0.1,0.3,0.5,0.7,0.9: offered loads (fraction of injection bandwidth)");
    m.put("routings", "minimal,valiant,ugal,adaptive0: routings to compare (default: --routing alone, when given)");
    m.put("measureNs", "0: measurement window in ns (0 = the network's default)");
    return m;
  }

  /**
   * The largest share of a point's measured packets that may be undelivered when the run ends for its latency to be
   * reported: beyond it the mean and p99 cover only the packets that got through (at load 1.0 of adversarial traffic
   * under minimal routing on canonical-small, 5 % of them, and a p99 below that of load 0.5). The threshold
   * docs/network.md's validation tables and curves use (ValidationSweep, aries-network's test sources); assumed.
   */
  static final double MAX_UNFINISHED_SHARE = 0.02;

  /**
   * @param measured packets created in the window
   * @param unfinished of those, not delivered when the run ended
   * @return whether the latency of the delivered ones stands for the point's: some were measured and at most {@link
   *     #MAX_UNFINISHED_SHARE} of them are unfinished
   */
  static boolean latencyMeaningful(long measured, long unfinished) {
    return measured > 0 && unfinished <= MAX_UNFINISHED_SHARE * measured;
  }

  /**
   * What the reports say when routings have no latency at any of the loads: the latency plot draws the others, or is
   * left out when no routing has one.
   *
   * @param without the routings without latency
   * @param all every routing run
   * @return the note
   */
  static String noLatencyPlot(List<String> without, List<String> all) {
    return (without.size() == all.size() ? "no latency plot" : "the latency plot leaves out "
        + String.join(", ", without)) + ": no latency at any load for " + String.join(", ", without) + " (more than"
        + " 2 % of the measured packets unfinished at each: past saturation)";
  }

  /** Why the ideal fabric is refused: it used to be ignored, the experiments running on routers all the same. */
  private static final String IDEAL_REFUSED = "fabric must be routers for traffic, which loads the router fabric's links,"
      + " but was ideal";

  /**
   * The parameters as {@link #run} uses them, read and range-checked in this one place, which {@link #check} shares.
   *
   * @param pattern the traffic pattern
   * @param loads the offered loads
   * @param routings the routing names, as given (the fabric knows which exist)
   * @param measureNs the measurement window, 0 for the network's default
   */
  private record Settings(TrafficPattern pattern, double[] loads, List<String> routings, long measureNs) {

    /**
     * @param params the parameters
     * @param systemRouting the system's routing ({@code --routing}): run alone when it names one and {@code
     *     routings} is not given, which wins when it is (the default job's traffic phase gives its own)
     * @return the settings
     */
    static Settings read(Params params, String systemRouting) {
      TrafficPattern pattern = TrafficPattern.parse(params.string("pattern", "uniform"));
      double[] loads = params.numberList("loads", "0.1,0.3,0.5,0.7,0.9", TrafficExperiment.MIN_LOAD, 2.0);
      // the ideal fabric, whose routing name is "ideal", is refused before this is read
      boolean named = !systemRouting.equals(AriesSystem.Builder.BY_DELIVERY_MODE);
      List<String> routings = named && !params.asMap().containsKey("routings") ? List.of(systemRouting)
          : params.list("routings", "minimal,valiant,ugal,adaptive0");
      Params.refuseRepeats("routings", routings,
          routings.stream().map(r -> r.toLowerCase(java.util.Locale.ROOT)).toList());
      long measureNs = params.longValue("measureNs", 0, 0, 1_000_000_000L);
      return new Settings(pattern, loads, routings, measureNs);
    }
  }

  /**
   * Also checks what each experiment refuses before it simulates: the topology (the system's; the run builds the
   * same one from the spec's system) must have two nodes, and each routing must make a router fabric on it (a known
   * name, with no more virtual channels than the fabric has). The fabrics are built, as the experiments build theirs,
   * and dropped; nothing is simulated.
   */
  @Override
  public void check(AriesSystem system, Params params) {
    Workload.super.check(system, params);
    if (system.routerFabric().isEmpty()) {
      throw new IllegalArgumentException(IDEAL_REFUSED);
    }
    if (system.nodeCount() < 2) {
      throw new SystemUnfitException("traffic", 2, system.nodeCount()); // as TrafficExperiment.on refuses it
    }
    Settings settings = Settings.read(params, system.routingName());
    Topology topology = system.topology();
    // the pattern as the experiment takes it (adversarial needs two groups), and the window against the slot, which
    // the run refuses before it simulates: a sweep found both only as the point ran, after writing the points before
    TrafficExperiment.on(topology).pattern(settings.pattern());
    checkWindow(topology, settings.measureNs());
    for (String r : settings.routings()) {
      checkRouting(topology, r.trim());
    }
  }

  /**
   * Refuses a window shorter than one packet slot in the parameter's own name and unit: the experiment refuses it
   * naming its own field in picoseconds, a name and a value the user never typed ({@code measurePs ... 16000 ps here
   * ..., but was 1000}).
   *
   * @param topology the topology the points run on
   * @param measureNs the window, ns; 0 for the network's default, which is longer than any slot
   */
  static void checkWindow(Topology topology, long measureNs) {
    double slotPs = TrafficExperiment.slotPs(topology);
    if (measureNs > 0 && measureNs * 1000.0 < slotPs) {
      throw new IllegalArgumentException("measureNs must be at least one packet slot, "
          + Figures.text(Math.ceil(slotPs) / 1000) + " ns here, but was " + measureNs);
    }
  }

  /**
   * Routings whose fabric this workload object's checks have built on a topology, by topology: a sweep checks all its
   * points with one workload object, its points mostly share a topology (the checked system is reused, {@link
   * WorkloadRun.PointChecker}), and a full system's fabric takes about a quarter of a second. Weak keys, so a
   * topology no longer used is dropped.
   */
  private final Map<Topology, Set<String>> fabricsBuilt = new WeakHashMap<>();

  /** Builds and drops a router fabric with the routing on the topology, once per pair: what the experiment refuses. */
  private void checkRouting(Topology topology, String routing) {
    synchronized (fabricsBuilt) {
      if (fabricsBuilt.getOrDefault(topology, Set.of()).contains(routing)) {
        return;
      }
    }
    RouterFabric.builder(topology, new DeterministicEventLoop()).routing(routing).build();
    synchronized (fabricsBuilt) {
      fabricsBuilt.computeIfAbsent(topology, t -> new HashSet<>()).add(routing);
    }
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params, Progress progress) {
    params.checkAllUsed(parameters().keySet());
    if (spec.fabric() == FabricKind.IDEAL) {
      throw new IllegalArgumentException(IDEAL_REFUSED);
    }
    Settings settings = Settings.read(params, spec.routing());
    TrafficPattern pattern = settings.pattern();
    double[] loads = settings.loads();
    List<String> routings = settings.routings();
    long measureNs = settings.measureNs();
    Topology topology = AriesSystem.builder().system(spec.system()).build().topology();
    checkWindow(topology, measureNs);
    // measuredPackets and unfinishedPackets last, so the columns before keep their places (docs/figures.tsv points at
    // the default job's latencyMean by its index)
    ResultTable.Builder table = ResultTable.builder("traffic")
        .string("routing").number("load", "").number("offeredLoad", "").number("acceptedLoad", "")
        .number("latencyMean", "ns")
        .number("latencyP99", "ns").number("minimalFraction", "").number("meanHops", "")
        .integer("measuredPackets", "").integer("unfinishedPackets", "");
    ResultTable.Builder links = ResultTable.builder("linkUtilization")
        .string("routing").number("load", "").string("rank").number("utilization", "");
    WorkloadReport report = new WorkloadReport();
    int points = routings.size() * loads.length;
    int done = 0;
    // routings with no latency at any load, which the latency plot leaves out (Series.fromTable makes no series of
    // them): the report says so
    List<String> withoutLatency = new ArrayList<>();
    for (String r : routings) {
      double saturation = 0;
      boolean anyLatency = false;
      for (double load : loads) {
        TrafficExperiment.Builder b = TrafficExperiment.on(topology).routing(r.trim()).pattern(pattern).load(load)
            .seed(spec.seed());
        if (spec.threads() > 0) {
          b.threads(spec.threads()); // (it ran on one thread whatever --threads said; the results are the same)
        }
        if (measureNs > 0) {
          b.measurePs(measureNs * 1000);
        }
        TrafficResult res = b.run();
        // load: the point's load as asked for; offeredLoad: what the sources generated in the window, as the traffic
        // command reports it (the column held the load asked for under that name). A figure of no packet is null
        // (it was 0.0), and so is a latency of the few packets delivered past saturation.
        boolean latencyMeaningful = latencyMeaningful(res.measuredPackets(), res.unfinishedPackets());
        anyLatency |= latencyMeaningful;
        table.row(r.trim(), load, Figures.round(res.offeredLoad(), 4), Figures.round(res.acceptedLoad(), 4),
            latencyMeaningful ? Figures.roundOrNull(res.latencyMeanNs(), 4) : null,
            latencyMeaningful ? Figures.roundOrNull(res.latencyP99Ns(), 4) : null,
            Figures.roundOrNull(res.minimalFraction(), 4), Figures.roundOrNull(res.meanHops(), 4),
            res.measuredPackets(), res.unfinishedPackets());
        for (Map.Entry<String, Double> e : new TreeMap<>(res.linkUtilization()).entrySet()) {
          links.row(r.trim(), load, e.getKey(), Figures.round(e.getValue(), 4));
        }
        saturation = Math.max(saturation, res.acceptedLoad());
        report.cost(res.simulatedPs(), res.events());
        progress.update((double) ++done / points, report.simulatedPs(), report.events());
      }
      report.metric("traffic." + pattern.id() + "." + r.trim() + ".maxAcceptedLoad", Figures.round(saturation, 4), "");
      if (!anyLatency) {
        withoutLatency.add(r.trim());
      }
    }
    // the routings run are this workload's own (its routings parameter, or --routing alone): record which
    report.routing(routings.size() == 1 ? routings.get(0).trim() : null);
    report.table(table.build());
    ResultTable linkTable = links.build();
    report.table(linkTable);
    // Link utilization by rank at the highest offered load, one bar series per routing.
    ResultTable.Builder atPeak = ResultTable.builder("linkUtilizationAtPeakLoad")
        .string("routing").string("rank").number("utilization", "");
    double peak = 0;
    for (double l : loads) {
      peak = Math.max(peak, l);
    }
    for (java.util.List<Object> row : linkTable.rows()) {
      if (((Number) row.get(1)).doubleValue() == peak) {
        atPeak.row(row.get(0), row.get(2), row.get(3));
      }
    }
    report.table(atPeak.build());
    report.plot(new PlotSpec("traffic-link-utilization.png", "Link utilization by rank at offered load " + peak,
        PlotSpec.Kind.UTILIZATION_BY_RANK, "linkUtilizationAtPeakLoad", "rank", "utilization", "routing"));
    // drawn with the routings that have a latency (until stop 76 one routing without any left the whole plot out); with
    // none, the report writer draws nothing, as for any plot without a point
    report.plot(new PlotSpec("traffic-latency-vs-load.png", "Packet latency vs offered load (" + pattern.id() + ")",
        PlotSpec.Kind.LATENCY_VS_LOAD, "traffic", "load", "latencyMean", "routing"));
    if (!withoutLatency.isEmpty()) {
      report.note(noLatencyPlot(withoutLatency, routings.stream().map(String::trim).toList()));
    }
    report.plot(new PlotSpec("traffic-accepted-vs-offered.png", "Accepted vs offered load (" + pattern.id() + ")",
        PlotSpec.Kind.LATENCY_VS_LOAD, "traffic", "load", "acceptedLoad", "routing"));
    return report;
  }

}
