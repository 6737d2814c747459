package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import org.junit.jupiter.api.Test;

/** Nulls and negative counts given to the NIC's public methods: one line naming the parameter, never an NPE. */
class NicNullArgumentTest {

  @Test
  void deliverAndEncodeNameTheirNullParameterAndChangeNothing() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    assertThatThrownBy(() -> c.nics[1].deliver(0, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("packet must not be null");
    assertThat(c.nics[1].statistics().packetsReceived()).as("nothing counted").isZero();
    assertThatThrownBy(() -> CompletionQueue.encode(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("event must not be null");
    CompletionQueue cq = c.nics[0].createCompletionQueue(4);
    assertThat(cq.entryOffset(5)).isEqualTo(8);
    assertThatThrownBy(() -> cq.entryOffset(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("n must be >= 0 but was -1");
  }

  @Test
  void amoArithmeticNamesTheNullOperation() {
    assertThatThrownBy(() -> AmoArithmetic.apply(null, 1, 2, 3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("op must not be null");
    assertThatThrownBy(() -> AmoArithmetic.apply64(null, 1, 2, 3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("kind must not be null");
    assertThatThrownBy(() -> AmoArithmetic.apply32(null, 1, 2, 3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("kind must not be null");
    assertThat(AmoArithmetic.apply(AmoOperation.of(AmoKind.ADD, false, 64), 1, 2, 3)).isEqualTo(3);
  }
}
