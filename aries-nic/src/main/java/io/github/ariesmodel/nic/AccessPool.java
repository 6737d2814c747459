package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.spi.TranslationClient;
import java.util.ArrayDeque;

/** The NIC's reusable {@link MemoryAccess} records, so a steady stream of packets allocates none. */
final class AccessPool {
  private ArrayDeque<MemoryAccess> free;

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
