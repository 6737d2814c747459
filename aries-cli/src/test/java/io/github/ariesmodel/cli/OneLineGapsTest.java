package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.Texts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gaps in the one-line standard that stop 75's hunt reproduced, each now one line that says what is wrong. */
class OneLineGapsTest {

  @TempDir Path tmp;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int aries(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  private String onlyLine() {
    String e = err.toString();
    assertThat(e.lines().count()).as(e).isEqualTo(1);
    return e.strip();
  }

  @Test
  void everySubcommandPrintsTheVersion() {
    String root = null;
    for (String[] args : new String[][] {{"-V"}, {"run", "-V"}, {"merge", "--version"}, {"systems", "-V"}}) {
      assertThat(aries(args)).isZero();
      assertThat(out.toString()).as(String.join(" ", args)).startsWith("aries-model ");
      root = root == null ? out.toString() : root;
      assertThat(out.toString()).isEqualTo(root);
    }
  }

  @Test
  void userTextIsEchoedCutShort() {
    String longText = "x".repeat(300);
    String[][] cases = {
      {"run", "pingpong", "-p", longText + "=1", "--out", tmp.resolve("a").toString()},
      {"run", longText, "--out", tmp.resolve("b").toString()},
      {"run", "pingpong", "-p", longText, "--out", tmp.resolve("c").toString()},
      {"sweep", "--job", longText, "--param", "sizes=8", "--out", tmp.resolve("d").toString()},
      {"sweep", "--job", "pingpong", "--param", longText + "!=8", "--out", tmp.resolve("e").toString()}};
    for (String[] args : cases) {
      assertThat(aries(args)).as(args[1]).isEqualTo(2);
      assertThat(onlyLine()).as(String.join(" ", args)).contains("characters)")
          .doesNotContain("x".repeat(Texts.MAX_ECHO + 1));
    }
  }

  @Test
  void mergeRefusesARepeatedMetricAndEchoesALongOneShort() {
    Path sw = tmp.resolve("sw");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8,64", "--param", "iterations=1",
        "--no-wall-clock", "--out", sw.toString(), "-q")).as(err.toString()).isZero();
    Path m = tmp.resolve("m.json");
    assertThat(aries("merge", "--out", m.toString(), "--metric", "latency.same-router", "--metric",
        "latency.same-router", sw.toString())).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries merge: --metric latency.same-router is given twice; give each metric once"
        + " (--metric)");
    String longText = "y".repeat(300);
    for (String[] args : new String[][] {{"--metric", longText}, {"--html", tmp.resolve("r.html").toString(),
        "--plot", longText}, {"--html", tmp.resolve("r.html").toString(), "--plot", "sizes:" + longText}}) {
      String[] all = new String[args.length + 4];
      all[0] = "merge";
      all[1] = "--out";
      all[2] = m.toString();
      System.arraycopy(args, 0, all, 3, args.length);
      all[all.length - 1] = sw.toString();
      assertThat(aries(all)).isEqualTo(2);
      assertThat(onlyLine()).as(args[args.length - 1]).contains(Texts.abbreviate(longText))
          .doesNotContain("y".repeat(Texts.MAX_ECHO + 1));
    }
    assertThat(m).doesNotExist();
  }

  /** A refusal of an option's or -p parameter's value is located at it, not at "(arguments)". */
  @Test
  void aRefusedValueIsLocatedAtItsOption() {
    String[][] cases = {
      {"--routing", "nosuch", "--routing must be one of [", "(--routing)"},
      {"--fabric", "x", "--fabric must be routers or ideal but was \"x\"", "(--fabric)"},
      {"--translator", "x", "--translator must be iommu or flat but was \"x\"", "(--translator)"},
      {"--trace-filter", "node=3", "--trace-filter fields are src, dst, packet, sample but got \"node\"",
          "(--trace-filter)"},
      {"-p", "sizes=abc", "sizes must be a whole number", "(-p sizes)"},
      {"-p", "bogus=1", "unknown parameter \"bogus\"", "(-p bogus)"}};
    for (String[] c : cases) {
      assertThat(aries("run", "pingpong", c[0], c[1], "--trace", tmp.resolve("t.json").toString(), "--out",
          tmp.resolve("o").toString())).as(c[0]).isEqualTo(2);
      assertThat(onlyLine()).as(c[0]).startsWith("aries run: " + c[2]).endsWith(c[3]);
    }
    assertThat(tmp.resolve("o")).doesNotExist();
  }

  @Test
  void anOutBelowAFileSaysTheFileIsNoDirectory() throws Exception {
    Path file = Files.writeString(tmp.resolve("f"), "mine");
    assertThat(aries("run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "-q", "--out",
        file.resolve("x").toString())).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries run: cannot create the directory " + file.resolve("x") + ": " + file
        + " is a file, not a directory (--out)");
  }
}
