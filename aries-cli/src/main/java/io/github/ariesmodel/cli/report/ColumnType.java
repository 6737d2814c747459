package io.github.ariesmodel.cli.report;

/** The type of the values in one column of a {@link ResultTable}. */
public enum ColumnType {
  /** Whole numbers, held as {@link Long}: counts, bytes, picoseconds. */
  INTEGER("integer"),
  /** Finite real numbers, held as {@link Double}: rates, means, fractions. */
  NUMBER("number"),
  /** Text, held as {@link String}: names of routings, patterns, distances. */
  STRING("string");

  private final String id;

  ColumnType(String id) {
    this.id = id;
  }

  /** @return the name used in the JSON schema ({@code integer}, {@code number} or {@code string}) */
  public String id() {
    return id;
  }

  /**
   * The type with a schema name.
   *
   * @param id {@code integer}, {@code number} or {@code string}
   * @return the type
   * @throws IllegalArgumentException when {@code id} is none of them
   */
  public static ColumnType of(String id) {
    for (ColumnType t : values()) {
      if (t.id.equals(id)) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "column type must be one of integer, number, string but was \"" + id + "\"");
  }

  /**
   * Checks that a cell value fits this type. {@code null} (no value) fits every type.
   *
   * @param value the cell value
   * @param column the column name, for the message
   * @return {@code value}, unchanged, or widened to {@link Long} from {@link Integer}/{@link Short}/{@link Byte} and
   *     to {@link Double} from {@link Float} or any integral number in a {@link #NUMBER} column
   * @throws IllegalArgumentException when the value does not fit, or is a non-finite double
   */
  Object check(Object value, String column) {
    if (value == null) {
      return null;
    }
    switch (this) {
      case INTEGER:
        if (value instanceof Long) {
          return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
          return ((Number) value).longValue();
        }
        break;
      case NUMBER:
        if (value instanceof Double || value instanceof Float || value instanceof Long
            || value instanceof Integer || value instanceof Short || value instanceof Byte) {
          double d = ((Number) value).doubleValue();
          if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("column \"" + column
                + "\" must hold finite numbers (use null for no value) but got " + d);
          }
          return d;
        }
        break;
      case STRING:
        if (value instanceof String) {
          return value;
        }
        break;
      default:
        break;
    }
    throw new IllegalArgumentException("column \"" + column + "\" is of type " + id + " but got "
        + value.getClass().getSimpleName() + " " + value);
  }
}
