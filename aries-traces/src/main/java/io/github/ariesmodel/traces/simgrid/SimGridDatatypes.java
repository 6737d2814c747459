package io.github.ariesmodel.traces.simgrid;

import com.google.common.primitives.ImmutableIntArray;

/**
 * Element sizes of SimGrid's datatype ids, as SMPI's replay decodes a trace's datatype argument.
 *
 * <p>SMPI numbers its predefined datatypes in {@code src/smpi/mpi/smpi_datatype.cpp}
 * ({@code CREATE_MPI_DATATYPE(DOUBLE, 0, double, ...)}, {@code INT} 1, {@code CHAR} 2, ... {@code COUNT} 59;
 * {@code DATATYPE_NULL} is -1) and gives each the C {@code sizeof} of its type; a trace names a datatype by that
 * number ({@code Datatype::decode} in the same file, used by {@code parse_datatype} in
 * {@code src/smpi/internals/smpi_replay.cpp}). The sizes below are those {@code sizeof}s on an LP64 system
 * (x86-64 Linux): {@code long} 8, {@code long double} 16, {@code wchar_t} 4, and the padded pair structs of
 * MINLOC/MAXLOC ({@code long_int} 16, {@code long_double_int} 32).
 *
 * <p>When an action gives no datatype, SMPI uses {@code MPI_DEFAULT_TYPE}, which its {@code init} action sets:
 * {@code MPI_BYTE} (1 byte, "default TAU datatype") for a bare {@code init}, {@code MPI_DOUBLE} (8 bytes, "default MPE
 * datatype") when {@code init} has an argument.
 */
final class SimGridDatatypes {
  /** Size of SMPI's default type after a bare {@code init} ({@code MPI_BYTE}). */
  static final int DEFAULT_BYTES_BARE_INIT = 1;
  /** Size of SMPI's default type after {@code init} with an argument ({@code MPI_DOUBLE}). */
  static final int DEFAULT_BYTES_INIT_WITH_ARGUMENT = 8;

  /** Bytes by SMPI datatype id 0..59. */
  static final ImmutableIntArray SIZES = ImmutableIntArray.of(
      8, 4, 1, 2, 8, 4, 1, 8, 1, 1, // double int char short long float byte long_long signed_char unsigned_char
      2, 4, 8, 8, 16, 4, 1, 1, 2, 4, // ushort unsigned ulong ulong_long long_double wchar c_bool int8 int16 int32
      8, 1, 2, 4, 8, 8, 16, 32, 8, 8, // int64 uint8 uint16 uint32 uint64 c_float_complex c_double_complex
                                      // c_long_double_complex aint offset
      8, 16, 16, 8, 8, 8, 16, 16, 4, 4, // float_int long_int double_int short_int 2int 2float 2double 2long real real4
      8, 16, 8, 16, 16, 4, 2, 4, 8, 16, // real8 real16 complex8 complex16 complex32 integer1 integer2 integer4
                                        // integer8 integer16
      32, 1, 8, 16, 32, 0, 0, 1, 8, 8); // long_double_int cxx_bool cxx_float/double/long_double_complex ub lb
                                        // packed ptr count

  private SimGridDatatypes() {
  }

  /**
   * Size of a datatype id, or -1 if SMPI has no such id ({@code DATATYPE_NULL}, -1, has size 0; a trace's -1 is read
   * as a datatype of unknown size, {@link SimGridLine#UNKNOWN_ELEMENT}, not through this table).
   */
  static int size(int id) {
    if (id == -1) {
      return 0;
    }
    return id >= 0 && id < SIZES.length() ? SIZES.get(id) : -1;
  }
}
