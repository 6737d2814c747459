package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.LinkLoad;
import io.github.ariesmodel.network.RouterFabric;
import io.github.ariesmodel.system.replay.Placement;
import io.github.ariesmodel.system.replay.TraceReplay;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RouterFabric#busiestLinks}: the hot spots of a run, the same on the single loop's counters and any thread count. */
class BusiestLinksTest {

  private static final Path ALLTOALL =
      Path.of("../aries-traces/src/test/resources/traces/simgrid-examples/actions_alltoall.txt");

  /** An all-to-all over three groups of Edison (one failed optical link), on the single loop or N engine threads. */
  private static RouterFabric ran(int threads) throws IOException {
    AriesSystem.Builder b = AriesSystem.builder().system("edison-cabled+failed=c0-0c0s0a0l01").seed(3);
    AriesSystem sys = (threads == 0 ? b : b.threads(threads)).build();
    TraceReplay.builder(sys, SimGridTrace.open(ALLTOALL)).placement(Placement.ROUND_ROBIN_GROUPS).build().run();
    return sys.routerFabric().orElseThrow();
  }

  @Test
  void theBusiestLinksComeFirstAndAddUpToEveryLinksBusyTime() throws IOException {
    RouterFabric f = ran(0);
    List<LinkLoad> all = f.busiestLinks(Integer.MAX_VALUE);
    long sum = 0;
    for (LinkLoad l : all) {
      assertThat(l.busyPs()).isPositive().isEqualTo(f.busyPs(l.router(), l.port()));
      assertThat(f.topology().neighborRouter(l.router(), l.port())).isEqualTo(l.farRouter());
      assertThat(f.topology().neighborPort(l.router(), l.port())).isEqualTo(l.farPort());
      assertThat(f.topology().linkClass(l.router(), l.port())).isEqualTo(l.linkClass());
      sum += l.busyPs();
    }
    long byClass = 0;
    for (int c = 0; c < f.linkClassCount(); c++) {
      byClass += f.busyPs(c);
    }
    assertThat(sum).isEqualTo(byClass).isPositive();
    for (int i = 1; i < all.size(); i++) {
      LinkLoad a = all.get(i - 1);
      LinkLoad b = all.get(i);
      assertThat(a.busyPs() > b.busyPs() || a.busyPs() == b.busyPs()
          && (a.router() < b.router() || a.router() == b.router() && a.port() < b.port())).as("order at " + i).isTrue();
    }
    assertThat(f.busiestLinks(3)).isEqualTo(all.subList(0, 3));
    assertThat(all).anySatisfy(l -> assertThat(l.linkClass()).isEqualTo(2));
    assertThatThrownBy(() -> f.busiestLinks(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("n must be at least 1 but was 0");
  }

  @Test
  void theEngineGivesTheSameListForEveryThreadCount() throws IOException {
    List<List<LinkLoad>> lists = new ArrayList<>();
    for (int threads = 1; threads <= 3; threads++) {
      lists.add(ran(threads).busiestLinks(Integer.MAX_VALUE));
    }
    assertThat(lists.get(0)).isNotEmpty();
    assertThat(lists.get(1)).isEqualTo(lists.get(0));
    assertThat(lists.get(2)).isEqualTo(lists.get(0));
  }
}
