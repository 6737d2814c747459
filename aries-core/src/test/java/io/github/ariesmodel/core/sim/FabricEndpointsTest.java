package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import org.junit.jupiter.api.Test;

class FabricEndpointsTest {

  private static final FabricEndpoint SINK = (now, p) -> {};

  @Test
  void attachLookupAndTheFabricPortsChecks() {
    FabricEndpoints t = new FabricEndpoints(4);
    t.attach(2, SINK);
    assertThat(t.endpoint(2)).isSameAs(SINK);
    assertThat(t.endpointOrNull(1)).isNull();
    assertThatThrownBy(() -> t.attach(2, SINK)).isInstanceOf(IllegalStateException.class)
        .hasMessage("node 2 is already attached");
    assertThatThrownBy(() -> t.attach(1, null)).hasMessage("endpoint must not be null");
    assertThatThrownBy(() -> t.attach(4, SINK)).hasMessage("nodeId must be in [0, 3] but was 4");
    assertThatThrownBy(() -> t.endpoint(1)).hasMessage("node 1 has no endpoint attached");
    Packet toUnattached = Packet.synthetic(2, 1, 0, DeliveryMode.ADAPTIVE_0, 8);
    t.checkPacket(toUnattached);
    assertThatThrownBy(() -> t.endpointFor(toUnattached)).hasMessageStartingWith(
        "packet for node 1 which has no endpoint attached: PUT_REQUEST{2->1");
    assertThatThrownBy(() -> t.checkPacket(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("packet must not be null");
    assertThatThrownBy(() -> t.checkPacket(Packet.synthetic(2, 9, 0, DeliveryMode.ADAPTIVE_0, 8)))
        .hasMessage("packet.destinationNode must be in [0, 3] but was 9");
    assertThatThrownBy(() -> new FabricEndpoints(0)).hasMessage("nodeCount must be in [1, 262144] but was 0");
  }

  @Test
  void theIdealFabricNowRejectsANullEndpointLikeEveryOtherFabric() {
    IdealFabric f = new IdealFabric(new DeterministicEventLoop(), 2, 0, 1e9);
    assertThatThrownBy(() -> f.attach(0, null)).hasMessage("endpoint must not be null");
  }
}
