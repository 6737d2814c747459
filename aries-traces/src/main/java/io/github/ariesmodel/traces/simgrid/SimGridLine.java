package io.github.ariesmodel.traces.simgrid;

import io.github.ariesmodel.traces.TraceFormatException;
import java.nio.file.Path;

/**
 * One action line, split into tokens the way SimGrid's replay does ({@code read_and_trim_line} and
 * {@code boost::split} on spaces and tabs in {@code src/xbt/xbt_replay.cpp}): token 0 is the rank, token 1 the action,
 * the rest its arguments. Argument readers check the value and name the line when it is bad.
 */
final class SimGridLine {
  private final Path file;
  private final int rank;
  private final long number;
  private final String text;
  private final String[] tokens;

  SimGridLine(Path file, int rank, long number, String text, String[] tokens) {
    this.file = file;
    this.rank = rank;
    this.number = number;
    this.text = text;
    this.tokens = tokens;
  }

  int size() {
    return tokens.length;
  }

  String token(int i) {
    return tokens[i];
  }

  String action() {
    return tokens[1];
  }

  TraceFormatException error(String problem) {
    return TraceFormatException.atLine(file, rank, number, problem + " in " + TraceFormatException.echo(text));
  }

  /** Checks the argument count: at least {@code mandatory}, at most {@code mandatory + optional}. */
  void arguments(int mandatory, int optional) throws TraceFormatException {
    int given = tokens.length - 2;
    if (given < mandatory || given > mandatory + optional) {
      String expected = optional == 0 ? Integer.toString(mandatory) : mandatory + " to " + (mandatory + optional);
      throw error("action '" + action() + "' takes " + expected + " arguments, found " + given);
    }
  }

  /** An integer argument (a rank or tag) within a range. */
  int integer(int i, String what, int min, int max) throws TraceFormatException {
    return integer(i, what, min, max, min + ".." + max);
  }

  /**
   * An integer argument within a range, the range told as {@code range} (a caller that checks more itself names
   * what it accepts). An integer beyond an int's range is told the range too (until stop 73 it was "must be an
   * integer, was '99999999999'", which it is).
   */
  int integer(int i, String what, int min, int max, String range) throws TraceFormatException {
    int v;
    try {
      v = Integer.parseInt(tokens[i]);
    } catch (NumberFormatException e) {
      if (INTEGER.matcher(tokens[i]).matches()) {
        throw error(what + " must be in " + range + ", was " + TraceFormatException.echo(tokens[i]));
      }
      throw error(what + " must be an integer, was " + TraceFormatException.echo(tokens[i]));
    }
    if (v < min || v > max) {
      throw error(what + " must be in " + range + ", was " + v);
    }
    return v;
  }

  /** Digits with an optional sign: what {@link Integer#parseInt} takes, of any length. */
  private static final java.util.regex.Pattern INTEGER = java.util.regex.Pattern.compile("[+-]?[0-9]+");

  /**
   * A size or count, which SimGrid parses as a double and truncates ({@code parse_integer} in smpi_replay.cpp), so
   * {@code 1e6} is a million.
   */
  long count(int i, String what, boolean negativeAllowed) throws TraceFormatException {
    double d = number(i, what);
    if (d < 0 && !negativeAllowed) {
      throw error(what + " must be >= 0, was " + TraceFormatException.echo(tokens[i]));
    }
    if (Math.abs(d) >= 0x1p56) { // times a 32-byte element it still fits a long
      throw error(what + " is too large: " + TraceFormatException.echo(tokens[i]));
    }
    return (long) d;
  }

  /** What {@code std::stoi} reads of a token: an optional sign and the digits after it. */
  private static final java.util.regex.Pattern STOI_PREFIX = java.util.regex.Pattern.compile("^[+-]?[0-9]+");

  /**
   * A per-rank count of a v-collective or {@code reducescatter}. SMPI's replay reads these with {@code std::stoi}
   * ({@code GatherVArgParser}, {@code ScatterVArgParser}, {@code AllToAllVArgParser}, {@code ReduceScatterArgParser}
   * in {@code src/smpi/internals/smpi_replay.cpp}), which takes the leading whole number of an int and stops there, not
   * with {@code parse_integer} as the other counts: {@code 1e3} is 1 to it. A token that it reads as another number
   * than {@link #count} does, or as none, is refused (until stop 78 {@code 1e3} here read as 1,000).
   */
  long perRankCount(int i, String what) throws TraceFormatException {
    long c = count(i, what, false);
    java.util.regex.Matcher m = STOI_PREFIX.matcher(tokens[i]);
    Long stoi = null;
    if (m.find()) {
      try {
        stoi = (long) Integer.parseInt(m.group());
      } catch (NumberFormatException e) {
        stoi = null; // beyond an int: std::stoi throws out_of_range
      }
    }
    if (stoi == null || stoi != c) {
      String t = TraceFormatException.echo(tokens[i]);
      throw error(what + " must be a whole number of elements up to " + Integer.MAX_VALUE + ", as SMPI's replay reads a"
          + " per-rank count with std::stoi, which " + (stoi == null ? "finds no int in " + t : "reads " + t + " as "
          + stoi));
    }
    return c;
  }

  /** An amount of work or time, finite and non-negative. */
  double amount(int i, String what) throws TraceFormatException {
    double d = number(i, what);
    if (d < 0) {
      throw error(what + " must be >= 0, was " + TraceFormatException.echo(tokens[i]));
    }
    return d;
  }

  /**
   * A decimal number as C's {@code strtod} reads one whole ({@code xbt_str_parse_double} in {@code src/xbt/xbt_str.cpp}
   * refuses any text left after it). {@link Double#parseDouble} also takes a trailing {@code f} or {@code d} and
   * control characters around the number, which SimGrid refuses ("1f" read as 1 until stop 78).
   */
  private static final java.util.regex.Pattern DECIMAL =
      java.util.regex.Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
  /** Infinities and NaNs as {@code strtod} or {@link Double#parseDouble} spell them: numbers, but not finite. */
  private static final java.util.regex.Pattern NOT_FINITE =
      java.util.regex.Pattern.compile("[+-]?((?i)inf|infinity|nan(\\([0-9A-Za-z_]*\\))?)");

  private double number(int i, String what) throws TraceFormatException {
    if (NOT_FINITE.matcher(tokens[i]).matches()) {
      throw error(what + " must be finite, was " + TraceFormatException.echo(tokens[i]));
    }
    if (!DECIMAL.matcher(tokens[i]).matches()) {
      throw error(what + " must be a number, was " + TraceFormatException.echo(tokens[i]));
    }
    double d = Double.parseDouble(tokens[i]);
    if (!Double.isFinite(d)) {
      throw error(what + " must be finite, was " + TraceFormatException.echo(tokens[i]));
    }
    return d;
  }

  /**
   * What {@link #datatype} returns for SMPI's datatype id -1: an element of unknown size. SMPI's tracer writes a
   * datatype as its id ({@code Datatype::encode} in {@code src/smpi/include/smpi_datatype.hpp}), and every datatype
   * that is not predefined, a derived one ({@code MPI_Type_contiguous}, {@code _vector}, ...) or a duplicate, keeps the
   * default id "-1" (the {@code Datatype} constructor they use sets none); MPI_DATATYPE_NULL, whose id -1 also is,
   * cannot be passed to a call SMPI traces ({@code CHECK_TYPE} in {@code src/smpi/include/private.hpp} refuses it).
   * So -1 in a trace is a datatype whose size the trace does not give. SMPI's replay decodes it as MPI_DATATYPE_NULL,
   * 0 bytes; until stop 78 this reader did too, so a message of 10 elements of a derived type read as 0 bytes, and a
   * replay refused a receive of one such element of an 80-byte message with MPI_ERR_TRUNCATE.
   */
  static final int UNKNOWN_ELEMENT = -1;

  /**
   * Element size of the datatype argument at {@code i}, the default when the line has no such argument, or
   * {@link #UNKNOWN_ELEMENT} for id -1.
   */
  int datatype(int i, int defaultBytes) throws TraceFormatException {
    if (i >= tokens.length) {
      return defaultBytes;
    }
    int id;
    try {
      id = Integer.parseInt(tokens[i]);
    } catch (NumberFormatException e) {
      throw error("datatype must be an SMPI datatype id (0..59, -1 for a datatype SMPI could not name), was "
          + TraceFormatException.echo(tokens[i]));
    }
    if (!tokens[i].equals(Integer.toString(id))) {
      // SMPI's replay looks the id up as text (Datatype::decode in src/smpi/mpi/smpi_datatype.cpp, a map from the
      // ids' std::to_string): "+0" or "00" is in no entry, and it dereferences the map's end (until stop 78 read as 0)
      throw error("datatype must be an SMPI datatype id written as SMPI writes it, " + TraceFormatException.echo(
          Integer.toString(id)) + " (its replay looks the text up), was " + TraceFormatException.echo(tokens[i]));
    }
    if (id == -1) {
      return UNKNOWN_ELEMENT;
    }
    int size = SimGridDatatypes.size(id);
    if (size < 0) {
      throw error("unknown SMPI datatype id " + id + " (known: 0..59, -1 for a datatype SMPI could not name)");
    }
    return size;
  }
}
