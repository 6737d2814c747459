package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.ariesmodel.cli.config.RunConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzing of the CLI's inputs: random mutations of command lines and configuration files. Whatever the input, the
 * CLI exits 0, 1 or 2, a failure is exactly one line on standard error and never a stack trace; a configuration
 * file either parses or fails with {@link IOException} or {@link IllegalArgumentException}. The base commands are
 * tiny runs and the hostile values are chosen so that an accepted mutation stays cheap (CI budget: seconds).
 */
class CliFuzzProperties {

  @TempDir Path tmp;

  /** Values a careless or hostile user types. */
  private static final List<String> HOSTILE = List.of("", " ", "NaN", "Infinity", "-Infinity", "-1", "0", "-0",
      "1e400", "99999999999999999999", "0x10", "+1", "1.5", "x", "\u0000", "é", "١", "../..", "--", "-p",
      "a=b=c", "=", "nope", "9".repeat(5_000), "-q", "--debug=no", "3");

  /** A small successful command; mutations replace, drop or duplicate its words. */
  private static final List<String> BASE = List.of("run", "pingpong", "-p", "sizes=8", "-p", "iterations=1",
      "--seed", "3", "--routing", "minimal", "--fabric", "routers", "--translator", "iommu", "--system", "default",
      "--trace-limit", "10", "-q");

  private static final List<String> OPTIONS = List.of("--seed", "--routing", "--fabric", "--translator",
      "--system", "--trace-limit", "-p", "--config", "--out", "--trace", "--warmup-us", "--measure-us", "--load",
      "--synthetic", "--shard", "--param", "--job", "--force", "--allow-long", "--list");

  private int counter;

  @Test
  void mutatedCommandLinesExitWithOneLineAndNoStackTrace() {
    qt().withExamples(40).withFixedSeed(14).forAll(integers().all()).checkAssert(seed -> {
      List<String> args = mutate(new SplittableRandom(seed));
      args.add("--out");
      args.add(tmp.resolve("o" + counter++).toString());
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int rc = AriesCli.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
      String e = err.toString();
      assertThat(rc).as("%s -> %s", args, e).isIn(0, 1, 2);
      assertThat(e).as("%s", args).doesNotContain("\tat ", "Exception in thread");
      if (rc != 0) {
        assertThat(e.lines().count()).as("%s -> %s", args, e).isEqualTo(1);
        assertThat(e).startsWith("aries").hasSizeLessThan(600);
      }
    });
  }

  private List<String> mutate(SplittableRandom rnd) {
    List<String> a = new ArrayList<>(BASE);
    int edits = 1 + rnd.nextInt(2);
    for (int k = 0; k < edits; k++) {
      int i = rnd.nextInt(a.size());
      switch (rnd.nextInt(5)) {
        case 0 -> a.set(i, HOSTILE.get(rnd.nextInt(HOSTILE.size())));
        case 1 -> a.remove(i);
        case 2 -> a.add(i, a.get(i));
        case 3 -> a.add(i, OPTIONS.get(rnd.nextInt(OPTIONS.size())));
        default -> a.set(i, a.get(i) + HOSTILE.get(rnd.nextInt(HOSTILE.size())));
      }
      if (a.isEmpty()) {
        a.add("run");
      }
    }
    if (a.contains("--allow-long")) {
      a.remove("--allow-long");
    }
    return a;
  }

  /** A cabled system with failures of every form; mutations cut, repeat and insert pieces of the syntax. */
  private static final String FAILED = "cabled:aries:groups=3,rows=2,cols=2,h=2+failed=random:2:blue:seed=4"
      + "+failed=c0-0c0s0a0l00+failed=random:1:any";

  private static final List<String> FAILED_PIECES = List.of("+failed=", "random:", ":", "seed=", "blue", "green",
      "any", "red", "0", "-1", "99999999999", "c0-0c0s0a0l", "l5", "file:", "cabled:", "edison-cabled", "theta", "=",
      "+", " ", "", "\u0000", "é", "9".repeat(300));

  @Test
  void mutatedFailedLinkSpecsAreDescribedOrRefusedInOneLine() {
    int[] outcomes = new int[3];
    qt().withExamples(150).withFixedSeed(58).forAll(integers().all()).checkAssert(seed -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      StringBuilder spec = new StringBuilder(FAILED);
      for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
        int at = rnd.nextInt(spec.length() + 1);
        switch (rnd.nextInt(3)) {
          case 0 -> spec.insert(at, FAILED_PIECES.get(rnd.nextInt(FAILED_PIECES.size())));
          case 1 -> spec.delete(at, Math.min(spec.length(), at + 1 + rnd.nextInt(8)));
          default -> spec.replace(at, Math.min(spec.length(), at + 1), String.valueOf((char) ('0' + rnd.nextInt(75))));
        }
      }
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int rc = AriesCli.execute(new String[] {"systems", "--describe", spec.toString(), "--failed-links"},
          new PrintWriter(out, true), new PrintWriter(err, true));
      String e = err.toString();
      assertThat(rc).as("%s -> %s", spec, e).isIn(0, 2);
      assertThat(e).as("%s", spec).doesNotContain("\tat ", "Exception in thread");
      if (rc == 2) {
        assertThat(e.lines().count()).as("%s -> %s", spec, e).isEqualTo(1);
        assertThat(e).startsWith("aries systems: ").hasSizeLessThan(600);
      }
      outcomes[rc == 0 ? 0 : 1]++;
      if (rc == 0 && out.toString().contains("failed links")) {
        outcomes[2]++;
      }
    });
    assertThat(outcomes[0]).as("specs described").isPositive();
    assertThat(outcomes[1]).as("specs refused").isPositive();
    assertThat(outcomes[2]).as("specs with links failed").isPositive();
  }

  private static final String JSON = "{\"system\": \"default\", \"routing\": \"minimal\", \"seed\": 3, "
      + "\"fabric\": \"routers\", \"translator\": \"iommu\", \"iommu\": {\"ways\": 4, \"sets\": 32, "
      + "\"policy\": \"lru\", \"pteFetchLatencyNs\": 500, \"prefetch\": true}, \"nic\": {\"requestTags\": 64, "
      + "\"hostGBps\": 16}, \"workload\": \"pingpong\", \"params\": {\"sizes\": \"8\", \"iterations\": 1}}";

  private static final String YAML = "system: default\nrouting: minimal\nseed: 3\niommu:\n  ways: 4\n"
      + "  policy: lru\n  prefetch: true\nnic:\n  requestTags: 64\n  hostGBps: 16\nworkload: pingpong\n"
      + "params:\n  sizes: \"8\"\n  iterations: 1\n";

  private static final List<String> INSERTS = List.of("{", "}", "[", "]", ":", ",", "\"", "&a ", "*a", "\n  ",
      "\n", "NaN", ".nan", ".inf", "-", "1e999", "999999999999999999999", "\u0000", "\"seed\": 1,", "seed: 1\n",
      "null", "true", "\t", "#", "!!binary ", "<<: ", "é", "\uFEFF");

  @Test
  void mutatedConfigurationFilesParseOrFailWithAMessage() {
    qt().withExamples(400).withFixedSeed(41).forAll(integers().all()).checkAssert(seed -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      boolean yaml = rnd.nextBoolean();
      String text = mutateText(yaml ? YAML : JSON, rnd);
      Path f = tmp.resolve("c" + counter++ + (yaml ? ".yaml" : ".json"));
      try {
        Files.writeString(f, text, StandardCharsets.UTF_8);
        RunConfig.read(f);
      } catch (IOException | IllegalArgumentException e) {
        assertThat(e.getMessage()).as(text).isNotBlank();
      }
    });
  }

  @Test
  void aFewMutatedConfigurationsThroughTheCliAreOneLine() {
    qt().withExamples(12).withFixedSeed(7).forAll(integers().all()).checkAssert(seed -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      Path f = tmp.resolve("k" + counter++ + ".json");
      try {
        Files.writeString(f, mutateText(JSON, rnd), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      StringWriter err = new StringWriter();
      int rc = AriesCli.execute(new String[] {"run", "--config", f.toString(), "-q", "--out",
          tmp.resolve("ko" + counter++).toString()}, new PrintWriter(new StringWriter(), true),
          new PrintWriter(err, true));
      assertThat(rc).isIn(0, 1, 2);
      assertThat(err.toString()).doesNotContain("\tat ");
      if (rc != 0) {
        assertThat(err.toString().lines().count()).as(err.toString()).isEqualTo(1);
      }
    });
  }

  /** One to three edits: delete a span, insert a hostile token, duplicate a span, or truncate. */
  private static String mutateText(String base, SplittableRandom rnd) {
    StringBuilder s = new StringBuilder(base);
    int edits = 1 + rnd.nextInt(3);
    for (int k = 0; k < edits && s.length() > 0; k++) {
      int i = rnd.nextInt(s.length());
      int j = Math.min(s.length(), i + 1 + rnd.nextInt(12));
      switch (rnd.nextInt(4)) {
        case 0 -> s.delete(i, j);
        case 1 -> s.insert(i, INSERTS.get(rnd.nextInt(INSERTS.size())));
        case 2 -> s.insert(i, s.substring(i, j));
        default -> s.setLength(i);
      }
    }
    return s.toString();
  }
}
