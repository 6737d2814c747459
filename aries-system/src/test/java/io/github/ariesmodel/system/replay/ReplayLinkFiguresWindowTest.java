package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A replay's link figures are its own run's, as its time and events are: a second replay of one trace on one system
 * reported twice the first's link bytes and utilization (the fabric's totals since the system was built; stop 76's
 * statistics hunt), with and without a link tally.
 */
class ReplayLinkFiguresWindowTest {

  private static final Path ALLTOALL = TraceReplayTest.SIMGRID.resolve("actions_alltoall.txt");

  private static ReplayResult replay(AriesSystem sys) throws IOException {
    return TraceReplay.builder(sys, SimGridTrace.open(ALLTOALL)).placement(Placement.ROUND_ROBIN_GROUPS).build().run();
  }

  @Test
  void aSecondReplayOnOneSystemReportsItsOwnLinkFigures() throws IOException {
    AriesSystem sys = AriesSystem.builder().system("two-groups").seed(3).build();
    ReplayResult first = replay(sys);
    ReplayResult second = replay(sys);
    ReplayResult fresh = replay(AriesSystem.builder().system("two-groups").seed(3).build());
    assertThat(first.linkBytes().values()).anyMatch(v -> v > 0); // (its packets cross links)
    assertThat(second.elapsedPs()).isEqualTo(first.elapsedPs());
    assertThat(second.linkBytes()).isEqualTo(first.linkBytes()).isEqualTo(fresh.linkBytes());
    assertThat(second.linkUtilization()).isEqualTo(first.linkUtilization()).isEqualTo(fresh.linkUtilization());
  }

  @Test
  void aSecondConcurrentReplayWithATallyReportsItsOwnLinkFigures() throws IOException {
    LinkTally tally = new LinkTally();
    AriesSystem sys = ConcurrentReplayTest.tallied(tally);
    long[] bytes = new long[2];
    ReplayResult[] runs = new ReplayResult[2];
    for (int k = 0; k < 2; k++) {
      runs[k] = ConcurrentReplay.builder(sys).linkTally(tally)
          .trace(TraceReplay.builder(sys, SimGridTrace.open(ALLTOALL)).placement(Placement.explicit(0, 8, 16))
              .build())
          .build().run().replays().get(0);
      bytes[k] = runs[k].linkBytes().values().stream().mapToLong(Long::longValue).sum();
    }
    assertThat(bytes[0]).isPositive();
    assertThat(runs[1].linkBytes()).isEqualTo(runs[0].linkBytes());
    assertThat(runs[1].linkUtilization()).isEqualTo(runs[0].linkUtilization());
  }
}
