package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.spi.TranslationClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The statistics read well: every client shown, the histogram as a summary, a few lines in all. */
class IommuStatisticsTest {

  @Test
  void toStringIsCompactAndShowsEveryClientEvenWhenIdle() {
    Rig rig = new Rig(IommuConfig.builder().pteFetchLatencyPs(100_000).hitLatencyPs(2_000).build());
    int mdh = rig.iommu.register(MemoryRegistration.of(0, 64L << 21, Rig.TAG, Rig.KEY)
        .withPageSize(PageSize.SIZE_2M)).mdh();
    for (int i = 0; i < 500; i++) {
      rig.translate(TranslationClient.NETWORK_REQUEST, mdh, (i % 64) * (2L << 20), 8, AccessKind.READ, i);
      rig.loop.run();
    }
    String s = rig.iommu.statistics().toString();
    assertThat(s.lines()).hasSize(7);
    assertThat(s).contains("NETWORK_REQUEST: translations=500 hits=492 misses=8 ",
        "NETWORK_RESPONSE: translations=0 ", "LOCAL_READ: translations=0 ", "COMPLETION_WRITE: translations=0 ",
        "TOTAL: translations=500 ", "pteFetches=8");
    // 8 misses of 102 ns, 492 hits of 2 ns: mean 3.6 ns, p50 2 ns, p99 and max 102 ns (3 significant digits).
    assertThat(s).contains("latency ns: count=500 mean=3.6 p50=2.0 p99=102.0 max=102.0");
    assertThat(rig.iommu.statistics().client(TranslationClient.LOCAL_READ).toString())
        .endsWith("latency ns: count=0 mean=0.0 p50=0.0 p99=0.0 max=0.0");
  }

  @Test
  void nullsAreRefusedNamingTheParameter() {
    IommuStatistics st = new Rig(IommuConfig.defaults()).iommu.statistics();
    TranslationStatistics total = st.total();
    assertThatThrownBy(() -> st.client(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("client must not be null");
    assertThatThrownBy(() -> total.stalls(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cause must not be null");
    assertThatThrownBy(() -> new IommuStatistics(null, total, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("perClient must not be null");
    assertThatThrownBy(() -> new IommuStatistics(Map.of(), null, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("total must not be null");
    assertThatThrownBy(() -> new TranslationStatistics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("latencyPs must not be null");
    assertThat(st.client(TranslationClient.LOCAL_READ).stalls(StallCause.NO_FETCH_BUFFER)).isZero();
  }

  /**
   * Stop 74: a map lacking clients is refused naming the parameter; an empty one failed inside EnumMap in its own
   * words, and one lacking a client answered null for it and printed "null".
   */
  @Test
  void aMapLackingAClientIsRefusedNamingTheParameter() {
    IommuStatistics st = new Rig(IommuConfig.defaults()).iommu.statistics();
    TranslationStatistics total = st.total();
    assertThatThrownBy(() -> new IommuStatistics(Map.of(), total, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("perClient must hold each of [NETWORK_REQUEST, NETWORK_RESPONSE, LOCAL_READ, COMPLETION_WRITE]"
            + " but lacked [NETWORK_REQUEST, NETWORK_RESPONSE, LOCAL_READ, COMPLETION_WRITE]");
    assertThatThrownBy(() -> new IommuStatistics(Map.of(TranslationClient.NETWORK_REQUEST, total), total, 0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith(" but lacked [NETWORK_RESPONSE, LOCAL_READ, COMPLETION_WRITE]");
    assertThat(new IommuStatistics(st.perClient(), total, 1, 2, 3).invalidations()).isEqualTo(1);
  }
}
