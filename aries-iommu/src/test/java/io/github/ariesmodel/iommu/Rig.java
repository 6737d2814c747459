package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.ArrayList;
import java.util.List;

/** A node's memory, clock and IOMMU, and a listener that records completions. */
final class Rig {

  static final int TAG = 7;
  static final int KEY = 1234;

  /** One completed translation. */
  record Done(long id, long timePs, Status status, long physical, int contiguous) {}

  final SparsePhysicalMemory memory;
  final DeterministicEventLoop loop = new DeterministicEventLoop();
  final Iommu iommu;
  final List<Done> done = new ArrayList<>();
  final TranslationListener listener =
      (now, status, pa, contiguous, ref, arg) -> done.add(new Done(arg, now, status, pa, contiguous));

  Rig(IommuConfig config) {
    this(config, 1L << 44);
  }

  Rig(IommuConfig config, long capacity) {
    memory = new SparsePhysicalMemory(capacity);
    iommu = new Iommu(memory, loop, config);
  }

  void translate(int mdh, long offset, long id) {
    translate(TranslationClient.NETWORK_REQUEST, mdh, offset, 8, AccessKind.READ, id);
  }

  void translate(TranslationClient c, int mdh, long offset, int length, AccessKind access, long id) {
    iommu.translate(c, mdh, offset, length, access, TAG, KEY, listener, null, id);
  }

  Done doneWithId(long id) {
    return done.stream().filter(d -> d.id() == id).findFirst().orElseThrow();
  }

  /** An independent walk of the page tables in memory, straight from core's PTE format. */
  static PageTableEntry walk(HostMemory m, long root, PageSize ps, long relPage) {
    if (ps.isHuge()) {
      return PageTableEntry.unpack(m.readLong(root + relPage * 8));
    }
    PageTableEntry dir = PageTableEntry.unpack(m.readLong(root + (relPage >>> 9) * 8));
    if (!dir.present()) {
      return dir;
    }
    if (dir.leaf()) {
      throw new AssertionError("directory entry is a leaf: " + dir);
    }
    return PageTableEntry.unpack(m.readLong(dir.physicalBase() + (relPage & 511) * 8));
  }
}
