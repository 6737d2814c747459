package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A null given to the NIC's public methods is one line naming the parameter, not a NullPointerException. */
class NicNullArgumentTest {

  @Test
  void deliverAndEncodeNameTheirNullParameterAndChangeNothing() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    assertThatThrownBy(() -> c.nics[1].deliver(0, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("packet must not be null");
    assertThat(c.nics[1].statistics().packetsReceived()).as("nothing counted").isZero();
    assertThatThrownBy(() -> CompletionQueue.encode(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("event must not be null");
  }
}
