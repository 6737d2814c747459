package io.github.ariesmodel.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.ariesmodel.cli.report.BuildInfo;
import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.network.Arbitration;
import io.github.ariesmodel.network.LinkLoad;
import io.github.ariesmodel.network.StuckPackets;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code aries traffic}: one synthetic-traffic point on the router fabric (topology, routing, pattern, offered load),
 * printed as text or JSON ({@code --json}).
 */
@Command(
    name = "traffic",
    mixinStandardHelpOptions = true,
    description = "Run synthetic traffic on a dragonfly router fabric and report load, latency and speed.")
final class TrafficCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--topology", paramLabel = "SPEC", defaultValue = "canonical:p=4,a=8,h=4",
      description = "canonical:p=P,a=A,h=H[,g=G][,bw=BYTES_PER_S] | aries:groups=G[,rows=R,cols=C,rank2=K,h=H,"
          + "nodes=N], both with optional links=PER_GROUP_PAIR, arrangement=absolute|relative|interleaved and"
          + " exit=own|any | theta | edison | edison-cabled (NERSC Edison's real cabling) | links:FILE (a Cray link list) | full"
          + " | aries-small | canonical-small | cabled:SYSTEM (a generated Aries system's cabling); a cabled one may"
          + " end +failed=SPEC, repeatable: random:N[:green|black|blue|any][:seed=S], a port name or file:PATH"
          + " (default: ${DEFAULT-VALUE})")
  String topology;

  @Option(names = "--routing", defaultValue = "adaptive0", completionCandidates = SharedOptions.RoutingNames.class,
      description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
  String routing;

  @Option(names = "--pattern", defaultValue = "uniform",
      description = "uniform, permutation, adversarial, neighbor, hotspot, all-to-all (default: ${DEFAULT-VALUE})")
  String pattern;

  @Option(names = "--load", defaultValue = "0.5",
      description = "offered load, fraction of injection bandwidth, [0.0001, 2] (default: ${DEFAULT-VALUE})")
  @SharedOptions.DecimalRange(min = TrafficExperiment.MIN_LOAD, max = 2) // the experiment's least; 2: assumed
  double load;

  @Mixin SharedOptions.Seed seed;

  @Option(names = "--warmup-us", defaultValue = "2", description = "warm-up, µs (default: ${DEFAULT-VALUE})")
  @SharedOptions.DecimalRange(min = 0, max = 1e9)
  double warmupUs;

  @Option(names = "--measure-us", defaultValue = "5", description = "measurement window, µs (default: ${DEFAULT-VALUE})")
  // The window is simulated in whole picoseconds: a positive value that rounds to none would be refused by the
  // experiment under its own field name.
  @SharedOptions.DecimalRange(min = 1e-6, max = 1e9, after = "(at least 1 ps)")
  double measureUs;

  @Option(names = "--vc-buffer", defaultValue = "2048", description = "bytes per VC buffer (default: ${DEFAULT-VALUE})")
  @SharedOptions.Range(min = 128, max = 1 << 20) // RouterFabric's
  int vcBuffer;

  @Option(names = "--arbitration", defaultValue = "round_robin",
      description = "round_robin or age (default: ${DEFAULT-VALUE})")
  String arbitration;

  @Option(names = "--drain", description = "stop injecting after the window and check that the network drains")
  boolean drain;

  @Option(names = "--drain-limit-us", defaultValue = "100", description = "with --drain: stop this long (simulated) "
      + "after the window even if packets remain, and report what is stuck (default: ${DEFAULT-VALUE})")
  @SharedOptions.DecimalRange(min = 0, max = 1e6, minExclusive = true)
  double drainLimitUs;

  @Option(names = "--busiest-links", paramLabel = "N", defaultValue = "0",
      description = "List the N link directions busiest during the window, 0 to 1000 (Cray port names on a cabled"
          + " system) (default: ${DEFAULT-VALUE}: none).")
  @SharedOptions.Range(min = 0, max = 1000)
  int busiestLinks;

  @Mixin SharedOptions.Json json;

  @Mixin SharedOptions.Threads threads;

  /** Taken as on run, replay and sweep, so that scripts pass one set of switches (traffic prints no progress). */
  @Mixin SharedOptions.Quiet quiet;

  @Option(names = "--allow-long", description = "Run even when the estimated work exceeds "
      + "the built-in bound (" + MAX_NODE_MICROSECONDS + " node-µs simulated).")
  boolean allowLong;

  /**
   * Bound on nodes × simulated µs run without {@code --allow-long}: about 100 times the default point
   * (1,056 nodes × 7 µs); assumed, a run this size takes minutes, not hours.
   */
  static final long MAX_NODE_MICROSECONDS = 1_000_000;

  /**
   * Share of the measured packets unfinished at the end of a run above which the text says the network did not carry
   * the load (when packets are also queued at the sources): the threshold of {@code run traffic}'s latency cells and
   * of docs/network.md's validation tables (assumed there).
   */
  static final double SATURATED_UNFINISHED_SHARE = 0.02;

  @Override
  public Integer call() throws com.fasterxml.jackson.core.JsonProcessingException {
    PrintWriter out = spec.commandLine().getOut();
    Topology topo;
    try {
      topo = Topologies.parseTopology(topology);
    } catch (IllegalArgumentException e) {
      // a bad spec, or a link list's file and line: located at "(arguments)" until stop 73
      throw CliError.badInput(e.getMessage(), "--topology", e);
    }
    TrafficPattern pat = TrafficPattern.parse(pattern);
    Arbitration arb = arbitration(arbitration);
    int threadCount = threads.checked(topo.groupCount());
    // --warmup-us, --measure-us, --load and --drain-limit-us are in their ranges (SharedOptions.DecimalRange)
    double work = (double) topo.nodeCount() * (warmupUs + measureUs);
    if (!allowLong && work > MAX_NODE_MICROSECONDS) {
      throw CliError.badInput(String.format(Locale.ROOT, "estimated work %.3g node-µs (%,d nodes × %.3g µs) exceeds"
          + " %,d; shorten --warmup-us/--measure-us or give --allow-long", work, topo.nodeCount(),
          warmupUs + measureUs, MAX_NODE_MICROSECONDS), "--measure-us", null);
    }
    TrafficExperiment.Builder b = TrafficExperiment.on(topo).routing(routing).pattern(pat).load(load)
        .seed(seed.seed).warmupPs(Math.round(warmupUs * 1e6)).measurePs(Math.round(measureUs * 1e6))
        .fabric(f -> f.vcBufferBytes(vcBuffer).arbitration(arb)).threads(threadCount);
    if (!drain && spec.commandLine().getParseResult().hasMatchedOption("--drain-limit-us")) {
      // it would be ignored without a word
      throw CliError.badInput("--drain-limit-us needs --drain", "--drain-limit-us", null);
    }
    if (drain) {
      b.drain().drainLimitPs(Math.max(1, Math.round(drainLimitUs * 1e6)));
    }
    b.busiestLinks(busiestLinks);
    TrafficResult r;
    try {
      r = b.build().run();
    } catch (OutOfMemoryError e) {
      // the run's objects are unreachable once it has thrown; what most likely filled the heap is the sources' queues
      throw CliError.failedRun(String.format(Locale.ROOT, "the Java heap ran out during the run; at an offered load"
          + " (--load %s) above what the network accepts, packets queue at the sources without bound, one object"
          + " each, growing with the simulated time: lower --load, shorten --warmup-us or --measure-us, or give more"
          + " heap with ARIES_JAVA_OPTS=-Xmx<size>", Figures.text(load)), "memory", e);
    } catch (IllegalArgumentException e) {
      // the window against the packet slot, which the experiment checks after the fabric's settings (so theirs are
      // told first) naming its field in ps: told in the option's own unit (the line mixed ps and µs until stop 75)
      if (String.valueOf(e.getMessage()).startsWith("measurePs must be at least one packet slot")) {
        double slotPs = TrafficExperiment.slotPs(topo);
        throw CliError.badInput("--measure-us must be at least one packet slot, "
            + Figures.text(Math.ceil(slotPs) / 1e6) + " µs here (84 wire bytes at the topology's injection rate), but"
            + " was " + Figures.text(measureUs), "--measure-us", e);
      }
      // the fabric's builder names its own field; the user typed the option
      throw CliError.renamed(e, "vcBufferBytes", "--vc-buffer");
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("topology", topo.describe());
    m.put("routing", routing);
    m.put("pattern", pat.id());
    m.put("seed", seed.seed);
    m.put("nodes", topo.nodeCount());
    m.put("load", load); // asked for; offeredLoad is what the sources generated in the window
    // the settings that change the results, so that a run can be repeated from its output (--topology as given, which
    // the description above cannot be fed back as; --vc-buffer, --arbitration and the drain were not written, until
    // stop 77); --threads changes nothing and --busiest-links only adds its table. In its canonical form (since stop
    // 78: ARIES:groups=2 and aries:groups=2, one system, recorded two texts), which reads back as the same system
    m.put("topologySpec", Topologies.canonical(topology));
    m.put("vcBufferBytes", vcBuffer);
    m.put("arbitration", arb.name().toLowerCase(Locale.ROOT));
    m.put("drain", drain);
    if (drain) {
      m.put("drainLimitUs", drainLimitUs);
    }
    m.put("offeredLoad", r.offeredLoad());
    m.put("acceptedLoad", r.acceptedLoad());
    Map<String, Object> lat = new LinkedHashMap<>();
    lat.put("mean", num(r.latencyMeanNs()));
    lat.put("p50", num(r.latencyP50Ns()));
    lat.put("p99", num(r.latencyP99Ns()));
    lat.put("max", num(r.latencyMaxNs()));
    m.put("latencyNs", lat);
    m.put("meanHops", num(r.meanHops()));
    m.put("maxHops", r.maxHops());
    m.put("minimalFraction", num(r.minimalFraction()));
    m.put("measuredPackets", r.measuredPackets());
    m.put("unfinishedPackets", r.unfinishedPackets());
    m.put("linkUtilization", r.linkUtilization());
    List<Double> vc = new ArrayList<>();
    for (double v : r.vcOccupancyBytes()) {
      vc.add(v);
    }
    m.put("vcOccupancyBytes", vc);
    double windowPs = Math.round(measureUs * 1e6);
    if (busiestLinks > 0) {
      List<Map<String, Object>> hot = new ArrayList<>();
      for (LinkLoad l : r.busiestLinks()) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("rank", topo.linkClassName(l.linkClass()));
        h.put("from", Topologies.portName(topo, l.router(), l.port()));
        h.put("fromGroup", topo.groupOfRouter(l.router()));
        h.put("to", Topologies.portName(topo, l.farRouter(), l.farPort()));
        h.put("toGroup", topo.groupOfRouter(l.farRouter()));
        h.put("busyNs", l.busyPs() / 1e3);
        h.put("utilization", l.busyPs() / windowPs);
        hot.add(h);
      }
      m.put("busiestLinks", hot);
    }
    if (drain) {
      m.put("generated", r.generated());
      m.put("delivered", r.delivered());
      m.put("duplicates", r.duplicates());
      m.put("drained", r.drained());
      m.put("queuedAtSources", r.queuedAtSources());
      if (r.stuck() != null) {
        m.put("stuck", stuck(r.stuck()));
      }
    }
    m.put("warmupUs", warmupUs);
    m.put("measureUs", measureUs);
    m.put("simulatedUs", r.simulatedPs() / 1e6);
    m.put("events", r.events());
    m.put("packetHops", r.packetHops());
    m.put("wallSeconds", r.wallSeconds());
    m.put("eventsPerSecond", r.eventsPerSecond());
    m.put("packetHopsPerSecond", r.packetHopsPerSecond());
    if (json.json) {
      // the code that ran, first (a result traced to its commit; docs/results-schema.md, run.build)
      Map<String, Object> withBuild = new LinkedHashMap<>();
      withBuild.put("build", BuildInfo.current().asMap());
      withBuild.putAll(m);
      m = withBuild;
      out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(m));
    } else {
      out.printf(Locale.ROOT, "%s%n", topo.describe());
      // the load as asked, every digit (it printed "load 0.000" for --load 0.0004, with three decimals)
      out.printf(Locale.ROOT, "routing %s, pattern %s, load %s, seed %d%n", routing, pat.id(), Figures.text(load),
          seed.seed);
      out.printf(Locale.ROOT, "  offered load      %.4f%n", r.offeredLoad());
      out.printf(Locale.ROOT, "  accepted load     %.4f%n", r.acceptedLoad());
      // (no packet measured: the JSON's nulls, "n/a" here, not NaN)
      out.printf(Locale.ROOT, "  latency ns        mean %s  p50 %s  p99 %s  max %s%n", fixed(r.latencyMeanNs(), 1),
          fixed(r.latencyP50Ns(), 0), fixed(r.latencyP99Ns(), 0), fixed(r.latencyMaxNs(), 0));
      out.printf(Locale.ROOT, "  hops              mean %s  max %d%n", fixed(r.meanHops(), 2), r.maxHops());
      out.printf(Locale.ROOT, "  minimal fraction  %s%n", fixed(r.minimalFraction(), 3));
      out.printf(Locale.ROOT, "  unfinished        %,d of %,d measured packets%n", r.unfinishedPackets(),
          r.measuredPackets());
      if (!drain && r.queuedAtSources() > 0 && r.unfinishedPackets() > SATURATED_UNFINISHED_SHARE
          * r.measuredPackets()) {
        // past saturation the sources' queues grow with the window, without bound, and a long one fills the heap
        out.printf(Locale.ROOT, "  saturated         the offered load exceeds what the network accepts: %,d packets"
            + " were queued at the sources at the end, a number that grows with the window%n", r.queuedAtSources());
      }
      r.linkUtilization().forEach((k, v) -> out.printf(Locale.ROOT, "  utilization %-8s %.3f%n", k, v));
      // one decimal, as the mean latency (it printed every digit of the doubles; until stop 72)
      out.printf(Locale.ROOT, "  VC occupancy B    [%s]%n",
          String.join(", ", vc.stream().map(v -> fixed(v, 1)).toList()));
      for (LinkLoad l : r.busiestLinks()) {
        out.printf(Locale.ROOT, "  busy link         %-7s %s -> %s  %.3f%n", topo.linkClassName(l.linkClass()),
            Topologies.portName(topo, l.router(), l.port()), Topologies.portName(topo, l.farRouter(), l.farPort()),
            l.busyPs() / windowPs);
      }
      if (drain) {
        out.printf(Locale.ROOT, "  drained           %s (generated %,d, delivered %,d, duplicates %,d)%n", r.drained(),
            r.generated(), r.delivered(), r.duplicates());
        if (r.stuck() != null) {
          out.printf(Locale.ROOT, "  stuck             %s; %,d more queued at sources%n", r.stuck().summary(),
              r.queuedAtSources());
        }
      }
      out.printf(Locale.ROOT, "  speed             %.3g events/s, %.3g packet-hops/s (%,d events in %.2f s, %d "
          + "thread%s)%n", r.eventsPerSecond(), r.packetHopsPerSecond(), r.events(), r.wallSeconds(),
          Math.min(threadCount, topo.groupCount()), Math.min(threadCount, topo.groupCount()) == 1 ? "" : "s");
    }
    return drain && !r.drained() ? 1 : 0;
  }

  /** The drain's stuck report as JSON: counts by cause, the fullest buffers, the oldest packet, the one-line text. */
  private static Map<String, Object> stuck(StuckPackets s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("atUs", s.atPs() / 1e6);
    m.put("packets", s.packets());
    Map<String, Object> causes = new LinkedHashMap<>();
    for (StuckPackets.WaitCause c : StuckPackets.WaitCause.values()) {
      causes.put(c.name().toLowerCase(Locale.ROOT), s.byCause().get(c));
    }
    m.put("byCause", causes);
    m.put("buffers", s.placeCount());
    List<Map<String, Object>> places = new ArrayList<>();
    for (StuckPackets.Place p : s.places()) {
      Map<String, Object> pm = new LinkedHashMap<>();
      pm.put("router", p.router());
      pm.put("port", p.port());
      pm.put("vc", p.vc());
      pm.put("packets", p.packets());
      places.add(pm);
    }
    m.put("fullestBuffers", places);
    StuckPackets.Packet o = s.oldest();
    if (o != null) {
      Map<String, Object> om = new LinkedHashMap<>();
      om.put("source", o.source());
      om.put("destination", o.destination());
      om.put("tag", o.tag());
      om.put("ageNs", (s.atPs() - o.injectedAtPs()) / 1000);
      om.put("hops", o.hops());
      om.put("router", o.router());
      om.put("port", o.port());
      om.put("vc", o.vc());
      om.put("outputPort", o.outputPort());
      om.put("waitsFor", o.cause().name().toLowerCase(Locale.ROOT));
      m.put("oldest", om);
    }
    m.put("summary", s.summary());
    return m;
  }

  private static Arbitration arbitration(String text) {
    try {
      return Arbitration.valueOf(text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw CliError.badInput("arbitration must be round_robin or age but was \"" + Texts.abbreviate(text) + "\"",
          "--arbitration", e);
    }
  }

  private static Object num(double v) {
    return Double.isNaN(v) ? null : v;
  }

  /**
   * A figure with {@code decimals} decimals and thousands grouped (README: {@code ,} for thousands), or "n/a" when
   * there is none (NaN: nothing was measured).
   */
  private static String fixed(double v, int decimals) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%,." + decimals + "f", v);
  }
}
