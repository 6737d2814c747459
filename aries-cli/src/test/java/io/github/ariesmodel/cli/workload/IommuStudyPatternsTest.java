package io.github.ariesmodel.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.cli.report.Metric;
import io.github.ariesmodel.cli.system.SystemSpec;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What iommu-study's {@code sequential} pattern is, as its help and docs/iommu.md say: each PE's own run of
 * consecutive words, the runs {@code table / pes} apart, which with a power-of-two table and PE count (the defaults)
 * puts every PE's 4 KB PTE line in one cache set: a set conflict, not a stream through memory.
 */
class IommuStudyPatternsTest {

  private static final SystemSpec ONE_GROUP = SystemSpec.of("default", 1);

  @Test
  void theHelpSaysWhatTheSequentialPatternTouches() {
    // it said "access patterns", and a reader expected a stream that hits, not the defaults' set conflict
    assertThat(new IommuStudyWorkload().parameters().get("patterns"))
        .startsWith("random,sequential: ")
        .contains("(i-1)*table/pes", "one PTE-cache set", "set conflict", "docs/iommu.md");
  }

  @Test
  void withTheDefaultsSequentialFourKilobytePutsConflictInOneSet() {
    Map<String, Double> hit = hitRates(Map.of());
    assertThat(hit.get("iommu.hitRate.4K.sequential")).isLessThan(hit.get("iommu.hitRate.4K.random"))
        .isLessThan(0.1);
    // a 2 MB PTE line covers 16 MiB: the 8 MiB starts fall in neighbouring lines, which all fit
    assertThat(hit.get("iommu.hitRate.2M.sequential")).isGreaterThan(0.9);
  }

  @Test
  void startsThatAreNoMultipleOfTheCachesTurnOrFewPesHitAsAStreamWould() {
    // 64M / 7 is no multiple of 1 MiB (32 sets x 8 PTEs x 4 KB): the PEs' lines spread over the sets
    assertThat(hitRates(Map.of("pes", "7")).get("iommu.hitRate.4K.sequential")).isGreaterThan(0.9);
    // 32 MiB apart, one set, but two lines fit in its four ways
    assertThat(hitRates(Map.of("pes", "2")).get("iommu.hitRate.4K.sequential")).isGreaterThan(0.9);
  }

  /**
   * On a system of one node there is no initiator: nothing would be translated or put. It is refused, as put-rate
   * refuses it, by the check and by the run itself; it ran and wrote null cells (0.0, the rate rounded from 0/0, until
   * stop 76), until stop 77.
   */
  @Test
  void aSystemOfOneNodeIsRefusedAsPutRateRefusesIt() {
    SystemSpec one = SystemSpec.of("canonical:p=1,a=1,h=0", 1);
    Params p = Params.of(Map.of("pageSizes", "4K", "patterns", "random"));
    assertThatThrownBy(() -> new IommuStudyWorkload().check(one.build(), p))
        .isInstanceOf(SystemUnfitException.class)
        .hasMessage("iommu-study needs a system of at least 2 nodes but this one has 1");
    assertThatThrownBy(() -> new IommuStudyWorkload().run(one, p, Progress.NONE))
        .isInstanceOf(SystemUnfitException.class)
        .hasMessage("iommu-study needs a system of at least 2 nodes but this one has 1");
  }

  private static Map<String, Double> hitRates(Map<String, String> extra) {
    Map<String, String> p = new HashMap<>(extra);
    p.put("pageSizes", "4K,2M");
    WorkloadReport r = new IommuStudyWorkload().run(ONE_GROUP, Params.of(p));
    Map<String, Double> m = new HashMap<>();
    for (Metric metric : r.metrics()) {
      m.put(metric.name(), metric.value());
    }
    return m;
  }
}
