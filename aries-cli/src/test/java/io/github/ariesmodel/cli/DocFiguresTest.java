package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulated figures listed in {@code docs/figures.tsv} are what their commands print now, and the docs still
 * quote them: a change that moves one fails here until the doc (and the row) is re-run. The model is deterministic, so
 * each must match to the digits the doc gives. Stop 50's audit found over a hundred quoted figures that had drifted
 * from their commands; this keeps the listed ones from drifting again.
 */
class DocFiguresTest {

  /** The repository's root (Maven runs a module's tests in the module's folder). */
  private static final Path ROOT = Path.of("..");
  private static final Path TABLE = ROOT.resolve("docs/figures.tsv");

  @TempDir Path tmp;

  /** One row of the table. */
  record Figure(int line, String doc, String quoted, String command, String source, String pointer, int decimals,
      BigDecimal divisor) {

    static Figure parse(int line, String text) {
      String[] f = text.split("\t");
      if (f.length != 5 && f.length != 6) {
        throw new IllegalArgumentException("docs/figures.tsv line " + line + ": 5 or 6 tab-separated columns expected"
            + " but found " + f.length);
      }
      int slash = f[3].indexOf('/');
      if (slash < 0) {
        throw new IllegalArgumentException("docs/figures.tsv line " + line + ": the value's place must be stdout/... or"
            + " results.json/... but was " + f[3]);
      }
      return new Figure(line, f[0], f[1], f[2], f[3].substring(0, slash), f[3].substring(slash),
          Integer.parseInt(f[4]), f.length == 6 ? new BigDecimal(f[5]) : BigDecimal.ONE);
    }

    /** The figure as a number: the doc's text without its thousands commas. */
    BigDecimal value() {
      return new BigDecimal(quoted.replace(",", ""));
    }
  }

  static List<Figure> figures() throws IOException {
    List<Figure> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(TABLE);
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (!l.isBlank() && !l.startsWith("#")) {
        out.add(Figure.parse(i + 1, l));
      }
    }
    return out;
  }

  @Test
  void theTableIsWellFormedAndNotEmpty() throws IOException {
    List<Figure> all = figures();
    assertThat(all).isNotEmpty();
    for (Figure f : all) {
      assertThat(f.source()).as("line %d", f.line()).isIn("stdout", "results.json");
      assertThat(f.value().scale()).as("line %d: decimals as the doc gives them", f.line()).isEqualTo(f.decimals());
      assertThat(ROOT.resolve(f.doc())).as("line %d", f.line()).exists();
    }
  }

  private final Map<String, JsonNode[]> runs = new HashMap<>();

  @TestFactory
  Stream<DynamicTest> everyListedFigureIsWhatItsCommandPrintsAndItsDocQuotesIt() throws IOException {
    return figures().stream().map(f -> DynamicTest.dynamicTest(
        "line " + f.line() + ": " + f.doc() + " " + f.quoted(), () -> check(f)));
  }

  private void check(Figure f) throws IOException {
    assertThat(Files.readString(ROOT.resolve(f.doc()))).as("%s quotes %s", f.doc(), f.quoted()).contains(f.quoted());
    JsonNode[] outputs = runs.computeIfAbsent(f.command(), c -> run(c));
    JsonNode root = f.source().equals("stdout") ? outputs[0] : outputs[1];
    JsonNode v = root.at(f.pointer());
    assertThat(v.isNumber()).as("%s at %s of `%s`", f.pointer(), f.source(), f.command()).isTrue();
    BigDecimal measured = v.decimalValue().divide(f.divisor()).setScale(f.decimals(), RoundingMode.HALF_UP);
    assertThat(measured).as("`./aries %s` (docs/figures.tsv line %d: %s quotes %s)", f.command(), f.line(), f.doc(),
        f.quoted())
        .isEqualByComparingTo(f.value());
  }

  /** Runs a command in-process; returns its standard output and results.json as JSON (null when there is none). */
  private JsonNode[] run(String command) {
    try {
      Path out = Files.createTempDirectory(tmp, "run");
      Files.delete(out); // commands make their own output directory
      String line = command.replace("{out}", out.toString())
          .replace("{traces}", ReplayCommandTest.TRACES.toString());
      StringWriter stdout = new StringWriter();
      StringWriter stderr = new StringWriter();
      int rc = AriesCli.execute(line.split(" "), new PrintWriter(stdout, true), new PrintWriter(stderr, true));
      assertThat(rc).as("`./aries %s`: %s", command, stderr).isZero();
      ObjectMapper m = new ObjectMapper();
      String text = stdout.toString().trim();
      JsonNode printed = text.startsWith("{") ? m.readTree(text) : m.missingNode();
      Path results = out.resolve("results.json");
      JsonNode written = Files.exists(results) ? m.readTree(results.toFile()) : m.missingNode();
      return new JsonNode[] {printed, written};
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
