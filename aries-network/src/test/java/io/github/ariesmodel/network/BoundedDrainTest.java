package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import org.junit.jupiter.api.Test;

/**
 * A drain is bounded (issue 14): when the network has not emptied by the limit, the run stops and says so
 * ({@code drained == false}, the undelivered measured packets counted) instead of running forever.
 */
class BoundedDrainTest {

  private static TrafficExperiment.Builder busy() {
    return TrafficExperiment.on(Topologies.ariesSmall()).routing("minimal").pattern(TrafficPattern.UNIFORM)
        .load(1.0).warmupPs(50_000).measurePs(200_000).drain();
  }

  @Test
  void aDrainCutShortReportsWhatIsStillInFlight() {
    TrafficResult cut = busy().drainLimitPs(1).run();
    assertThat(cut.drained()).isFalse();
    assertThat(cut.unfinishedPackets()).isPositive();
    TrafficResult whole = busy().run();
    assertThat(whole.drained()).isTrue();
    assertThat(whole.unfinishedPackets()).isZero();
  }

  @Test
  void theLimitMustBePositive() {
    assertThatThrownBy(() -> busy().drainLimitPs(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("drainLimitPs must be >= 1 but was 0");
  }
}
