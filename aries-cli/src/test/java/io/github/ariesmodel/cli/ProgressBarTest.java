package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.EventHandler;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressBarTest {

  /** A wall clock the test moves by hand. */
  static final class FakeClock {
    long nanos = 1_000;

    long read() {
      return nanos;
    }

    void advanceMillis(long ms) {
      nanos += ms * 1_000_000L;
    }
  }

  private final StringWriter text = new StringWriter();
  private final FakeClock clock = new FakeClock();

  private ProgressBar bar(boolean enabled, long totalPs) {
    return new ProgressBar(new PrintWriter(text), enabled, clock::read, totalPs);
  }

  @Test
  void printsNothingBeforeTwoSeconds() {
    ProgressBar b = bar(true, 1_000_000);
    b.update(10, 5);
    clock.advanceMillis(1999);
    b.update(500_000, 100);
    b.close();
    assertThat(text.toString()).isEmpty();
  }

  @Test
  void drawsSimulatedTimeRateAndEtaAfterTwoSeconds() {
    ProgressBar b = bar(true, 10_000_000);
    clock.advanceMillis(2000);
    b.update(5_000_000, 4_000_000);
    assertThat(text.toString())
        .isEqualTo("\r[##########----------]  50%  sim 5.000 us / 10.000 us  2.0 M events/s  ETA 0:02");
    b.close();
    assertThat(text.toString()).endsWith("ETA 0:02\n");
  }

  @Test
  void redrawsAtMostEveryQuarterSecond() {
    ProgressBar b = bar(true, 1_000_000);
    clock.advanceMillis(2000);
    b.update(100_000, 1);
    for (int i = 0; i < 10; i++) {
      clock.advanceMillis(20);
      b.update(100_000 + i, 1);
    }
    assertThat(text.toString().chars().filter(c -> c == '\r').count()).isEqualTo(1);
    clock.advanceMillis(50);
    b.update(200_000, 2);
    assertThat(text.toString().chars().filter(c -> c == '\r').count()).isEqualTo(2);
  }

  @Test
  void aShorterLineOverwritesTheLongerOne() {
    ProgressBar b = bar(true, 10_000_000_000L);
    clock.advanceMillis(2000);
    b.update(1_000_000_000, 5_000_000_000L);
    String first = text.toString();
    clock.advanceMillis(3_600_000);
    b.update(10_000_000_000L, 6_000_000_000L);
    String second = text.toString().substring(first.length());
    assertThat(second.length()).isGreaterThanOrEqualTo(first.length());
    assertThat(second).startsWith("\r[####################] 100%").contains("ETA 0:00");
  }

  @Test
  void disabledBarIsSilent() {
    ProgressBar b = bar(false, 1_000);
    clock.advanceMillis(10_000);
    b.update(500, 5);
    b.close();
    assertThat(b.enabled()).isFalse();
    assertThat(text.toString()).isEmpty();
  }

  @Test
  void quietOrNonTerminalStandardErrorDisablesTheBar() {
    assertThat(ProgressBar.forStandardError(true, 1_000).enabled()).isFalse();
    // Enabled exactly when standard error is a terminal (ProgressBar.isTerminal on its /proc link; under the test
    // runner it is a pipe), whatever System.console() says of standard input and output.
    assertThat(ProgressBar.forStandardError(false, 1_000).enabled())
        .isEqualTo(ProgressBar.isTerminal(java.nio.file.Path.of("/proc/self/fd/2"), System.console() != null));
  }

  @Test
  void rejectsANonPositiveTotal() {
    assertThatThrownBy(() -> bar(true, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("totalSimulatedPs").hasMessageContaining("was 0");
  }

  /** Schedules a chain of events and records when each ran. */
  private static List<Long> runChain(boolean withBar, FakeClock clock) {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<Long> times = new ArrayList<>();
    EventHandler h = new EventHandler() {
      @Override
      public void onEvent(long timePs, Object ref, long arg) {
        times.add(timePs * 31 + arg);
        clock.advanceMillis(1);
        if (arg < 20_000) {
          loop.scheduleAt(timePs + 1 + arg % 7, this, null, arg + 1);
        }
      }
    };
    loop.scheduleAt(0, h, null, 0);
    loop.scheduleAt(5, h, null, 10_000);
    long limit = 50_000;
    if (withBar) {
      StringWriter sw = new StringWriter();
      ProgressBar bar = new ProgressBar(new PrintWriter(sw), true, clock::read, limit);
      ProgressBar.runUntil(loop, limit, bar);
      assertThat(sw.toString()).contains("\r[");
    } else {
      loop.runUntil(limit);
    }
    times.add(loop.now());
    times.add(loop.eventsExecuted());
    return times;
  }

  @Test
  void runningWithTheBarRunsTheSameEventsAsWithout() {
    assertThat(runChain(true, new FakeClock())).isEqualTo(runChain(false, new FakeClock()));
  }
}
