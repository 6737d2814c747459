package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code aries run --trace}'s options: what they refuse, in one line, and what the run prints of the trace. */
class TraceOptionsTest {

  @TempDir Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /**
   * The packet trace runs on the single event loop only: with {@code --threads N} the run was refused with the
   * library builder's words, {@code trace(...) cannot be combined with threads(2)}, located at "(arguments)".
   */
  @Test
  void traceWithThreadsIsRefusedInTheOptionsOwnWords() {
    for (String n : new String[] {"1", "2"}) {
      Path trace = tmp.resolve("t" + n + ".json");
      Path dir = tmp.resolve("o" + n);
      assertThat(run("run", "pingpong", "-p", "sizes=8", "-p", "iterations=2", "--trace", trace.toString(),
          "--threads", n, "-q", "--out", dir.toString())).as(err.toString()).isEqualTo(2);
      assertThat(err.toString().lines()).containsExactly("aries run: --trace cannot be combined with --threads " + n
          + ": the packet trace numbers packets on the single event loop; drop --threads to trace the run"
          + " (--threads)");
      assertThat(Files.exists(trace)).isFalse();
      assertThat(Files.exists(dir)).isFalse();
      err.getBuffer().setLength(0);
    }
  }

  /** The trace's line is one of the run's summary, after its header (it was printed before it, until stop 77). */
  @Test
  void theTraceLineFollowsTheRunsHeaderBesideItsOtherFiles() {
    Path trace = tmp.resolve("t.json");
    Path dir = tmp.resolve("o");
    assertThat(run("run", "pingpong", "-p", "sizes=8", "-p", "distances=rank-1", "-p", "iterations=2", "--trace",
        trace.toString(), "--no-wall-clock", "-q", "--out", dir.toString())).as(err.toString()).isZero();
    java.util.List<String> lines = out.toString().lines().toList();
    assertThat(lines.get(0)).startsWith("aries run pingpong on default");
    assertThat(lines.subList(lines.size() - 3, lines.size())).containsExactly(
        "  results: " + dir.resolve("results.json"), "  report:  " + dir.resolve("report.html"),
        "  trace:   " + trace + " (12 packets, 12 hops, 0 beyond the limit)");
  }
}
