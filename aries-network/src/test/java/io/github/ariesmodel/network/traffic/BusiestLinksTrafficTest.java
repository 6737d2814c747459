package io.github.ariesmodel.network.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.LinkLoad;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.spi.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A traffic run's busiest link directions in its window ({@link TrafficExperiment.Builder#busiestLinks}). */
class BusiestLinksTrafficTest {

  private static final long WINDOW_PS = 300_000;

  private static TrafficResult run(Topology t, int threads, int busiest) {
    return TrafficExperiment.on(t).routing("ugal").pattern(TrafficPattern.HOTSPOT).load(0.4).seed(9)
        .warmupPs(100_000).measurePs(WINDOW_PS).threads(threads).busiestLinks(busiest).run();
  }

  @Test
  void theWindowsBusyTimeOfEveryLinkAddsUpToItsRanksUtilization() {
    // 192 link directions, so the 1,000 busiest are every one that sent in the window
    Topology t = Topologies.parseTopology("aries-small");
    TrafficResult r = run(t, 1, 1000);
    List<LinkLoad> all = r.busiestLinks();
    assertThat(all).isNotEmpty().hasSizeLessThanOrEqualTo(192);
    for (int i = 1; i < all.size(); i++) {
      assertThat(all.get(i).busyPs()).isLessThanOrEqualTo(all.get(i - 1).busyPs());
    }
    assertThat(all.get(0).busyPs()).isPositive().isLessThanOrEqualTo(WINDOW_PS);
    for (int c = 0; c < t.linkClassCount(); c++) {
      int rank = c;
      long busy = all.stream().filter(l -> l.linkClass() == rank).mapToLong(LinkLoad::busyPs).sum();
      int links = 0;
      for (int router = 0; router < t.routerCount(); router++) {
        for (int p = 0; p < t.portCount(); p++) {
          links += t.neighborRouter(router, p) >= 0 && t.linkClass(router, p) == c ? 1 : 0;
        }
      }
      assertThat(busy / ((double) links * WINDOW_PS)).as(t.linkClassName(c))
          .isCloseTo(r.linkUtilization().get(t.linkClassName(c)), org.assertj.core.data.Offset.offset(1e-9));
    }
    assertThat(run(t, 1, 0).busiestLinks()).isEmpty();
    assertThatThrownBy(() -> TrafficExperiment.on(t).busiestLinks(1001))
        .hasMessage("busiestLinks must be in [0, 1000] but was 1001");
  }

  /**
   * A result cannot be changed after it is made: its utilization map took a caller's put and its VC array a caller's
   * write (stop 76's API hunt), and the experiment's own objects went out with it.
   */
  @Test
  void aResultsMapAndArrayCannotBeChanged() {
    TrafficResult r = run(Topologies.parseTopology("aries-small"), 1, 0);
    assertThatThrownBy(() -> r.linkUtilization().put("rank-1", 42.0))
        .isInstanceOf(UnsupportedOperationException.class);
    double first = r.vcOccupancyBytes()[0];
    r.vcOccupancyBytes()[0] = -1;
    assertThat(r.vcOccupancyBytes()[0]).isEqualTo(first);
    java.util.Map<String, Double> util = new java.util.LinkedHashMap<>(r.linkUtilization());
    double[] vc = r.vcOccupancyBytes();
    TrafficResult copy = new TrafficResult(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, util, vc, 0, 0, 0, true, 0, 0, 0, 0, 0,
        null, List.of());
    util.put("extra", 1.0);
    vc[0] = -2;
    assertThat(copy.linkUtilization()).doesNotContainKey("extra");
    assertThat(copy.vcOccupancyBytes()[0]).isEqualTo(first);
    assertThat(copy.linkUtilization().keySet()).containsExactlyElementsOf(r.linkUtilization().keySet());
  }

  @Test
  void theListIsTheSameForEveryThreadCount() {
    Topology t = Topologies.parseTopology("aries-small");
    List<List<LinkLoad>> lists = new ArrayList<>();
    for (int threads = 1; threads <= 3; threads++) {
      lists.add(run(t, threads, 12).busiestLinks());
    }
    assertThat(lists.get(0)).hasSize(12);
    assertThat(lists.get(1)).isEqualTo(lists.get(0));
    assertThat(lists.get(2)).isEqualTo(lists.get(0));
  }
}
