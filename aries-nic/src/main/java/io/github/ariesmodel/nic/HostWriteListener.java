package io.github.ariesmodel.nic;

/**
 * Observes the writes a NIC makes into its node's host memory: a PUT's data landing at its target, GET response data
 * and fetched AMO values landing at the initiator, a memory AMO's result, a cached AMO's write-back, a collective
 * result and a completion-queue entry. It is what a CPU polling a word of its memory would see change: OpenSHMEM's
 * {@code shmem_wait_until} waits for a word "to be changed by a remote write or atomic swap" by testing memory, and
 * DMAPP's puts and AMOs ask nothing of the target's CPU [S8] (a probe, not a hardware structure).
 *
 * <p>It is called when the NIC makes the write, on the thread that runs the NIC's node, with the time from which the
 * host can see the bytes: later than now for a posted write that still has to cross the host link. The node's memory
 * takes the bytes at that time (since stop 69; before, when the NIC made the write), ahead of any event an observer
 * schedules for it then, so an observer that acts on the write at that time schedules its own event and reads them. A listener given to NICs of different groups of an engine
 * is called from several threads at once (see {@link CompletionListener}).
 */
@FunctionalInterface
public interface HostWriteListener {

  /**
   * Called once for each physically contiguous part of a write (a PUT's packet that straddles a page boundary is two).
   *
   * @param visiblePs when the host sees the bytes, picoseconds, at least the current time
   * @param physicalAddress the first byte written
   * @param length bytes written, at least 1
   */
  void onHostWrite(long visiblePs, long physicalAddress, int length);
}
