package io.github.ariesmodel.cli;

import io.github.ariesmodel.cli.validate.Validation;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code aries validate}: measures the model against the published Aries figures and prints model, published, ratio
 * and source for each; exits 1 when any figure leaves its accepted band (a bound is exceeded, a shape fails).
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = "Check the model against published Aries figures; exit 1 if any disagrees.")
final class ValidateCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin SharedOptions.Seed seed;

  @Option(names = "--markdown", description = "Print the table as Markdown.")
  boolean markdown;

  @Override
  public Integer call() {
    PrintWriter o = spec.commandLine().getOut();
    VirtualCarriers.forLanes(1);
    List<Validation.Row> rows = new Validation(seed.seed).run();
    boolean ok = true;
    if (markdown) {
      o.println("| figure | model | published | ratio | result | source |");
      o.println("|---|---|---|---|---|---|");
    } else {
      o.printf("%-24s %12s %14s %7s %6s  %s%n", "FIGURE", "MODEL", "PUBLISHED", "RATIO", "RESULT", "SOURCE");
    }
    for (Validation.Row r : rows) {
      ok &= r.passed();
      String pub = (r.figure().upperBound() ? "< " : "") + fmt(r.figure().value()) + " " + r.figure().unit();
      String model = fmt(r.model()) + " " + r.figure().unit();
      String result = r.passed() ? "ok" : "FAIL";
      if (markdown) {
        o.printf(Locale.ROOT, "| %s: %s | %s | %s | %.3f | %s | %s |%n", r.figure().id(), r.figure().description(),
            model, pub, r.ratio(), result, r.figure().source());
      } else {
        o.printf(Locale.ROOT, "%-24s %12s %14s %7.3f %6s  %s%n", r.figure().id(), model, pub, r.ratio(), result,
            r.figure().source());
      }
    }
    o.println(ok ? "all figures within their accepted bands" : "some figures disagree");
    return ok ? 0 : 1;
  }

  private static String fmt(double v) {
    return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
  }
}
