package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The collective settings stop 53 added: MPICH's defaults, one-line refusals, and a builder round trip. */
class MpiConfigTest {

  @Test
  void defaultsAreMpichs() {
    MpiConfig d = MpiConfig.defaults();
    assertThat(d.smpCollectives()).isTrue(); // MPIR_CVAR_ENABLE_SMP_COLLECTIVES
    assertThat(d.alltoallThrottle()).isEqualTo(32); // MPIR_CVAR_ALLTOALL_THROTTLE
    assertThat(d.allgathervPipelineBytes()).isEqualTo(32_768); // MPIR_CVAR_ALLGATHERV_PIPELINE_MSG_SIZE
    assertThat(d.gathervSsendMinProcs()).isEqualTo(32); // MPIR_CVAR_GATHERV_INTER_SSEND_MIN_PROCS
  }

  @Test
  void badValuesAreRefusedInOneLineNamingTheSetting() {
    assertThatThrownBy(() -> MpiConfig.builder().alltoallThrottle(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("alltoallThrottle must be >= 0 but was -1");
    assertThatThrownBy(() -> MpiConfig.builder().allgathervPipelineBytes(-3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("allgathervPipelineBytes must be >= 0 but was -3");
    assertThatThrownBy(() -> MpiConfig.builder().gathervSsendMinProcs(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gathervSsendMinProcs must be >= 1 but was 0");
  }

  @Test
  void toBuilderKeepsTheCollectiveSettings() {
    MpiConfig c = MpiConfig.builder().smpCollectives(false).alltoallThrottle(0).allgathervPipelineBytes(1)
        .gathervSsendMinProcs(5).build();
    MpiConfig again = c.toBuilder().build();
    assertThat(again.smpCollectives()).isFalse();
    assertThat(again.alltoallThrottle()).isZero();
    assertThat(again.allgathervPipelineBytes()).isEqualTo(1);
    assertThat(again.gathervSsendMinProcs()).isEqualTo(5);
  }
}
