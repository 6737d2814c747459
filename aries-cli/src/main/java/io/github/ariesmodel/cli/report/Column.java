package io.github.ariesmodel.cli.report;

import java.util.Objects;

/**
 * One column of a {@link ResultTable}.
 *
 * @param name column name, non-empty, unique in its table
 * @param unit unit of the values ({@code "ns"}, {@code "GB/s"}, {@code "B"}...), empty for dimensionless or text
 * @param type type of the values
 */
public record Column(String name, String unit, ColumnType type) {

  /**
   * Validates the column.
   *
   * @throws IllegalArgumentException when {@code name} is empty or a part is null
   */
  public Column {
    Names.checkText("column name", name);
    Objects.requireNonNull(unit, "unit (use \"\" for none)");
    Objects.requireNonNull(type, "type");
  }

  /**
   * A column of whole numbers.
   *
   * @param name column name
   * @param unit unit, empty for none
   * @return the column
   */
  public static Column integer(String name, String unit) {
    return new Column(name, unit, ColumnType.INTEGER);
  }

  /**
   * A column of real numbers.
   *
   * @param name column name
   * @param unit unit, empty for none
   * @return the column
   */
  public static Column number(String name, String unit) {
    return new Column(name, unit, ColumnType.NUMBER);
  }

  /**
   * A column of text.
   *
   * @param name column name
   * @return the column, without unit
   */
  public static Column string(String name) {
    return new Column(name, "", ColumnType.STRING);
  }

  /** @return the name followed by the unit in brackets, e.g. {@code latency [ns]}; the name alone when no unit */
  public String label() {
    return unit.isEmpty() ? name : name + " [" + unit + "]";
  }
}
