package io.github.ariesmodel.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Two builds of the command-line tool in one JVM, each in a class loader of its own, run in turn on the same
 * arguments (A B, then B A, then A B, ...), with the ratio of the two runs' own events per second taken round by
 * round. Runs a second apart see nearly the same state of a shared machine, which whole processes a minute apart do
 * not: on the 2-core development VM two A/A sets of this kind gave medians of 0.997 and 1.017 (10 and 20 rounds),
 * where whole-process pairs of two builds spread over 0.68-1.58 in the same hour (docs/performance.md, "Stop 34").
 * Use it for changes of a few per cent; the issue-level comparisons stay whole-process ({@code
 * aries-bench/against-43c749a.sh}), as they count start-up, set-up and the JIT too.
 *
 * <p>Usage: {@code java [JVM options] -cp aries-bench/target/benchmarks.jar io.github.ariesmodel.bench.InProcessAb
 * A.jar B.jar ROUNDS COMMAND ARGS...}, where each jar is a built {@code aries-cli} (its {@code lib/} folder beside it)
 * or the first version's {@code aries-sim}, and the command prints its events per second ({@code traffic ... --json},
 * or {@code run} and {@code replay}, whose summary line gives them). Two uncounted rounds come first (the JIT's
 * warm-up); each build keeps its own compiled code, as its classes are its own. The system property {@code
 * ab.field} names another number field of the JSON to compare instead (for example {@code packetHopsPerSecond}, for
 * builds whose events per hop differ). When the builds take different options (the first version has no {@code
 * --threads}), a lone {@code ---} splits the command: A runs what comes before it, B what comes after.
 */
public final class InProcessAb {

  /** Rounds run before the counted ones. */
  static final int WARM_UP_ROUNDS = 2;

  private static final Pattern JSON_RATE = jsonField("eventsPerSecond");
  private static final Pattern SUMMARY_RATE = Pattern.compile("\\(([0-9.]+) M events/s\\)");
  /** The command-line class of today's build and of the first version's. */
  private static final String[] CLI_CLASSES = {
    "io.github.ariesmodel.cli.AriesCli", "io.github.ariesmodel.sim.cli.AriesCli"};

  private InProcessAb() {}

  /** One build: runs the command and returns what it printed, or throws with its error output. */
  interface Build {
    String run(String[] args) throws Exception;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** @return the exit status: 0, 1 when a run failed, 2 for bad arguments */
  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length < 4) {
      err.println("InProcessAb: expected A.jar B.jar ROUNDS COMMAND [ARGS...] but got " + args.length + " arguments");
      return 2;
    }
    int rounds;
    try {
      rounds = Integer.parseInt(args[2]);
    } catch (NumberFormatException e) {
      rounds = -1;
    }
    if (rounds < 1 || rounds > 1000) {
      err.println("InProcessAb: ROUNDS must be in [1, 1000] but was \"" + args[2] + "\"");
      return 2;
    }
    String[] command = Arrays.copyOfRange(args, 3, args.length);
    int split = Arrays.asList(command).indexOf("---");
    String[] commandA = split < 0 ? command : Arrays.copyOfRange(command, 0, split);
    String[] commandB = split < 0 ? command : Arrays.copyOfRange(command, split + 1, command.length);
    if (commandA.length == 0 || commandB.length == 0) {
      err.println("InProcessAb: both sides of --- need a command");
      return 2;
    }
    Build a;
    Build b;
    try {
      a = load(Path.of(args[0]));
      b = load(Path.of(args[1]));
    } catch (IllegalArgumentException e) {
      err.println("InProcessAb: " + e.getMessage());
      return 2;
    }
    String field = System.getProperty("ab.field", "eventsPerSecond");
    try {
      double[] ratios = compare(a, b, rounds, commandA, commandB, out, jsonField(field));
      out.println("A/B " + field + ": " + summary(ratios) + ", " + ratios.length + " rounds");
      return 0;
    } catch (IllegalStateException e) {
      err.println("InProcessAb: " + e.getMessage());
      return 1;
    }
  }

  /**
   * Runs the rounds, A first in even rounds and B first in odd ones, the first {@link #WARM_UP_ROUNDS} uncounted.
   *
   * @return A's events per second over B's, one ratio per counted round
   * @throws IllegalStateException when a run fails or prints no rate
   */
  static double[] compare(Build a, Build b, int rounds, String[] command, PrintStream out) {
    return compare(a, b, rounds, command, command, out, JSON_RATE);
  }

  static double[] compare(Build a, Build b, int rounds, String[] commandA, String[] commandB, PrintStream out,
      Pattern field) {
    double[] ratios = new double[rounds];
    for (int i = -WARM_UP_ROUNDS; i < rounds; i++) {
      double ra;
      double rb;
      if ((i & 1) == 0) {
        ra = rate(a, "A", commandA, field);
        rb = rate(b, "B", commandB, field);
      } else {
        rb = rate(b, "B", commandB, field);
        ra = rate(a, "A", commandA, field);
      }
      out.printf("round %d%s: A %.3f, B %.3f M a second%n", i, i < 0 ? " (warm-up)" : "", ra / 1e6, rb / 1e6);
      if (i >= 0) {
        ratios[i] = ra / rb;
      }
    }
    return ratios;
  }

  private static double rate(Build build, String name, String[] command, Pattern field) {
    String printed;
    try {
      printed = build.run(command);
    } catch (Exception e) {
      throw new IllegalStateException(name + " failed: " + e.getMessage());
    }
    double r = rateOf(printed, field);
    if (!(r > 0)) {
      throw new IllegalStateException(name + " printed no rate (use traffic --json, run or replay)");
    }
    return r;
  }

  static Pattern jsonField(String name) {
    return Pattern.compile("\"" + Pattern.quote(name) + "\" : ([0-9.eE+-]+)");
  }

  /** @return the events per second a command printed (its JSON field or its summary line), or NaN */
  static double eventsPerSecond(String printed) {
    return rateOf(printed, JSON_RATE);
  }

  /** @return the JSON field {@code json} matches in what a command printed, else the summary line's rate, or NaN */
  static double rateOf(String printed, Pattern jsonRate) {
    Matcher json = jsonRate.matcher(printed);
    if (json.find()) {
      return Double.parseDouble(json.group(1));
    }
    Matcher line = SUMMARY_RATE.matcher(printed);
    return line.find() ? Double.parseDouble(line.group(1)) * 1e6 : Double.NaN;
  }

  /**
   * @return "median (min-max)" of the ratios, three decimals, and from 6 rounds on the median's 95 % interval: with
   *     rounds independent, whether A is faster than B is resolved only when that interval leaves out 1
   */
  static String summary(double[] ratios) {
    double[] s = ratios.clone();
    Arrays.sort(s);
    int n = s.length;
    double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    int k = medianIntervalRank(n);
    String interval = k == 0 ? "; 6 rounds or more give the median's 95 % interval"
        : String.format("; the median's 95 %% interval %.3f-%.3f", s[k - 1], s[n - k]);
    return String.format("median %.3f (%.3f-%.3f%s)", median, s[0], s[n - 1], interval);
  }

  /**
   * The distribution-free confidence interval of a median (the sign test's): between the k-th smallest and the k-th
   * largest of n independent values, it holds the true median with probability 1 - 2·P(Bin(n, 1/2) ≤ k - 1). The
   * largest k for which that is at least 95 %.
   *
   * @return that k, or 0 when even the smallest and largest values (k = 1) give less than 95 % (n below 6)
   */
  static int medianIntervalRank(int n) {
    // P(Bin(n, 1/2) <= j), summed in logs so that large n do not underflow
    double logHalfN = n * Math.log(0.5);
    double logC = 0; // log C(n, j)
    double tail = 0;
    int k = 0;
    for (int j = 0; j < n; j++) {
      if (j > 0) {
        logC += Math.log((double) (n - j + 1) / j);
      }
      tail += Math.exp(logC + logHalfN);
      if (2 * tail > 0.05) {
        break;
      }
      k = j + 1;
    }
    return k;
  }

  /**
   * A built command-line jar in a class loader of its own (the platform's loader as parent, so nothing of this JVM's
   * class path leaks in), with the jars of its {@code lib/} folder.
   *
   * @throws IllegalArgumentException when the jar is missing or holds no known command-line class
   */
  static Build load(Path jar) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalArgumentException("no such jar: " + jar);
    }
    List<URL> urls = new ArrayList<>();
    try {
      urls.add(jar.toUri().toURL());
      Path lib = jar.toAbsolutePath().getParent().resolve("lib");
      if (Files.isDirectory(lib)) {
        try (Stream<Path> files = Files.list(lib)) {
          for (Path p : (Iterable<Path>) files.sorted()::iterator) {
            urls.add(p.toUri().toURL());
          }
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + jar + ": " + e.getMessage());
    }
    ClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    for (String name : CLI_CLASSES) {
      try {
        Method execute = Class.forName(name, true, loader)
            .getMethod("execute", String[].class, PrintWriter.class, PrintWriter.class);
        return args -> invoke(execute, args);
      } catch (ClassNotFoundException | NoSuchMethodException e) {
        // try the next name
      }
    }
    throw new IllegalArgumentException(jar + " holds none of " + String.join(", ", CLI_CLASSES)
        + " with execute(String[], PrintWriter, PrintWriter)");
  }

  private static String invoke(Method execute, String[] args) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status;
    try {
      status = (int) execute.invoke(null, args, new PrintWriter(out, true), new PrintWriter(err, true));
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(String.valueOf(e.getCause()));
    }
    if (status != 0) {
      String message = err.toString().strip();
      int line = message.indexOf('\n');
      throw new IllegalStateException("exit " + status + ": " + (line < 0 ? message : message.substring(0, line)));
    }
    return out.toString();
  }
}
