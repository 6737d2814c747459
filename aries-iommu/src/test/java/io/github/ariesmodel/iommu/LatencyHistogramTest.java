package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.spi.TranslationClient;
import org.junit.jupiter.api.Test;

/** The statistics' latency snapshot: our own immutable type, not HdrHistogram's (stop 74). */
class LatencyHistogramTest {

  @Test
  void percentilesCountAndExtremesOfTheValuesGiven() {
    LatencyHistogram h = LatencyHistogram.of(10_000, 20_000, 30_000, 200_000);
    assertThat(h.count()).isEqualTo(4);
    assertThat(h.percentilePs(50)).isBetween(20_000L, 20_020L); // three significant digits: within 0.1 %
    assertThat(h.percentilePs(100)).isEqualTo(h.maxPs());
    assertThat(h.maxPs()).isBetween(200_000L, 200_200L);
    assertThat(h.minPs()).isBetween(9_990L, 10_010L);
    assertThat(h.meanPs()).isCloseTo(65_000, org.assertj.core.data.Offset.offset(100.0));
    assertThat(LatencyHistogram.of()).satisfies(e -> {
      assertThat(e.count()).isZero();
      assertThat(e.percentilePs(99)).isZero();
      assertThat(e.maxPs()).isZero();
      assertThat(e.meanPs()).isZero();
    });
    assertThat(h).isEqualTo(LatencyHistogram.of(200_000, 30_000, 20_000, 10_000)).isNotEqualTo(LatencyHistogram.of(1));
    assertThat(h.hashCode()).isEqualTo(LatencyHistogram.of(200_000, 30_000, 20_000, 10_000).hashCode());
  }

  @Test
  void badInputIsRefusedNamingIt() {
    assertThatThrownBy(() -> LatencyHistogram.of((long[]) null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("latenciesPs must not be null");
    assertThatThrownBy(() -> LatencyHistogram.of(5, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("latenciesPs[1] must be >= 0 but was -1");
    assertThatThrownBy(() -> LatencyHistogram.of(5).percentilePs(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("percentile must be in [0, 100] but was NaN");
  }

  /** A snapshot keeps its values while the IOMMU goes on translating. */
  @Test
  void aSnapshotDoesNotChangeAsTheIommuTranslatesOn() {
    Rig r = new Rig(IommuConfig.defaults());
    var d = r.iommu.register(io.github.ariesmodel.core.MemoryRegistration.of(0, 1 << 20, Rig.TAG, Rig.KEY));
    r.translate(d.mdh(), 0, 1);
    r.loop.run();
    LatencyHistogram before = r.iommu.statistics().client(TranslationClient.NETWORK_REQUEST).latencyPs();
    long count = before.count();
    r.translate(d.mdh(), 4096, 1);
    r.loop.run();
    assertThat(before.count()).isEqualTo(count);
    assertThat(r.iommu.statistics().client(TranslationClient.NETWORK_REQUEST).latencyPs().count())
        .isGreaterThan(count);
  }
}
