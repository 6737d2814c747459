package io.github.ariesmodel.system.shmem;

/**
 * A symmetric object: the same number of bytes at the same virtual address on every processing element, registered
 * with each PE's NIC (each registration has its own MDH, as on real Aries nodes).
 */
public final class Symmetric {

  private final ShmemJob job;
  private final int id;
  private final long bytes;
  private final long virtualBase;
  private final int[] mdhs;

  Symmetric(ShmemJob job, int id, long bytes, long virtualBase, int[] mdhs) {
    this.job = job;
    this.id = id;
    this.bytes = bytes;
    this.virtualBase = virtualBase;
    this.mdhs = mdhs;
  }

  /** @return the allocation's index in its job */
  public int id() {
    return id;
  }

  /** @return bytes on each PE */
  public long bytes() {
    return bytes;
  }

  /** @return virtual address of the first byte on every PE */
  public long virtualBase() {
    return virtualBase;
  }

  /** @param pe a PE @return the MDH of this object's registration on that PE's node */
  public int mdh(int pe) {
    if (pe < 0 || pe >= mdhs.length) {
      throw new IllegalArgumentException("pe must be in [0, " + (mdhs.length - 1) + "] but was " + pe);
    }
    return mdhs[pe];
  }

  /** The job that allocated it: only that job's PEs may use it. */
  ShmemJob job() {
    return job;
  }

  void checkRange(String what, long offset, long length) {
    if (offset < 0 || length < 0 || offset > bytes - length) {
      throw new IllegalArgumentException(what + ": offset + length must lie within the symmetric object's " + bytes
          + " bytes but were " + offset + " + " + length);
    }
  }

  @Override
  public String toString() {
    return "Symmetric[" + id + ", " + bytes + " B at 0x" + Long.toHexString(virtualBase) + "]";
  }
}
