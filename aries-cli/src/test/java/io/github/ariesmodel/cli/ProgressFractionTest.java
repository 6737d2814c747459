package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressFractionTest {

  @Test
  void fractionModeShowsShareSimulatedTimeRateAndEta() {
    StringWriter out = new StringWriter();
    long[] clock = {0};
    ProgressBar bar = new ProgressBar(new PrintWriter(out), true, () -> clock[0], 1);
    bar.updateFraction(0.25, 5_000_000L, 1000);
    assertThat(out.toString()).isEmpty(); // nothing before the first 2 s
    clock[0] = 4_000_000_000L;
    bar.updateFraction(0.5, 12_000_000L, 8_000_000);
    assertThat(out.toString()).contains("[##########----------]", " 50%", "sim 12.000 us", "2.0 M events/s",
        "ETA 0:04");
  }

  @Test
  void disabledBarPrintsNothing() {
    StringWriter out = new StringWriter();
    long[] clock = {10_000_000_000L};
    ProgressBar bar = new ProgressBar(new PrintWriter(out), false, () -> clock[0], 1);
    clock[0] += 10_000_000_000L;
    bar.updateFraction(0.9, 1, 1);
    bar.close();
    assertThat(out.toString()).isEmpty();
  }
}
