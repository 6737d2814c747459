package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An output file never replaces the command's own inputs, nor another run's file: {@code run --trace} naming the
 * configuration, the replayed trace or another run's results.json, and {@code systems --link-list} naming the link
 * list its {@code links:} spec reads, all replaced the file (stop 75's hunt).
 */
class OutputsAreNotInputsTest {

  @TempDir Path tmp;

  private int run(StringWriter err, String... args) {
    return AriesCli.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
  }

  @Test
  void theTraceIsNotTheConfiguration() throws Exception {
    Path c = tmp.resolve("c.yaml");
    String text = "workload: pingpong\nparams: {sizes: 4K, iterations: 1}\n";
    Files.writeString(c, text);
    StringWriter err = new StringWriter();
    int rc = run(err, "run", "--config", c.toString(), "--trace", tmp.resolve("./c.yaml").toString(), "-q",
        "--no-wall-clock", "--out", tmp.resolve("o").toString());
    assertThat(rc).as(err.toString()).isEqualTo(2);
    assertThat(err.toString()).contains("--trace " + tmp.resolve("./c.yaml") + " is the input of --config");
    assertThat(Files.readString(c)).isEqualTo(text);
    assertThat(tmp.resolve("o")).doesNotExist();
  }

  @Test
  void theTraceIsNotTheReplayedTrace() throws Exception {
    Path t = tmp.resolve("a2a.txt");
    Files.writeString(t, "not a trace, but the user's file\n");
    StringWriter err = new StringWriter();
    int rc = run(err, "run", "replay", "-p", "trace=" + t, "--trace", t.toString(), "-q", "--out",
        tmp.resolve("o").toString());
    assertThat(rc).as(err.toString()).isEqualTo(2);
    assertThat(err.toString()).contains("is the input of -p trace=" + t);
    assertThat(Files.readString(t)).isEqualTo("not a trace, but the user's file\n");
  }

  @Test
  void theTraceReplacesAnEarlierTraceButNoOtherFileWithoutForce() throws Exception {
    Path first = tmp.resolve("o1");
    StringWriter err = new StringWriter();
    String[] pingpong = {"run", "pingpong", "-p", "sizes=4K", "-p", "iterations=1", "-q", "--no-wall-clock"};
    Path trace = tmp.resolve("t.json");
    for (int i = 0; i < 2; i++) {
      // a run's own trace again: replaced
      assertThat(run(err, concat(pingpong, "--out", first.toString(), "--trace", trace.toString())))
          .as(err.toString()).isZero();
    }
    Path results = first.resolve("results.json");
    String before = Files.readString(results);
    int rc = run(err, concat(pingpong, "--out", tmp.resolve("o2").toString(), "--trace", results.toString()));
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString()).contains("--trace " + results + " exists and is not a packet trace an earlier run"
        + " wrote; choose another file or add --force");
    assertThat(Files.readString(results)).isEqualTo(before);
    assertThat(run(err, concat(pingpong, "--out", tmp.resolve("o3").toString(), "--trace", results.toString(),
        "--force"))).as("--force replaces it").isZero();
    assertThat(Files.readString(results)).startsWith("{\"displayTimeUnit\":\"ns\"");
  }

  @Test
  void theLinkListIsNotTheListTheSpecReads() throws Exception {
    Path list = tmp.resolve("L.txt");
    StringWriter err = new StringWriter();
    assertThat(run(err, "systems", "--describe", "cabled:aries-small", "--link-list", list.toString()))
        .as(err.toString()).isZero();
    String before = Files.readString(list);
    int rc = run(err, "systems", "--describe", "links:" + list + "+failed=random:2", "--link-list", list.toString());
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString()).contains("--link-list " + list + " is the file --describe links:" + list
        + "+failed=random:2 reads");
    assertThat(Files.readString(list)).isEqualTo(before);
    Path failures = tmp.resolve("down.txt");
    Files.writeString(failures, "# none\n");
    rc = run(err, "systems", "--describe", "links:" + list + "+FAILED=file:" + failures, "--link-list",
        failures.toString());
    assertThat(rc).isEqualTo(2);
    assertThat(Files.readString(failures)).isEqualTo("# none\n");
  }

  /**
   * A directory by a report file's name in --out is refused before the run, even with --force, naming it; it was met
   * after the whole run, and the earlier run's results.json was gone (stop 75).
   */
  @Test
  void aDirectoryByAReportFilesNameIsRefusedBeforeTheRun() throws Exception {
    Path dir = tmp.resolve("dd");
    StringWriter err = new StringWriter();
    String[] pingpong = {"run", "pingpong", "-p", "sizes=4K", "-p", "iterations=1", "-q", "--no-wall-clock",
        "--out", dir.toString()};
    assertThat(run(err, pingpong)).as(err.toString()).isZero();
    String before = Files.readString(dir.resolve("results.json"));
    Path csv;
    try (java.util.stream.Stream<Path> s = Files.list(dir)) {
      csv = s.filter(f -> f.toString().endsWith(".csv")).sorted().findFirst().orElseThrow();
    }
    Files.delete(csv);
    Files.createDirectory(csv);
    for (String[] args : new String[][] {pingpong, concat(pingpong, "--force")}) {
      StringWriter e = new StringWriter();
      assertThat(run(e, args)).isEqualTo(2);
      assertThat(e.toString().strip()).isEqualTo("aries run: " + csv + " is not a regular file (a directory, device,"
          + " pipe or socket), and the report writes a file of that name; remove it or choose another directory"
          + " (--out)");
      assertThat(dir.resolve("results.json")).hasContent(before);
    }
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
