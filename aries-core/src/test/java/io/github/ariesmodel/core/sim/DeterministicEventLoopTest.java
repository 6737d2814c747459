package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeterministicEventLoopTest {

  @Test
  void equalTimesRunInSchedulingOrderAndTimesAscend() {
    DeterministicEventLoop loop = new DeterministicEventLoop(2);
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      long t = (i * 7919L) % 5; // many ties, out of order
      String label = t + ":" + i;
      loop.scheduleAt(t, (now, ref, arg) -> seen.add((String) ref), label, i);
    }
    loop.run();
    assertThat(seen).hasSize(50);
    for (int k = 1; k < seen.size(); k++) {
      String[] a = seen.get(k - 1).split(":");
      String[] b = seen.get(k).split(":");
      long ta = Long.parseLong(a[0]);
      long tb = Long.parseLong(b[0]);
      assertThat(ta).isLessThanOrEqualTo(tb);
      if (ta == tb) {
        assertThat(Integer.parseInt(a[1])).isLessThan(Integer.parseInt(b[1]));
      }
    }
    assertThat(loop.now()).isEqualTo(4);
    assertThat(loop.eventsExecuted()).isEqualTo(50);
  }

  @Test
  void schedulingInThePastIsRejectedWithTheTimes() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    loop.scheduleAt(100, (now, ref, arg) -> {}, null, 0);
    loop.run();
    assertThatThrownBy(() -> loop.scheduleAt(99, (now, ref, arg) -> {}, null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timePs must be >= now (100 ps) but was 99 ps");
  }

  @Test
  void runUntilStopsAtTheLimitAndAdvancesTheClock() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<Long> times = new ArrayList<>();
    for (long t : new long[] {10, 20, 30}) {
      loop.scheduleAt(t, (now, ref, arg) -> times.add(now), null, 0);
    }
    assertThat(loop.runUntil(25)).isEqualTo(2);
    assertThat(times).containsExactly(10L, 20L);
    assertThat(loop.now()).isEqualTo(25);
    assertThat(loop.pending()).isEqualTo(1);
  }
}
