package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code aries replay} reports of a background that never ran (due after the trace had ended): no rate, where
 * {@code background.GBpsPerNode} was 0 GB/s and the note said it was "stopped where the traces ended" (until stop 77),
 * as of a background that ran and sent nothing.
 */
class ReplayBackgroundReportTest {

  @TempDir Path tmp;

  private JsonNode replay(Path dir, String backgroundStartUs) throws Exception {
    return replay(dir, backgroundStartUs, "65536");
  }

  private JsonNode replay(Path dir, String backgroundStartUs, String backgroundBytes) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = AriesCli.execute(new String[] {"replay",
        ReplayCommandTest.TRACES.resolve("simgrid-examples/actions_alltoall.txt").toString(), "--background", "uniform",
        "--background-nodes", "4", "--background-start-us", backgroundStartUs, "--background-bytes",
        backgroundBytes, "--no-baseline", "--json", "-q",
        "--no-wall-clock", "--out", dir.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
    assertThat(rc).as(err.toString()).isZero();
    return new ObjectMapper().readTree(out.toString());
  }

  private static JsonNode metrics(Path dir) throws Exception {
    return new ObjectMapper().readTree(dir.resolve("results.json").toFile()).get("metrics");
  }

  private static String backgroundNote(JsonNode summary) {
    for (JsonNode n : summary.get("notes")) {
      if (n.asText().startsWith("background: ")) {
        return n.asText();
      }
    }
    throw new AssertionError("no background note in " + summary.get("notes"));
  }

  @Test
  void aBackgroundDueAfterTheTraceEndedHasNoRateAndSaysItNeverRan() throws Exception {
    Path dir = tmp.resolve("late");
    JsonNode summary = replay(dir, "5000"); // the trace ends within 4 us
    JsonNode m = metrics(dir);
    assertThat(m.get("background.bytes").get("value").asLong()).isZero();
    assertThat(m.has("background.GBpsPerNode")).as(m.toString()).isFalse();
    assertThat(backgroundNote(summary)).contains("from 5000.0 us, never ran: the traces had ended before its start")
        .doesNotContain("stopped where");
  }

  @Test
  void aBackgroundThatRanHasItsRate() throws Exception {
    Path dir = tmp.resolve("together");
    // 1 KiB messages (eager), which arrive within the trace's few microseconds
    JsonNode summary = replay(dir, "0", "1024");
    JsonNode m = metrics(dir);
    assertThat(m.get("background.bytes").get("value").asLong()).isPositive();
    assertThat(m.get("background.GBpsPerNode").get("value").asDouble()).isPositive();
    assertThat(backgroundNote(summary)).contains("stopped where the traces ended").doesNotContain("never ran")
        .containsPattern("it sent \\d+ bytes, \\d+ of them delivered");
  }

  /**
   * The rate counts the bytes delivered: 64 KiB messages stopped where the trace ends, microseconds in, have posted
   * their sends but delivered nothing, and the rate is 0, where the posted bytes over the run gave more than a node's
   * link carries (until stop 78).
   */
  @Test
  void aBackgroundStoppedBeforeItsDataMovedHasTheRateOfWhatWasDelivered() throws Exception {
    Path dir = tmp.resolve("early");
    JsonNode summary = replay(dir, "0");
    JsonNode m = metrics(dir);
    assertThat(m.get("background.bytes").get("value").asLong()).isEqualTo(4 * 65536L);
    assertThat(m.get("background.GBpsPerNode").get("value").asDouble()).isBetween(0.0, 10.2 * 84 / 64);
    assertThat(backgroundNote(summary)).contains("it sent 262144 bytes, ");
  }
}
