package io.github.ariesmodel.nic;

import java.util.Arrays;

/**
 * A NIC's {@link HostWriteListener}s, shared by the stages that write host memory, and the place where each stage
 * says when its write is visible: {@link #wrote} settles the write in the NIC's {@link PostedWrites} (it reaches
 * memory then) before the listeners hear of it. Nothing is called, and nothing allocated, while there are no
 * listeners.
 */
final class HostWriteProbes {
  private static final HostWriteListener[] NONE = new HostWriteListener[0];
  private HostWriteListener[] probes = NONE;
  private PostedWrites posted;

  /** @param posted the NIC's writes on their way, settled as each stage reports its write's visible time */
  void posted(PostedWrites posted) {
    this.posted = posted;
  }

  /** @return whether {@code probe} was added (false when it was there already) */
  boolean add(HostWriteListener probe) {
    for (HostWriteListener p : probes) {
      if (p == probe) {
        return false;
      }
    }
    probes = Arrays.copyOf(probes, probes.length + 1);
    probes[probes.length - 1] = probe;
    return true;
  }

  /** @return whether {@code probe} was one of them */
  boolean remove(HostWriteListener probe) {
    for (int i = 0; i < probes.length; i++) {
      if (probes[i] == probe) {
        HostWriteListener[] rest = probes.length == 1 ? NONE : new HostWriteListener[probes.length - 1];
        System.arraycopy(probes, 0, rest, 0, i);
        System.arraycopy(probes, i + 1, rest, i, rest.length - i);
        probes = rest;
        return true;
      }
    }
    return false;
  }

  /** A write of {@code length} bytes at {@code physicalAddress}, visible to the host from {@code visiblePs}. */
  void wrote(long visiblePs, long physicalAddress, int length) {
    if (posted != null) {
      posted.settle(visiblePs, physicalAddress, length);
    }
    tell(visiblePs, physicalAddress, length);
  }

  /**
   * The write just made is a memory AMO's result, settled when its result write is booked ({@link #wroteDeferred}),
   * not by another write's {@link #wrote} over the same bytes.
   */
  void deferNewest() {
    if (posted != null) {
      posted.deferNewest();
    }
  }

  /** A memory AMO's result write ({@link #deferNewest}) of {@code length} bytes, visible from {@code visiblePs}. */
  void wroteDeferred(long visiblePs, long physicalAddress, int length) {
    if (posted != null) {
      posted.settleDeferred(visiblePs, physicalAddress, length);
    }
    tell(visiblePs, physicalAddress, length);
  }

  private void tell(long visiblePs, long physicalAddress, int length) {
    for (HostWriteListener p : probes) {
      p.onHostWrite(visiblePs, physicalAddress, length);
    }
  }

  /** An access's write, part by part (its physical parts, in order). */
  void wrote(long visiblePs, MemoryAccess a) {
    for (int i = 0; i < a.parts; i++) {
      wrote(visiblePs, a.pa[i], a.partLength[i]);
    }
  }
}
