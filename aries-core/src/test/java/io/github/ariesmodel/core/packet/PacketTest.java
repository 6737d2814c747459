package io.github.ariesmodel.core.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import org.junit.jupiter.api.Test;

class PacketTest {

  private static final NetworkAddress TARGET = NetworkAddress.of(9, 1, 0x1000);

  @Test
  void responsesTravelBackAndEchoTheRequest() {
    Packet put = Packet.put(2, TARGET, 77, DeliveryMode.MIN_HASH, new byte[8], 3, 4);
    Packet err = Packet.error(put, Status.NOT_WRITABLE);
    assertThat(err.sourceNode()).isEqualTo(9);
    assertThat(err.destinationNode()).isEqualTo(2);
    assertThat(err.tag()).isEqualTo(77);
    assertThat(err.status()).isEqualTo(Status.NOT_WRITABLE);
    assertThat(err.isRequest()).isFalse();
    assertThat(err.targetAddress()).isEqualTo(TARGET);
    assertThat(put.targetAddress()).isEqualTo(TARGET);
    assertThat(err.deliveryMode()).isEqualTo(DeliveryMode.MIN_HASH);
  }

  @Test
  void callerMistakesAreRejected() {
    assertThatThrownBy(() -> Packet.put(2, TARGET, 1, DeliveryMode.ADAPTIVE_0, new byte[65], 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dataLength must be in [0, 64] bytes but was 65");
    assertThatThrownBy(() -> Packet.get(2, TARGET, 1, DeliveryMode.ADAPTIVE_0, 0, 0, 0))
        .hasMessageContaining("GET length must be in [1, 64] but was 0");
    Packet put = Packet.put(2, TARGET, 1, DeliveryMode.ADAPTIVE_0, new byte[1], 0, 0);
    assertThatThrownBy(() -> Packet.error(put, Status.OK)).hasMessageContaining("but was OK");
    assertThatThrownBy(() -> Packet.ack(Packet.ack(put))).hasMessageContaining("ACK_RESPONSE");
    assertThatThrownBy(() -> Packet.synthetic(262_144, 0, 0, DeliveryMode.ADAPTIVE_0, 0))
        .hasMessageContaining("nodeId must be in [0, 262143]");
  }

  @Test
  void aDataResponseAnswersAGetWithExactlyItsLength() {
    // a response of another length than its GET's, or to a PUT, was made without a word (stop 69); the initiator's NIC
    // would land its bytes and count the GET complete
    Packet get = Packet.get(2, TARGET, 1, DeliveryMode.ADAPTIVE_0, 8, 0, 0);
    assertThat(Packet.data(get, new byte[8]).dataLength()).isEqualTo(8);
    for (int wrong : new int[] {0, 7, 9, 64}) {
      assertThatThrownBy(() -> Packet.data(get, new byte[wrong])).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("data's length must be the GET's length, in [8, 8] bytes, but was " + wrong);
    }
    Packet put = Packet.put(2, TARGET, 1, DeliveryMode.ADAPTIVE_0, new byte[8], 0, 0);
    assertThatThrownBy(() -> Packet.data(put, new byte[8])).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("request must be a GET request but was a PUT_REQUEST");
    PacketPool pool = new PacketPool();
    Packet pooledGet = pool.get(2, 9, 1, 0x1000, 1, DeliveryMode.ADAPTIVE_0, 16, 0, 0);
    assertThatThrownBy(() -> pool.data(pooledGet, 64)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("length must be the GET's length, in [16, 16] bytes, but was 64");
    assertThatThrownBy(() -> pool.data(put, 8)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("request must be a GET request but was a PUT_REQUEST");
    // a refused answer leaves the pool as it was
    assertThat(pool.data(pooledGet, 16).dataLength()).isEqualTo(16);
  }

  @Test
  void theTransitRecordStartsEmptyAndIsWrittenByTheFabric() {
    Packet p = Packet.synthetic(0, 1, 5, DeliveryMode.ADAPTIVE_1, 64);
    assertThat(p.data()).isNull();
    assertThat(p.hops()).isZero();
    assertThat(p.injectedAtPs()).isZero();
    assertThat(p.createdAtPs()).isZero();
    p.hops(3);
    p.injectedAtPs(1234);
    p.createdAtPs(1000);
    assertThat(p.hops()).isEqualTo(3);
    assertThat(p.injectedAtPs()).isEqualTo(1234);
    assertThat(p.createdAtPs()).isEqualTo(1000);
    assertThat(p.wireBytes()).isEqualTo(14 * WireFormat.PHIT_BYTES);
  }

  @Test
  void routingStateIsNotPartOfThePacketsApi() {
    // Virtual channels and non-minimal waypoints belong to the router fabric (issue 9 item 7): a core type offers
    // only the transit record every fabric writes.
    assertThat(java.util.Arrays.stream(Packet.class.getMethods()).map(java.lang.reflect.Method::getName))
        .doesNotContain("intermediate", "routeFlags", "virtualChannel");
  }
}
