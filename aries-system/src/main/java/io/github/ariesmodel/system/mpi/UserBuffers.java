package io.github.ariesmodel.system.mpi;

import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.nic.Nic;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a rank's user buffers stand in its node's modelled memory: the send buffer of a rendezvous or single-copy
 * message, and the receive buffer a rendezvous GET writes. A program's buffers are Java arrays; the NIC moves bytes
 * of the node's memory, so each such buffer takes a place here for as long as its transfer runs.
 *
 * <p>These are the user's memory, not Cray MPICH's internal buffers ({@link MpiConfig#heapBytes}): MPICH registers a
 * user buffer where it lies (through its registration cache, udreg), so no number of outstanding large messages can
 * exhaust the internal pool. The places come from segments that the rank registers with its NIC on demand, the
 * way a registration cache registers a buffer it has not seen, and keeps registered. A segment is at least
 * {@link #FIRST_SEGMENT_BYTES} and at least the space registered so far, so their count grows with the logarithm of
 * the most buffer space the rank ever has in flight. Registration is untimed, as a registration-cache hit is in the
 * protocol table of docs/mpi.md (the registration cost is not modelled).
 *
 * <p>A place is named by a handle: the segment's index above bit 40, its offset (below 2^40, the network address's
 * offset field) under it.
 */
final class UserBuffers {

  /**
   * The first segment: 16 MiB (assumed: eight 2 MiB pages, one PTE-cache line of the default page size), so that the
   * buffers of most programs share one registration.
   */
  static final long FIRST_SEGMENT_BYTES = 16L << 20;

  private static final int OFFSET_BITS = 40;
  private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;

  private final Nic nic;
  private final MemoryRegistration template;
  private final int rank;
  private final int node;
  private final long virtualStart;
  private final long virtualEnd;
  /** Bytes registered so far: the segments lie side by side from {@link #virtualStart}. */
  private long registered;
  private final List<Segment> segments = new ArrayList<>();

  private record Segment(int mdh, BufferHeap heap) {}

  /**
   * @param nic the rank's node's NIC
   * @param template the rank's own registration: the segments take its page size, protection and completion queue
   * @param virtualStart the first virtual address the segments may use (page aligned)
   * @param virtualEnd the end of the rank's virtual span
   * @param rank the world rank, for messages
   * @param node the node, for messages
   */
  UserBuffers(Nic nic, MemoryRegistration template, long virtualStart, long virtualEnd, int rank, int node) {
    this.nic = nic;
    this.template = template;
    this.virtualStart = virtualStart;
    this.virtualEnd = virtualEnd;
    this.rank = rank;
    this.node = node;
  }

  /**
   * Takes a place of {@code bytes} (at least 1), 64-byte aligned, in the first segment with room, registering a new
   * segment when none has.
   *
   * @return its handle
   * @throws IllegalStateException when the node cannot register another segment (its memory, its MDHs, or the
   *     rank's virtual span), naming what ran out
   */
  long allocate(long bytes) {
    for (int i = 0; i < segments.size(); i++) {
      long at = segments.get(i).heap().allocate(bytes);
      if (at >= 0) {
        return (long) i << OFFSET_BITS | at;
      }
    }
    Segment s = register(bytes);
    long at = s.heap().allocate(bytes);
    return (long) (segments.size() - 1) << OFFSET_BITS | at;
  }

  private Segment register(long bytes) {
    PageSize page = template.pageSize();
    long size = page.alignUp(Math.max(bytes, Math.max(FIRST_SEGMENT_BYTES, registered)));
    long base = virtualStart + registered;
    if (size > OFFSET_MASK || size > virtualEnd - base) {
      throw new IllegalStateException("MPI rank " + rank + " on node " + node + ": its user buffers in flight need "
          + size + " more bytes of virtual space than the rank's span (MpiJob.RANK_SPAN) has left ("
          + Math.max(0, virtualEnd - base) + " bytes; " + registered + " registered for user buffers)");
    }
    int mdh;
    try {
      mdh = nic.register(new MemoryRegistration(base, size, page, true, template.protectionTag(),
          template.protectionKey(), template.translationContext(), template.completionQueue(),
          template.prefetch())).mdh();
    } catch (RuntimeException x) {
      throw new IllegalStateException("MPI rank " + rank + " on node " + node + ": could not register " + size
          + " bytes for user buffers in flight (" + registered + " registered for them so far; the node's memory is"
          + " AriesSystem nodeMemoryBytes): " + x.getMessage(), x);
    }
    registered += size;
    Segment s = new Segment(mdh, new BufferHeap(0, size));
    segments.add(s);
    return s;
  }

  /** Gives a place back (its segment stays registered). */
  void release(long handle, long bytes) {
    segments.get(segment(handle)).heap().release(handle & OFFSET_MASK, bytes);
  }

  /** @return the MDHs of the segments registered so far */
  List<Integer> mdhs() {
    List<Integer> m = new ArrayList<>();
    for (Segment s : segments) {
      m.add(s.mdh());
    }
    return m;
  }

  /** Deregisters every segment (the job is closed: no place is used again). */
  void deregisterAll() {
    for (Segment s : segments) {
      nic.deregisterAndFree(s.mdh());
    }
    segments.clear();
  }

  /** @return the MDH of the segment holding a place */
  int mdh(long handle) {
    return segments.get(segment(handle)).mdh();
  }

  /** @return a place's offset within its segment's registration */
  static long offset(long handle) {
    return handle & OFFSET_MASK;
  }

  private static int segment(long handle) {
    return (int) (handle >>> OFFSET_BITS);
  }

  /** @return bytes of places in use, over every segment */
  long inUse() {
    long n = 0;
    for (Segment s : segments) {
      n += s.heap().inUse();
    }
    return n;
  }
}
