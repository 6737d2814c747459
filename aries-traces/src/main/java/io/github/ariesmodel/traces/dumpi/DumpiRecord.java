package io.github.ariesmodel.traces.dumpi;

import io.github.ariesmodel.traces.CallTiming;

/**
 * The decoded fields of the record being read, reused from record to record so reading allocates only the calls it
 * returns. Scalars sit in {@link #scalars} by field index; arrays of int32 and 16-bit handles in {@link #arrays} (grown
 * when a longer one comes); other arrays and strings are checked and skipped.
 */
final class DumpiRecord {
  /** Config-mask bit: statuses are stored ({@code DUMPI_ENABLE} in {@code settings.h} is bits 0 and 1). */
  static final int MASK_STATUSES = 0x03;
  /** Config-mask bit: CPU times are stored ({@code DUMPI_TIME_CPU}). */
  static final int MASK_CPU_TIME = 0x04;
  /** Config-mask bit: wall-clock times are stored ({@code DUMPI_TIME_WALL}). */
  static final int MASK_WALL_TIME = 0x08;
  /** Config-mask bit: the thread id is stored ({@code DUMPI_THREADID_MASK}). */
  static final int MASK_THREAD = 0x40;
  /** Config-mask bit: PAPI counters are stored ({@code DUMPI_PERFINFO_MASK}). */
  static final int MASK_PERF = 0x80;

  final long[] scalars = new long[DumpiLayout.MAX_FIELDS];
  final int[][] arrays = new int[DumpiLayout.MAX_FIELDS][];
  final int[] lengths = new int[DumpiLayout.MAX_FIELDS];
  final boolean[] present = new boolean[DumpiLayout.MAX_FIELDS];

  DumpiFunction function;
  long offset;
  int mask;
  int version;
  CallTiming timing = CallTiming.NONE;
  /** Statuses stored with the record (0 when the mask disables them or the call passed STATUS_IGNORE). */
  int statusCount;
  /** Byte count of the first stored status. */
  int firstStatusBytes;
  /** Source of the first stored status, as libdumpi stores a source (MPI_ANY_SOURCE as -1, else the library's). */
  int firstStatusSource;

  DumpiRecord() {
    for (int i = 0; i < arrays.length; i++) {
      arrays[i] = new int[8];
    }
  }

  void start(DumpiFunction f, long at) {
    function = f;
    offset = at;
    statusCount = 0;
    firstStatusBytes = 0;
    firstStatusSource = 0;
    java.util.Arrays.fill(present, true);
  }

  /** An array slot with room for {@code n} elements, its length set to n. */
  int[] arrayFor(int field, int n) {
    if (arrays[field].length < n) {
      arrays[field] = new int[Math.max(n, arrays[field].length * 2)];
    }
    lengths[field] = n;
    return arrays[field];
  }

  int intAt(int field) {
    return (int) scalars[field];
  }

  boolean versionAtLeast(int major, int minor, int sub) {
    return version >= DumpiRecord.version(major, minor, sub);
  }

  static int version(int major, int minor, int sub) {
    return (major << 16) | (minor << 8) | sub;
  }
}
