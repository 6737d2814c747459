package io.github.ariesmodel.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.nic.NicTiming;
import io.github.ariesmodel.core.SimTime;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code put-rate}: one node's put issue rate by SHMEM PEs a node. */
class PutRateWorkloadTest {

  private static final SystemSpec ONE_GROUP = SystemSpec.of("default", 1);

  @Test
  void theNodesRateGrowsWithItsPesWhileTheirPostsBoundIt() {
    WorkloadReport r = new PutRateWorkload().run(ONE_GROUP, Params.of(Map.of("pesPerNode", "1,2,16",
        "puts", "300")));
    ResultTable t = r.tables().stream().filter(x -> x.name().equals("put-rate")).findFirst().orElseThrow();
    double[] rate = t.numbers("putRate");
    // one PE posts one put each fmaPostPs (133.334 ns since stop 70, derived from S1 p.23's 7.5 M/s a core): at most
    // 7.5 M/s, and nearly that over 300 puts
    double onePeMax = 1e6 / SimTime.toNs(NicTiming.DEFAULT_FMA_POST_PS) / 1e3;
    assertThat(rate[0]).isLessThanOrEqualTo(onePeMax).isGreaterThan(0.9 * onePeMax);
    // two PEs post concurrently through their own FMA descriptors: about twice one's
    assertThat(rate[1]).isGreaterThan(1.8 * rate[0]);
    // sixteen are bound by the NIC (its 64 request tags over a put's round trip, about 116 M/s, docs/validation.md),
    // not by their posts: more than two PEs give, less than sixteen times one PE (about 119 M/s)
    assertThat(rate[2]).isGreaterThan(rate[1]).isLessThan(0.98 * 16 * rate[0]);
    double[] waited = t.numbers("postsDelayedForTags");
    assertThat(waited[0]).isZero();
    assertThat(waited[2]).isPositive();
    assertThat(r.metrics()).extracting(m -> m.name()).containsExactly("put-rate.1.putRate", "put-rate.2.putRate",
        "put-rate.16.putRate");
    assertThat(t.numbers("faults")).containsOnly(0);
  }

  @Test
  void aBadCountIsRefusedInOneLine() {
    assertThatThrownBy(() -> new PutRateWorkload().run(ONE_GROUP, Params.of(Map.of("pesPerNode", "0"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pesPerNode elements must be in [1, 127] but one was 0");
  }
}
