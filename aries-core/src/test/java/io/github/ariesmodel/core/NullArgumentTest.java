package io.github.ariesmodel.core;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketPool;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * A null given to a public factory or method of core's value types and packets is a caller mistake: one {@link
 * IllegalArgumentException} line naming the parameter, not a bare {@link NullPointerException} (stop 31's fuzz run).
 */
class NullArgumentTest {

  private static final NetworkAddress TARGET = NetworkAddress.of(9, 1, 0x1000);

  private static void refused(ThrowingCallable call, String message) {
    assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  @Test
  void valueTypesNameTheNullParameter() {
    refused(() -> NetworkAddress.fromWire(null), "wire must not be null");
    refused(() -> NetworkAddress.fromBigInteger(null), "value must not be null");
    refused(() -> VirtualAddress.of(0x1000).pageNumber(null), "size must not be null");
    refused(() -> VirtualAddress.of(0x1000).pageOffset(null), "size must not be null");
    refused(() -> PageTableEntry.page(0x1000, null, true), "size must not be null");
    MemoryDomainDescriptor d = new MemoryDomainDescriptor(
        3, true, 0, 4096, true, 1, 1, 0, PageSize.SIZE_4K, MemoryDomainDescriptor.NO_CQ, false);
    refused(() -> d.check(0, 8, null, 1, 1), "access must not be null");
  }

  @Test
  void packetFactoriesNameTheNullParameter() {
    refused(() -> Packet.put(2, null, 0, DeliveryMode.MIN_HASH, new byte[8], 1, 1), "target must not be null");
    refused(() -> Packet.get(2, null, 0, DeliveryMode.MIN_HASH, 8, 1, 1), "target must not be null");
    refused(() -> Packet.amo(2, null, 0, DeliveryMode.MIN_HASH, AmoOperation.of(AmoKind.ADD, true, 64), 1, 0, 1, 1),
        "target must not be null");
    refused(() -> Packet.ack(null), "request must not be null");
    refused(() -> Packet.error(null, Status.NOT_WRITABLE), "request must not be null");
    refused(() -> Packet.amoResult(null, 0), "request must not be null");
    Packet get = Packet.get(2, TARGET, 0, DeliveryMode.MIN_HASH, 8, 1, 1);
    refused(() -> Packet.data(get, null), "data must not be null");
    refused(() -> Packet.data(null, new byte[8]), "request must not be null");
    // A PUT has no AMO operation: its amoResult read a null operation.
    refused(() -> Packet.amoResult(Packet.put(2, TARGET, 0, DeliveryMode.MIN_HASH, new byte[8], 1, 1), 0),
        "request must be an AMO request but was a PUT_REQUEST");
  }

  @Test
  void poolFactoriesNameTheNullRequestAndKeepThePoolAsItWas() {
    PacketPool pool = new PacketPool();
    refused(() -> pool.ack(null), "request must not be null");
    refused(() -> pool.data(null, 8), "request must not be null");
    refused(() -> pool.error(null, Status.NOT_WRITABLE), "request must not be null");
    refused(() -> pool.amoResult(null, 0), "request must not be null");
    Packet put = pool.put(2, 9, 1, 0x1000, 0, DeliveryMode.MIN_HASH, 8, 1, 1);
    refused(() -> pool.amoResult(put, 0), "request must be an AMO request but was a PUT_REQUEST");
    pool.release(put);
    refused(() -> pool.ack(put), "request was released to its pool already");
  }
}
