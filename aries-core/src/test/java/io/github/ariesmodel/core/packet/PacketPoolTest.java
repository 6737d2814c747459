package io.github.ariesmodel.core.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import org.junit.jupiter.api.Test;

class PacketPoolTest {

  private static final DeliveryMode MODE = DeliveryMode.ADAPTIVE_0;

  @Test
  void aReusedPacketIsFieldForFieldWhatTheFactoriesMake() {
    PacketPool pool = new PacketPool();
    // fill the pool with packets of other kinds first, so that every packet below is a reused one
    Packet[] junk = new Packet[8];
    for (int i = 0; i < junk.length; i++) {
      junk[i] = pool.amo(9, 10, 11, 16, 99, DeliveryMode.IN_ORDER, AmoOperation.of(AmoKind.IADD, true, 64), 5, 6, 3,
          4);
      junk[i].hops(7);
      junk[i].injectedAtPs(1234);
      junk[i].createdAtPs(999);
    }
    for (Packet j : junk) {
      pool.release(j);
    }
    Packet put = pool.put(1, 2, 3, 0x40, 17, MODE, 24, 5, 6);
    assertThat(put.data()).hasSize(24);
    for (int i = 0; i < 24; i++) {
      put.data()[i] = (byte) i;
    }
    Packet fresh = Packet.put(1, NetworkAddress.of(2, 3, 0x40), 17, MODE, put.data().clone(), 5, 6);
    assertSame(put, fresh);
    assertSame(pool.get(1, 2, 3, 0x80, 18, MODE, 64, 5, 6), Packet.get(1, NetworkAddress.of(2, 3, 0x80), 18, MODE,
        64, 5, 6));
    AmoOperation fadd = AmoOperation.of(AmoKind.IADD, true, 32);
    Packet amo = pool.amo(1, 2, 3, 0xC0, 19, MODE, fadd, 7, 8, 5, 6);
    Packet amoFresh = Packet.amo(1, NetworkAddress.of(2, 3, 0xC0), 19, MODE, fadd, 7, 8, 5, 6);
    assertSame(amo, amoFresh);
    assertSame(pool.ack(put), Packet.ack(fresh));
    assertSame(pool.amoResult(amo, 42), Packet.amoResult(amoFresh, 42));
    assertSame(pool.error(put, Status.INVALID_MDH), Packet.error(fresh, Status.INVALID_MDH));
    Packet data = pool.data(pool.get(1, 2, 3, 0x80, 18, MODE, 8, 5, 6), 8);
    assertThat(data.kind()).isEqualTo(PacketKind.DATA_RESPONSE);
    assertThat(data.sourceNode()).isEqualTo(2);
    assertThat(data.destinationNode()).isEqualTo(1);
    assertThat(data.data()).hasSize(8);
    assertThat(pool.made()).as("the eight first packets").isEqualTo(8);
    assertThat(pool.reused()).as("every packet after them").isEqualTo(8);
  }

  @Test
  void payloadsAreReusedByLengthAndPoisonedOnRelease() {
    PacketPool pool = new PacketPool();
    Packet a = pool.put(1, 2, 3, 0, 1, MODE, 64, 0, 0);
    byte[] payload = a.data();
    payload[0] = 1;
    pool.release(a);
    assertThat(payload).containsOnly((byte) 0xA5);
    assertThat(a.kind()).as("a released packet's kind is cleared").isNull();
    Packet b = pool.put(1, 2, 3, 0, 1, MODE, 32, 0, 0);
    assertThat(b.data()).isNotSameAs(payload).hasSize(32);
    Packet c = pool.put(1, 2, 3, 0, 1, MODE, 64, 0, 0);
    assertThat(c.data()).isSameAs(payload);
    assertThat(pool.arraysMade()).isEqualTo(2);
  }

  @Test
  void aPacketIsReleasedOnceAndBadInputIsRefusedInOneLine() {
    PacketPool pool = new PacketPool();
    Packet p = pool.get(1, 2, 3, 0, 1, MODE, 8, 0, 0);
    pool.release(p);
    assertThatThrownBy(() -> pool.release(p)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("packet was released already");
    assertThatThrownBy(() -> pool.put(1, 2, 3, 0, 1, MODE, 65, 0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("length must be in [0, 64] but was 65");
    assertThatThrownBy(() -> pool.get(1, 1 << 18, 3, 0, 1, MODE, 8, 0, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("262144");
    // a refused packet leaves the pool as it was: the released one is handed out next
    assertThat(pool.get(1, 2, 3, 0, 1, MODE, 8, 0, 0)).isSameAs(p);
  }

  private static void assertSame(Packet a, Packet b) {
    assertThat(a.toString()).isEqualTo(b.toString());
    assertThat(a.kind()).isEqualTo(b.kind());
    assertThat(a.offset()).isEqualTo(b.offset());
    assertThat(a.deliveryMode()).isEqualTo(b.deliveryMode());
    assertThat(a.data()).isEqualTo(b.data());
    assertThat(a.operand1()).isEqualTo(b.operand1());
    assertThat(a.operand2()).isEqualTo(b.operand2());
    assertThat(a.protectionTag()).isEqualTo(b.protectionTag());
    assertThat(a.protectionKey()).isEqualTo(b.protectionKey());
    assertThat(a.wireBytes()).isEqualTo(b.wireBytes());
    assertThat(a.hops()).isEqualTo(b.hops());
    assertThat(a.injectedAtPs()).isEqualTo(b.injectedAtPs());
    assertThat(a.createdAtPs()).isEqualTo(b.createdAtPs());
  }

  /** A packet a fabric has not delivered yet cannot be given back for reuse: the pool would hand it out in flight. */
  @Test
  void aPacketInTheFabricIsNotReleased() {
    PacketPool pool = new PacketPool();
    Packet p = pool.put(1, 2, 3, 0, 1, MODE, 8, 0, 0);
    p.enterFabric();
    assertThatThrownBy(() -> pool.release(p)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is still in the fabric");
    assertThat(pool.put(1, 2, 3, 0, 1, MODE, 8, 0, 0)).isNotSameAs(p);
    assertThatThrownBy(p::enterFabric).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is in the fabric already");
    p.leaveFabric();
    pool.release(p);
    assertThat(pool.put(1, 2, 3, 0, 1, MODE, 8, 0, 0)).isSameAs(p);
  }

  @Test
  void aPoolThatOnlyReceivesKeepsNoMoreThanItsLimitAndTheMakerStillWorks() {
    PacketPool maker = new PacketPool(4);
    PacketPool receiver = new PacketPool(4);
    for (int i = 0; i < 100; i++) {
      // one-way PUTs: made from the maker's pool, released into the receiver's, as between two groups
      Packet p = maker.put(1, 2, 3, 64L * i, i, DeliveryMode.IN_ORDER, 64, 0, 0);
      p.data()[0] = (byte) i;
      receiver.release(p);
    }
    assertThat(maker.made()).isEqualTo(100);
    assertThat(receiver.packetsKept()).isEqualTo(4);
    assertThat(receiver.arraysKept()).isEqualTo(4);
    // what it kept it hands out again, and then makes new ones
    for (int i = 0; i < 6; i++) {
      receiver.put(2, 1, 3, 0, i, DeliveryMode.IN_ORDER, 64, 0, 0);
    }
    assertThat(receiver.reused()).isEqualTo(4);
    assertThat(receiver.made()).isEqualTo(2);
    assertThat(receiver.arraysMade()).isEqualTo(2);
    assertThat(receiver.arraysKept()).isZero();
    assertThat(new PacketPool().arraysKept()).isZero();
    assertThatThrownBy(() -> new PacketPool(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limit must be at least 1 but was 0");
  }
}
