package io.github.ariesmodel.traces.dumpi;

import com.google.common.primitives.ImmutableIntArray;
import io.github.ariesmodel.traces.TraceCall;

/**
 * Byte sizes of DUMPI datatype handles.
 *
 * <p>libdumpi records {@code MPI_Type_size} of every datatype it sees in a size table written after the footer
 * ({@code dumpi_write_datatype_sizes} in {@code dumpi/common/io.c}, filled by
 * {@code libdumpi_register_datatype_size} in {@code dumpi/libdumpi/mpibindings.h}), indexed by DUMPI's datatype handle:
 * the built-ins of {@code dumpi_native_datatypes} in {@code dumpi/common/constants.h} (0 error, 1 null, 2 char, ...,
 * 27 long double int) and derived types from 28 on. A trace's entry is used when it is positive. Otherwise a built-in
 * type falls back to {@link #DEFAULT_SIZES}: {@code MPI_Type_size} on an LP64 Linux system (x86-64 and Cray XC),
 * which is also the table the AMG2013 trace in this module's tests carries, except that it leaves
 * {@code MPI_LONG_LONG_INT} at 0 (the default says 8). A derived type without a positive entry has an unknown size
 * ({@link TraceCall#UNKNOWN_BYTES}), and so has any handle past the table.
 */
final class DumpiDatatypes {
  /** First handle of a derived (user-defined) datatype ({@code DUMPI_FIRST_USER_DATATYPE}). */
  static final int FIRST_USER_DATATYPE = 28;

  /**
   * Built-in sizes in bytes by DUMPI handle: error, null, char, signed char, unsigned char, byte, wchar, short,
   * unsigned short, int, unsigned, long, unsigned long, float, double, long double, long long int, unsigned long long,
   * long long, packed, lb, ub, float_int, double_int, long_int, short_int, 2int, long_double_int.
   */
  static final ImmutableIntArray DEFAULT_SIZES =
      ImmutableIntArray.of(0, 0, 1, 1, 1, 1, 4, 2, 2, 4, 4, 8, 8, 4, 8, 16, 8, 8, 8, 1, 0, 0, 8, 12, 12, 6, 8, 20);

  private final int[] traced;

  DumpiDatatypes(int[] traced) {
    this.traced = traced.clone();
  }

  /** Bytes of one element of a datatype, or {@link TraceCall#UNKNOWN_BYTES}. */
  long size(int handle) {
    if (handle >= 0 && handle < traced.length && traced[handle] > 0) {
      return traced[handle];
    }
    if (handle >= 0 && handle < DEFAULT_SIZES.length()) {
      return DEFAULT_SIZES.get(handle);
    }
    return TraceCall.UNKNOWN_BYTES;
  }

  /** Number of entries in the trace's own table (0 when it has none). */
  int tracedEntries() {
    return traced.length;
  }

  /** Bytes of {@code count} elements, or {@link TraceCall#UNKNOWN_BYTES}; the count must be checked by the caller. */
  long bytes(long count, int handle) {
    long size = size(handle);
    return size < 0 ? TraceCall.UNKNOWN_BYTES : count * size;
  }
}
