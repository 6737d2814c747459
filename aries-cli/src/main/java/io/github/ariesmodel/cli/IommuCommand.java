package io.github.ariesmodel.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.ariesmodel.cli.report.BuildInfo;
import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.ByteCount;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import io.github.ariesmodel.iommu.ReplacementPolicies;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.iommu.PageTables;
import io.github.ariesmodel.iommu.IommuStatistics;
import io.github.ariesmodel.iommu.StallCause;
import io.github.ariesmodel.iommu.TranslationStatistics;
import io.github.ariesmodel.traces.TextLines;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code aries iommu}: a trace-driven study of one node's IOMMU. Registers one region, replays a trace of accesses
 * (or a built-in synthetic pattern) through the timed PTE cache and miss pipeline, and prints the statistics.
 */
@Command(
    name = "iommu",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Replay an access trace through one node's IOMMU (PTE cache + miss pipeline) and print its statistics.",
      "TRACE has one access a line: an offset into the region (decimal or 0x-hex), optionally followed by R, W or A"
          + " (read, write, atomic; default R). Blank lines and lines starting with # are skipped."
    })
final class IommuCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "TRACE",
      description = "Trace file, or - for standard input. Omit when --synthetic is given.")
  String trace;

  @Option(names = "--allow-long", description = "Run a synthetic pattern even beyond "
      + MAX_SYNTHETIC_ACCESSES + " accesses.")
  boolean allowLong;

  @Option(names = "--synthetic", paramLabel = "PATTERN",
      description = "Generate the trace instead: random:COUNT (uniform over the region, seeded by --seed) or"
          + " scan:SPAN:STRIDE:COUNT (offsets 0, STRIDE, 2*STRIDE ... modulo SPAN). Sizes take K, M, G suffixes.")
  String synthetic;

  @Option(names = "--page-size", paramLabel = "SIZE",
      description = "Page size: 4K, or 2M..64G (default: ${DEFAULT-VALUE}).")
  String pageSize = "4K";

  @Option(names = "--region", paramLabel = "BYTES",
      description = "Bytes registered, with optional K/M/G suffix (default: ${DEFAULT-VALUE}).")
  String region = "1G";

  @Option(names = "--ways", description = "PTE-cache ways per set (default: ${DEFAULT-VALUE}).")
  @SharedOptions.Range(min = 1, max = 64) // IommuConfig's, as the next four
  int ways = IommuConfig.DEFAULT_WAYS;

  @Option(names = "--sets", description = "PTE-cache sets, a power of two (default: ${DEFAULT-VALUE}).")
  @SharedOptions.Range(min = 1, max = 1 << 20, powerOfTwo = true)
  int sets = IommuConfig.DEFAULT_SETS;

  @Option(names = "--ptes-per-line", paramLabel = "N",
      description = "PTEs per cache line (default: ${DEFAULT-VALUE}).")
  @SharedOptions.Range(min = 1, max = 512, powerOfTwo = true)
  int ptesPerLine = IommuConfig.DEFAULT_PTES_PER_LINE;

  @Option(names = "--policy", description = "Replacement policy: lru, plru, random, or a policy registered through ServiceLoader"
          + " (io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider) (default: ${DEFAULT-VALUE}).")
  String policy = "lru";

  @Option(names = "--seed",
      description = "Seed of the random policy and of --synthetic random (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--in-flight", paramLabel = "N", description = "Translations in flight (default: ${DEFAULT-VALUE}).")
  @SharedOptions.Range(min = 1, max = 4096)
  int inFlight = IommuConfig.DEFAULT_MAX_IN_FLIGHT;

  @Option(names = "--fetch-buffers", paramLabel = "N",
      description = "Outstanding PTE fetch buffers (default: ${DEFAULT-VALUE}, assumed).")
  @SharedOptions.Range(min = 1, max = 4096)
  int fetchBuffers = IommuConfig.DEFAULT_FETCH_BUFFERS;

  @Option(names = "--fetch-latency-ns", paramLabel = "NS",
      description = "PTE-line read latency over the host interface (default: ${DEFAULT-VALUE}, assumed).")
  @SharedOptions.DecimalRange(min = 0, max = MAX_NS, after = "ns (1 ms)")
  double fetchLatencyNs = IommuConfig.DEFAULT_PTE_FETCH_LATENCY_PS / 1000.0;

  @Option(names = "--hit-latency-ns", paramLabel = "NS", description = "Hit latency (default: ${DEFAULT-VALUE}).")
  @SharedOptions.DecimalRange(min = 0, max = MAX_NS, after = "ns (1 ms)")
  double hitLatencyNs = IommuConfig.DEFAULT_HIT_LATENCY_PS / 1000.0;

  @Option(names = "--issue-interval-ns", paramLabel = "NS",
      description = "Minimum time between requests entering the pipeline (default: ${DEFAULT-VALUE}).")
  @SharedOptions.DecimalRange(min = 0, max = MAX_NS, after = "ns (1 ms)")
  double issueIntervalNs = IommuConfig.DEFAULT_ISSUE_INTERVAL_PS / 1000.0;

  @Option(names = "--prefetch", description = "Set the region's prefetch hint (next-line PTE prefetch on a miss).")
  boolean prefetch;

  @Option(names = "--page-tables", paramLabel = "per-registration|per-context",
      description = "The region's own page tables or its translation context's (the hardware's shape; docs/iommu.md)"
          + " (default: ${DEFAULT-VALUE}).")
  String pageTables = IommuConfig.defaults().pageTables().configName();

  @Option(names = "--access-bytes", paramLabel = "N", description = "Bytes per access (default: ${DEFAULT-VALUE}).")
  @SharedOptions.Range(min = 0, max = Integer.MAX_VALUE)
  int accessBytes = 8;

  @Option(names = "--window", paramLabel = "N",
      description = "Accesses kept outstanding: the next is issued when fewer are outstanding"
          + " (default: ${DEFAULT-VALUE}).")
  @SharedOptions.Range(min = 1, max = Integer.MAX_VALUE)
  int window = 64;

  @Option(names = "--serial",
      description = "Issue each access after the previous one completes (--window 1): counts then depend on the"
          + " cache policy alone.")
  boolean serial;

  @Mixin SharedOptions.Json json;

  /** Taken as on run, replay and sweep, so that scripts pass one set of switches (iommu prints no progress). */
  @Mixin SharedOptions.Quiet quiet;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    return run(out);
  }

  private int run(PrintWriter out) {
    // each refusal is located at its option (they said "(arguments)", which the user never typed; until stop 72)
    PageSize ps = atOption("--page-size", "page size", () -> PageSize.parse(pageSize));
    long regionBytes = atOption("--region", "--region", () -> ByteCount.parse("--region", region));
    if (regionBytes < 1 || regionBytes > (1L << 40)) {
      throw CliError.badInput("--region must be in [1, 1T] bytes but was " + regionBytes, "--region", null);
    }
    if (serial && spec.commandLine().getParseResult().hasMatchedOption("--window")) {
      throw CliError.badInput("--serial and --window contradict each other (--serial is a window of 1); give one",
          "--serial", null);
    }
    int effectiveWindow = serial ? 1 : window;
    if ((trace == null) == (synthetic == null)) {
      throw CliError.badInput("give exactly one of a TRACE file and --synthetic", "TRACE, --synthetic", null);
    }
    IommuConfig config;
    try {
      config = IommuConfig.builder()
          .ways(ways).sets(sets).ptesPerLine(ptesPerLine).policy(atOption("--policy", "policy",
              () -> ReplacementPolicies.byName(policy))).seed(seed)
          .maxInFlight(inFlight).fetchBuffers(fetchBuffers)
          .pteFetchLatencyPs(toPs(fetchLatencyNs))
          .hitLatencyPs(toPs(hitLatencyNs))
          .issueIntervalPs(toPs(issueIntervalNs))
          .pageTables(PageTables.parse(pageTables))
          .build();
    } catch (IllegalArgumentException e) {
      throw CliError.renamed(e, "sets * ways * ptesPerLine", "--sets * --ways * --ptes-per-line", "ptesPerLine",
          "--ptes-per-line", "maxInFlight", "--in-flight", "fetchBuffers", "--fetch-buffers", "sets", "--sets", "ways",
          "--ways", "page tables", "--page-tables");
    }

    long pages = ps.pagesSpanned(0, regionBytes);
    long tables = 2 * ((pages * 8 + 4095) & -4096L) + (1L << 20);
    long capacity = (((pages << ps.shift()) + ps.bytes() + tables) + 4095) & -4096L;
    SparsePhysicalMemory memory = new SparsePhysicalMemory(capacity);
    DeterministicEventLoop loop = new DeterministicEventLoop();
    Iommu iommu = new Iommu(memory, loop, config);
    MemoryDomainDescriptor d = iommu.register(new MemoryRegistration(
        0, regionBytes, ps, true, 1, 1, 0, MemoryDomainDescriptor.NO_CQ, prefetch));

    AccessSource source = synthetic != null ? syntheticSource(regionBytes) : fileSource();
    Driver driver = new Driver(iommu, d.mdh(), source, effectiveWindow, accessBytes);
    long wallStart = System.nanoTime();
    try {
      driver.fill();
      loop.run();
    } finally {
      source.close();
    }
    double wallSeconds = (System.nanoTime() - wallStart) / 1e9;

    Map<String, Object> report = report(iommu.statistics(), loop.now(), ps, regionBytes, config, effectiveWindow);
    if (json.json) {
      // the code that ran, first (a result traced to its commit; docs/results-schema.md, run.build)
      Map<String, Object> withBuild = new LinkedHashMap<>();
      withBuild.put("build", BuildInfo.current().asMap());
      withBuild.putAll(report);
      report = withBuild;
      try {
        out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
      }
    } else {
      for (Map.Entry<String, Object> e : report.entrySet()) {
        out.printf(Locale.ROOT, "%-22s %s%n", e.getKey(), e.getValue());
      }
      long n = iommu.statistics().total().translations();
      out.printf(Locale.ROOT, "%-22s %.3f s wall, %.0f translations/s (this machine)%n", "simulatorSpeed",
          wallSeconds, n / Math.max(wallSeconds, 1e-9));
    }
    out.flush();
    return 0;
  }

  private Map<String, Object> report(
      IommuStatistics s, long endPs, PageSize ps, long regionBytes, IommuConfig c, int effectiveWindow) {
    TranslationStatistics t = s.total();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pageSize", ps.toString());
    m.put("regionBytes", regionBytes);
    m.put("ways", c.ways());
    m.put("sets", c.sets());
    m.put("ptesPerLine", c.ptesPerLine());
    m.put("policy", c.policyName()); // (the name as typed until stop 74: "pseudo_lru", " random")
    m.put("window", effectiveWindow);
    // the rest of what changes the results, so that a run can be repeated from its output: the source of the accesses
    // and the settings besides the cache's shape (none of them was written until stop 77, the seed of the random
    // policy and of --synthetic random among them)
    m.put("source", synthetic != null ? "synthetic " + synthetic : "trace " + trace);
    m.put("seed", c.seed());
    m.put("inFlight", c.maxInFlight());
    m.put("fetchBuffers", c.fetchBuffers());
    m.put("fetchLatencyNs", c.pteFetchLatencyPs() / 1e3);
    m.put("hitLatencyNs", c.hitLatencyPs() / 1e3);
    m.put("issueIntervalNs", c.issueIntervalPs() / 1e3);
    m.put("prefetch", prefetch);
    m.put("pageTables", c.pageTables().configName());
    m.put("accessBytes", accessBytes);
    m.put("translations", t.translations());
    m.put("hits", t.hits());
    m.put("misses", t.misses());
    m.put("mergedMisses", t.mergedMisses());
    m.put("hitRate", Figures.round(t.hitRate(), 6));
    m.put("evictions", t.evictions());
    m.put("stalls", t.stalls());
    Map<String, Long> causes = new LinkedHashMap<>();
    for (StallCause cause : StallCause.values()) {
      causes.put(cause.name(), t.stalls(cause));
    }
    m.put("stallsByCause", causes);
    m.put("faults", t.faults());
    m.put("oneLevelWalks", t.oneLevelWalks());
    m.put("twoLevelWalks", t.twoLevelWalks());
    m.put("prefetches", t.prefetches());
    m.put("pteFetches", s.pteFetches());
    m.put("meanLatencyNs", Figures.round(t.meanLatencyNs(), 3));
    m.put("p50LatencyNs", Figures.round(t.latencyPercentileNs(50), 3));
    m.put("p99LatencyNs", Figures.round(t.latencyPercentileNs(99), 3));
    m.put("maxLatencyNs", Figures.round(t.latencyPercentileNs(100), 3));
    m.put("simulatedTimePs", endPs);
    m.put("translationsPerUs", Figures.round(endPs == 0 ? 0 : t.translations() * 1e6 / endPs, 3));
    return m;
  }

  /**
   * The IOMMU's own bound on its times, 1 ms, in ns: the range of --fetch-latency-ns, --hit-latency-ns and
   * --issue-interval-ns (it used to say 1e9 ns and then refuse 1e6 to 1e9 ns in ps).
   */
  static final double MAX_NS = SimTime.MAX_LATENCY_PS / 1e3;

  /** @return the time in ps (the options' ranges are checked before the command runs: SharedOptions.DecimalRange) */
  private static long toPs(double ns) {
    return Math.round(ns * 1000);
  }

  /**
   * A value parsed from one option, its refusal located at the option and said under the option's name where the
   * parser named what it parses instead ("page size must be ..." becomes "--page-size must be ...").
   *
   * @param option the option
   * @param name the name the parser's messages start with (the option itself when it was told it)
   * @param parse the parse
   * @return the parsed value
   */
  private static <T> T atOption(String option, String name, java.util.function.Supplier<T> parse) {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) {
      RuntimeException r = CliError.renamed(e, name, option);
      throw r != e ? r : CliError.badInput(e.getMessage(), option, e);
    }
  }

  /** A stream of accesses. */
  interface AccessSource extends AutoCloseable {
    /** Reads the next access into the driver's fields; false at the end. */
    boolean next(Driver d);

    @Override
    void close();
  }

  /**
   * Bound on synthetic accesses run without {@code --allow-long}. Assumed from the issue's measurement (2^30·100
   * accesses in about 44 h, some 700,000 accesses per second): 10^8 accesses take a few minutes.
   */
  static final long MAX_SYNTHETIC_ACCESSES = 100_000_000L;

  private void checkWork(long count) {
    if (count < 1) {
      // no access: the run printed 0 translations and a hit rate of 0.0, a result of nothing (until stop 75)
      throw CliError.badInput("--synthetic COUNT must be at least 1 but was " + count, "--synthetic", null);
    }
    if (!allowLong && count > MAX_SYNTHETIC_ACCESSES) {
      throw CliError.badInput(String.format(Locale.ROOT, "%,d accesses exceed the bound of %,d (at some 700,000"
          + " accesses/s, about %.1f h); give fewer or add --allow-long", count, MAX_SYNTHETIC_ACCESSES,
          count / 7e5 / 3600), "--synthetic", null);
    }
  }

  private AccessSource syntheticSource(long regionBytes) {
    String[] parts = synthetic.split(":");
    String kind = parts[0].toLowerCase(Locale.ROOT);
    long span = Math.max(1, regionBytes - accessBytes + 1);
    if (kind.equals("random") && parts.length == 2) {
      long count = atOption("--synthetic", "--synthetic",
          () -> ByteCount.parseCount("--synthetic random COUNT", parts[1]));
      checkWork(count);
      SplittableRandom rnd = new SplittableRandom(seed);
      return new AccessSource() {
        long i;

        @Override
        public boolean next(Driver d) {
          if (i++ >= count) {
            return false;
          }
          d.nextOffset = rnd.nextLong(span) & -8L;
          d.nextAccess = AccessKind.READ;
          return true;
        }

        @Override
        public void close() {}
      };
    }
    if (kind.equals("scan") && parts.length == 4) {
      long scanSpan = atOption("--synthetic", "--synthetic", () -> ByteCount.parse("--synthetic scan SPAN",
          parts[1]));
      long stride = atOption("--synthetic", "--synthetic", () -> ByteCount.parse("--synthetic scan STRIDE",
          parts[2]));
      long count = atOption("--synthetic", "--synthetic", () -> ByteCount.parseCount("--synthetic scan COUNT",
          parts[3]));
      checkWork(count);
      if (scanSpan < 1 || stride < 1) {
        throw CliError.badInput("--synthetic scan SPAN and STRIDE must be >= 1 but were " + scanSpan + " and "
            + stride, "--synthetic", null);
      }
      return new AccessSource() {
        long i;
        long offset;

        @Override
        public boolean next(Driver d) {
          if (i++ >= count) {
            return false;
          }
          d.nextOffset = offset;
          d.nextAccess = AccessKind.READ;
          offset += stride;
          if (offset >= scanSpan) {
            offset = 0;
          }
          return true;
        }

        @Override
        public void close() {}
      };
    }
    throw CliError.badInput("--synthetic must be random:COUNT or scan:SPAN:STRIDE:COUNT but was \""
        + Texts.abbreviate(synthetic) + "\"", "--synthetic", null);
  }

  /**
   * Most characters a TRACE line may have: 4,096 (assumed: an access is an offset, at most 20 digits, and one letter;
   * the rest is room for a comment a person writes, as a link list's line has). A longer line is not a trace's: a file
   * with no line ends ({@code /dev/zero}, a sparse or binary file) was read into one line until the heap ran out, and
   * reported as "the Java heap is too small" (until stop 73).
   */
  static final int MAX_TRACE_LINE_CHARS = 4096;

  private AccessSource fileSource() {
    if (trace.isEmpty()) {
      throw CliError.badInput("TRACE must name a file (or - for standard input) but was empty", "TRACE", null);
    }
    if (!trace.equals("-") && Files.isDirectory(Path.of(trace))) {
      throw CliError.badInput(trace + " is a directory, not a trace file", "TRACE", null);
    }
    String name = trace.equals("-") ? "standard input" : trace;
    Reader in;
    try {
      in = trace.equals("-")
          // a decoder that reports bytes that are not UTF-8, as the file's does (this one replaced them)
          ? new InputStreamReader(System.in, StandardCharsets.UTF_8.newDecoder())
          : Files.newBufferedReader(Path.of(trace), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw CliError.badInput("cannot read " + trace + ": " + ErrorHandler.reason(e), "TRACE", e);
    }
    // a byte-order mark at the start is dropped (offset 0 was refused as "\ufeff0"), as link lists and YAML
    // configurations drop it
    TextLines r = TextLines.of(in, Path.of(name), MAX_TRACE_LINE_CHARS);
    return new AccessSource() {
      boolean any;

      @Override
      public boolean next(Driver d) {
        try {
          String line;
          while ((line = r.next()) != null) {
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#")) {
              continue;
            }
            parseLine(name, s, r.lineNumber(), d);
            any = true;
            return true;
          }
          if (!any) {
            // (an empty file ran and reported 0 translations, and docs/errors-and-guarantees.md said it was refused)
            throw CliError.badInput(name + " holds no accesses (a trace has one OFFSET [R|W|A] a line; blank lines"
                + " and # comments are skipped)", "TRACE", null);
          }
          return false;
        } catch (TraceFormatException e) { // (the one thing TextLines refuses: a line longer than the bound)
          throw CliError.badInput(Texts.abbreviate(name) + ", line " + (r.lineNumber() + 1) + ": a line must be at"
              + " most " + r.maxLineChars() + " characters (OFFSET [R|W|A], or a comment) but this one is longer; is it a"
              + " trace?", "TRACE", e);
        } catch (CharacterCodingException e) {
          throw CliError.badInput(name + " is not UTF-8 text (a trace has one access a line)", "TRACE", e);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public void close() {
        if (!trace.equals("-")) {
          try {
            in.close();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    };
  }

  /**
   * Parses "OFFSET [R|W|A]", or refuses the line in one line naming the file, the line, what was expected and what
   * it held (it said "trace line N", without the file, located at "(arguments)").
   *
   * @param file the trace's name as the user gave it, or "standard input"
   */
  static void parseLine(String file, String s, long lineNumber, Driver d) {
    String at = Texts.abbreviate(file) + ", line " + lineNumber + ": ";
    String[] f = s.split("\\s+");
    if (f.length > 2) {
      throw CliError.badInput(at + "expected OFFSET [R|W|A] but was \"" + Texts.abbreviate(s) + "\"", "TRACE", null);
    }
    try {
      d.nextOffset = f[0].startsWith("0x") || f[0].startsWith("0X")
          ? Long.parseUnsignedLong(f[0].substring(2), 16) : Long.parseLong(f[0]);
    } catch (NumberFormatException e) {
      throw CliError.badInput(at + "offset must be decimal or 0x-hex but was \"" + Texts.abbreviate(f[0]) + "\"",
          "TRACE", e);
    }
    if (d.nextOffset < 0) {
      throw CliError.badInput(at + "offset must be >= 0 but was \"" + Texts.abbreviate(f[0]) + "\"", "TRACE", null);
    }
    d.nextAccess = AccessKind.READ;
    if (f.length == 2) {
      switch (f[1].toUpperCase(Locale.ROOT)) {
        case "R":
          break;
        case "W":
          d.nextAccess = AccessKind.WRITE;
          break;
        case "A":
          d.nextAccess = AccessKind.ATOMIC;
          break;
        default:
          throw CliError.badInput(at + "access must be R, W or A but was \"" + Texts.abbreviate(f[1]) + "\"",
              "TRACE", null);
      }
    }
  }

  /** Keeps up to {@code window} accesses outstanding; issues the next one when one completes. */
  static final class Driver implements TranslationListener {
    private final Iommu iommu;
    private final int mdh;
    private final AccessSource source;
    private final int window;
    private final int accessBytes;
    private int outstanding;
    private boolean exhausted;
    long nextOffset;
    AccessKind nextAccess;

    Driver(Iommu iommu, int mdh, AccessSource source, int window, int accessBytes) {
      this.iommu = iommu;
      this.mdh = mdh;
      this.source = source;
      this.window = window;
      this.accessBytes = accessBytes;
    }

    void fill() {
      while (!exhausted && outstanding < window) {
        if (!source.next(this)) {
          exhausted = true;
          return;
        }
        outstanding++;
        iommu.translate(TranslationClient.NETWORK_REQUEST, mdh, nextOffset, accessBytes, nextAccess, 1, 1, this,
            null, 0);
      }
    }

    @Override
    public void onTranslated(long nowPs, Status status, long physicalAddress, int contiguousBytes, Object ref,
        long arg) {
      outstanding--;
      fill();
    }
  }
}
