package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketPool;
import java.util.ArrayDeque;

/**
 * The NIC's reusable {@link MemoryAccess} records, so a steady stream of packets allocates none, and the pool its
 * packets come from: its own, or with {@link Nic#recyclePackets} one shared by every NIC of the system, which then
 * also takes back every packet a NIC is done with ({@link #done}).
 */
final class AccessPool {
  private ArrayDeque<MemoryAccess> free;
  PacketPool packets = new PacketPool();
  boolean recyclePackets;

  /** The NIC is finished with {@code p} (a request it served, a response it processed): reuse it if allowed. */
  void done(Packet p) {
    if (recyclePackets) {
      packets.release(p);
    }
  }

  MemoryAccess take(TranslationClient client, int mdh, long offset, int length, AccessKind kind, int ptag, int pkey) {
    if (free == null) {
      free = new ArrayDeque<>();
    }
    MemoryAccess a = free.poll();
    if (a == null) {
      a = new MemoryAccess();
    }
    a.client = client;
    a.mdh = mdh;
    a.offset = offset;
    a.length = length;
    a.kind = kind;
    a.ptag = ptag;
    a.pkey = pkey;
    a.done = 0;
    a.parts = 0;
    return a;
  }

  void recycle(MemoryAccess a) {
    a.packet = null;
    a.tx = null;
    a.data = null;
    free.add(a);
  }
}
