package io.github.ariesmodel.core.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.NetworkAddress;
import org.junit.jupiter.api.Test;

class WireFormatTest {

  private static final NetworkAddress TARGET = NetworkAddress.of(9, 1, 0x1000);

  /** aries-facts §3 (S2 quoting the whitepaper): 64 B PUT = 14 request + 1 response phits; 64 B GET = 3 + 12. */
  @Test
  void reproducesThePublishedPhitCounts() {
    assertThat(WireFormat.phits(true, 64)).isEqualTo(14);
    assertThat(WireFormat.phits(false, 0)).isEqualTo(1);
    assertThat(WireFormat.phits(true, 0)).isEqualTo(3);
    assertThat(WireFormat.phits(false, 64)).isEqualTo(12);
  }

  @Test
  void packetsOfA64BytePutAndGetHaveThePublishedSizes() {
    Packet put = Packet.put(2, TARGET, 1, DeliveryMode.ADAPTIVE_0, new byte[64], 0, 0);
    Packet ack = Packet.ack(put);
    Packet get = Packet.get(2, TARGET, 2, DeliveryMode.ADAPTIVE_0, 64, 0, 0);
    Packet data = Packet.data(get, new byte[64]);
    assertThat(put.wireBytes()).isEqualTo(14 * WireFormat.PHIT_BYTES);
    assertThat(ack.wireBytes()).isEqualTo(1 * WireFormat.PHIT_BYTES);
    assertThat(get.wireBytes()).isEqualTo(3 * WireFormat.PHIT_BYTES);
    assertThat(data.wireBytes()).isEqualTo(12 * WireFormat.PHIT_BYTES);
  }

  @Test
  void amoPacketsCarryTheirOperands() {
    AmoOperation fcswap = AmoOperation.of(AmoKind.CSWAP, true, 64);
    Packet req = Packet.amo(2, TARGET, 3, DeliveryMode.IN_ORDER, fcswap, 1, 2, 0, 0);
    assertThat(req.wireBytes()).isEqualTo(WireFormat.wireBytes(true, 16));
    Packet resp = Packet.amoResult(req, 42);
    assertThat(resp.kind()).isEqualTo(PacketKind.AMO_RESPONSE);
    assertThat(resp.operand1()).isEqualTo(42);
    assertThat(resp.wireBytes()).isEqualTo(WireFormat.wireBytes(false, 8));
    Packet nonFetching = Packet.amo(2, TARGET, 4, DeliveryMode.IN_ORDER, AmoOperation.parse("IADD_S"), 5, 0, 0, 0);
    assertThat(Packet.amoResult(nonFetching, 7).kind()).isEqualTo(PacketKind.ACK_RESPONSE);
  }

  @Test
  void phitsAreHeaderPlusCeilingOfDataOverSix() {
    qt().withExamples(1_000).forAll(booleans().all(), integers().between(0, WireFormat.MAX_PAYLOAD))
        .checkAssert((request, bytes) -> {
          int header = request ? WireFormat.REQUEST_HEADER_PHITS : WireFormat.RESPONSE_HEADER_PHITS;
          int phits = WireFormat.phits(request, bytes);
          assertThat((phits - header) * WireFormat.PHIT_BYTES).isGreaterThanOrEqualTo(bytes);
          assertThat((phits - header - 1) * WireFormat.PHIT_BYTES).isLessThan(bytes);
          assertThat(WireFormat.wireBytes(request, bytes)).isEqualTo(phits * WireFormat.PHIT_BYTES);
        });
  }
}
