package io.github.ariesmodel.cli;

import io.github.ariesmodel.cli.config.RunConfig;
import io.github.ariesmodel.cli.workload.Workloads;
import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.network.Routings;
import io.github.ariesmodel.system.AriesSystem;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The options several commands share, each written once as a picocli mixin ({@code @Mixin}): a command that takes a
 * seed, a quiet switch, the wall-clock switch or JSON output includes the mixin rather than repeating the option.
 */
final class SharedOptions {

  private SharedOptions() {}

  /**
   * The values an integer option ({@code int} or {@code long}) takes, written once beside the option: every refusal
   * of it names this range, whether the text is no integer ({@code --vc-buffer abc}), an integer beyond Java's type
   * ({@code --vc-buffer 99999999999}, which said "must be an integer from -2147483648 to 2147483647" until stop 77) or
   * one outside the range ({@code --vc-buffer 5}). The command line checks it before the command runs
   * ({@link #checkRanges}); a range a library enforces too is the library's, which a test holds it to.
   */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.FIELD)
  @interface Range {
    /** @return the smallest value taken */
    long min();

    /** @return the largest value taken */
    long max();

    /** @return whether only powers of two are taken */
    boolean powerOfTwo() default false;
  }

  /**
   * The values a floating-point option ({@code double}) takes, written once beside the option, as {@link Range} for the
   * integer ones: every refusal of it names this range, whether the text is no number ({@code --load abc}) or one
   * outside the range ({@code --load -1}), checked before the command runs. Until stop 78 each command checked its own
   * after parsing, and text that was no number was refused without the range ("--measure-us must be a number but was
   * 'abc'").
   */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.FIELD)
  @interface DecimalRange {
    /** @return the smallest value taken, or the bound above which values are taken when {@link #minExclusive} */
    double min();

    /** @return the largest value taken */
    double max();

    /** @return whether {@link #min} itself is refused: "(0, 1e6]" */
    boolean minExclusive() default false;

    /** @return said after the range: its unit, or what the bound stands for ("ns (1 ms)"); empty for nothing */
    String after() default "";
  }

  /**
   * @param arg an option or parameter
   * @return its {@link DecimalRange}, or null when it has none
   */
  static DecimalRange decimalRangeOf(ArgSpec arg) {
    return arg instanceof OptionSpec && arg.userObject() instanceof Field f ? f.getAnnotation(DecimalRange.class)
        : null;
  }

  /**
   * @param r a range
   * @return it as the refusals write it: "[0.0001, 2]", "(0, 1e6] ns"
   */
  static String text(DecimalRange r) {
    return (r.minExclusive() ? "(" : "[") + bound(r.min()) + ", " + bound(r.max()) + "]"
        + (r.after().isEmpty() ? "" : " " + r.after());
  }

  /** A bound as people write it: 2, 0.0001, and a power of ten from 10^6 or below 10^-4 as 1e9, 1e-6. */
  private static String bound(double v) {
    double exponent = Math.log10(Math.abs(v));
    if (v != 0 && exponent == Math.rint(exponent) && Math.abs(exponent) >= 5) {
      return (v < 0 ? "-" : "") + "1e" + (long) exponent;
    }
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  /** @return whether the range takes the value (never NaN) */
  private static boolean takes(DecimalRange r, double v) {
    return (r.minExclusive() ? v > r.min() : v >= r.min()) && v <= r.max();
  }

  /**
   * @param arg an option or parameter
   * @return its {@link Range}, or null when it has none
   */
  static Range rangeOf(ArgSpec arg) {
    return arg instanceof OptionSpec && arg.userObject() instanceof Field f ? f.getAnnotation(Range.class) : null;
  }

  /**
   * @param option the option's name
   * @param r its range
   * @param integer whether "an integer" is to be said (when the value given was none)
   * @param value the value as it is to be quoted
   * @return the refusal: "--vc-buffer must be in [128, 1048576] but was 5"
   */
  private static String refusal(String option, Range r, boolean integer, String value) {
    return option + " must be " + (r.powerOfTwo() ? "a power of two " : integer ? "an integer " : "") + "in ["
        + r.min() + ", " + r.max() + "] but was " + value;
  }

  /**
   * A conversion error of an option with a {@link Range} (picocli's message around a converter's, which names Java's
   * type: "must be an integer from -2147483648 to 2147483647"), said with the option's range; any other error unchanged.
   *
   * @param ex the parse error
   * @return the error to report
   */
  static ParameterException inOptionsRange(ParameterException ex) {
    DecimalRange d = decimalRangeOf(ex.getArgSpec());
    if (d != null && ex.getCause() instanceof CommandLine.TypeConversionException && ex.getValue() != null) {
      String name = ((OptionSpec) ex.getArgSpec()).longestName();
      // "a finite number" for NaN and the infinities, as the converter (AriesCli.finiteDouble) says
      boolean finite = String.valueOf(ex.getCause().getMessage()).contains("finite");
      return new ParameterException(ex.getCommandLine(), name + " must be a " + (finite ? "finite " : "")
          + "number in " + text(d) + " but was '"
          + Texts.abbreviate(ex.getValue()) + "'", ex.getCause(), ex.getArgSpec(), ex.getValue());
    }
    Range r = rangeOf(ex.getArgSpec());
    if (r == null || !(ex.getCause() instanceof CommandLine.TypeConversionException) || ex.getValue() == null) {
      return ex;
    }
    String text = ex.getValue();
    // an integer too large for the type is outside the range: said as any other such value, unquoted
    boolean integer = text.matches("[+-]?[0-9]+");
    String what = refusal(((OptionSpec) ex.getArgSpec()).longestName(), r, !integer,
        integer ? text : "'" + Texts.abbreviate(text) + "'");
    return new ParameterException(ex.getCommandLine(), what, ex.getCause(), ex.getArgSpec(), text);
  }

  /**
   * Refuses the first option given on the command line (of the command or a subcommand) whose value is outside its
   * {@link Range}, before anything runs.
   *
   * @param pr the parse
   * @throws ParameterException naming the option, its range and the value
   */
  static void checkRanges(ParseResult pr) {
    for (ParseResult p = pr; p != null; p = p.subcommand()) {
      for (OptionSpec o : p.matchedOptions()) {
        DecimalRange d = decimalRangeOf(o);
        // a list option's values one by one (--with-start-us 1,-2: until stop 78 a list had no range of its own)
        Object given = o.getValue();
        java.util.List<?> values = d == null ? java.util.List.of()
            : given instanceof java.util.List<?> l ? l : java.util.Collections.singletonList(given);
        for (Object value : values) {
          if (value instanceof Double x && !takes(d, x)) {
            // the value as parsed (1.0E-300, -1.0), as the commands' own checks wrote it
            throw new ParameterException(p.commandSpec().commandLine(), o.longestName() + " must be in " + text(d)
                + " but was " + x, o, String.valueOf(x));
          }
        }
        Range r = rangeOf(o);
        if (r != null && o.getValue() instanceof Number n) {
          long v = n.longValue();
          if (v < r.min() || v > r.max() || (r.powerOfTwo() && Long.bitCount(v) != 1)) {
            throw new ParameterException(p.commandSpec().commandLine(), refusal(o.longestName(), r, false,
                String.valueOf(v)), o, String.valueOf(v));
          }
        }
      }
    }
  }

  /** {@code --seed}: the seed of every random choice. */
  static final class Seed {
    @Option(names = "--seed", defaultValue = "1", description = "Seed of every random choice (default: ${DEFAULT-VALUE}).")
    long seed;
  }

  /**
   * {@code --threads}: how many threads run the simulation's dragonfly groups (the partitioned engine). Results are
   * bit-identical for every count, so it changes only the wall time.
   */
  static final class Threads {
    /**
     * Smallest dragonfly (in groups) on which {@code auto} uses more than one thread: on the 2-core development VM,
     * quiet, two threads ran the 33-group (1,056-node) system 1.21-1.34x and the 241-group one 1.90x sooner than one
     * (docs/performance.md); smaller systems were not shown to gain, so they stay on one thread (derived).
     */
    static final int AUTO_MIN_GROUPS = 32;

    @Option(names = "--threads", paramLabel = "N|auto", defaultValue = "auto",
        description = "Threads that run the dragonfly groups, at most one per group; results are identical for every"
            + " count. auto: the machine's cores on systems of " + AUTO_MIN_GROUPS + " groups or more, else 1"
            + " (default: ${DEFAULT-VALUE}).")
    String threads;

    /**
     * @param groups the dragonfly's group count
     * @return the count to run with (exit 2 with one line when it is neither {@code auto} nor in [1, 4096])
     */
    int checked(int groups) {
      if ("auto".equals(threads)) {
        return groups >= AUTO_MIN_GROUPS ? Math.max(1, Math.min(groups, Runtime.getRuntime().availableProcessors()))
            : 1;
      }
      return threadCount(threads, "auto or ");
    }
  }

  /**
   * @param text a {@code --threads} value
   * @param also what else the option takes, for the message ({@code "auto or "}, or empty)
   * @return the count (exit 2 with one line when it is not a number in [1, 4096])
   */
  private static int threadCount(String text, String also) {
    int n;
    try {
      n = Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 1 || n > RunConfig.MAX_THREADS) {
      throw CliError.badInput("--threads must be " + also + "in [1, " + RunConfig.MAX_THREADS + "] but was " + text,
          "--threads", null);
    }
    return n;
  }

  /**
   * {@code --threads} of {@code run} and {@code replay}: absent, the system runs on its single event loop (the
   * validated default); {@code N}, on the partitioned engine with N threads (at most one per group), whose results are
   * the same for every N but not the single loop's (docs/performance.md, "Threads for run and replay").
   */
  static final class EngineThreads {
    @Option(names = "--threads", paramLabel = "N",
        description = "Run the system's dragonfly groups on the partitioned engine with N threads (at most one per"
            + " group); results are identical for every N, and differ from the default single event loop's only in"
            + " the order of same-picosecond events of different groups and the routing's per-group random streams"
            + " (default: the single event loop).")
    String threads;

    /** @return 0 for the single loop, else the count (exit 2 with one line when it is not in [1, 4096]) */
    int checked() {
      return threads == null ? 0 : threadCount(threads, "");
    }
  }

  /** {@code --system} and {@code --routing}: which modelled system a command builds and how it routes. */
  static final class SystemChoice {
    @Option(names = "--system", defaultValue = "default",
        description = "A preset (./aries systems, e.g. theta or edison-cabled), a topology spec (aries:groups=2),"
            + " links:FILE (a machine's link list) or cabled:SYSTEM (a generated system's cabling); a cabled one may"
            + " end +failed=SPEC, repeatable: random:N[:green|black|blue|any][:seed=S], a port name or file:PATH"
            + " (default: ${DEFAULT-VALUE}).")
    String system;

    @Option(names = "--routing", defaultValue = AriesSystem.Builder.BY_DELIVERY_MODE,
        completionCandidates = SystemRoutingNames.class,
        description = "${COMPLETION-CANDIDATES}; by-delivery-mode routes each packet as its post asked"
            + " (default: ${DEFAULT-VALUE}).")
    String routing;
  }

  /** {@code -q, --quiet}: no progress on standard error. */
  static final class Quiet {
    @Option(names = {"-q", "--quiet"},
        description = "No progress on standard error (the progress bar is also off when stderr is not a terminal).")
    boolean quiet;
  }

  /** {@code --no-wall-clock}: results without wall-clock fields. */
  static final class WallClock {
    @Option(names = "--no-wall-clock",
        description = "Leave wall-clock fields out of the results files (results.json, a sweep's point files), so"
            + " equal seeds give byte-identical files.")
    boolean noWallClock;

    /** @return whether results carry wall-clock fields */
    boolean recorded() {
      return !noWallClock;
    }
  }

  /** {@code --json}: print JSON rather than text. */
  static final class Json {
    @Option(names = "--json", description = "Print JSON rather than text.")
    boolean json;
  }

  /**
   * The routing names help text lists ({@code ${COMPLETION-CANDIDATES}}): the built-in and registered routings of
   * aries-network's {@link Routings}, the one list of them.
   */
  static final class RoutingNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Routings.names().iterator();
    }
  }

  /** The names of the built-in workloads, from {@link Workloads}. */
  static final class WorkloadNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Workloads.names().iterator();
    }
  }

  /** The routing names, plus {@code by-delivery-mode} (each packet routed as its post asked). */
  static final class SystemRoutingNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      List<String> names = new ArrayList<>();
      names.add(io.github.ariesmodel.system.AriesSystem.Builder.BY_DELIVERY_MODE);
      names.addAll(Routings.names());
      return names.iterator();
    }
  }
}
