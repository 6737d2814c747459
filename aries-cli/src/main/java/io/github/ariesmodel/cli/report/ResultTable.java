package io.github.ariesmodel.cli.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A named table of results: typed columns with units, and rows of cells. Immutable.
 *
 * <p>Cells hold {@link Long} ({@link ColumnType#INTEGER}), finite {@link Double} ({@link ColumnType#NUMBER}),
 * {@link String} ({@link ColumnType#STRING}), or {@code null} for "no value" (for example the latency at a load the
 * network could not carry). The name becomes a CSV file name, so it is restricted to letters, digits, {@code .},
 * {@code _} and {@code -}; {@code metrics} is reserved for the scalar metrics.
 */
public final class ResultTable {

  /** Table name reserved for the scalar metrics in CSV and HTML output. */
  public static final String RESERVED_NAME = "metrics";

  private final String name;
  private final List<Column> columns;
  private final List<List<Object>> rows;

  private ResultTable(String name, List<Column> columns, List<List<Object>> rows) {
    this.name = name;
    this.columns = columns;
    this.rows = rows;
  }

  /**
   * Starts a table.
   *
   * @param name table name (letters, digits, {@code . _ -}; not {@value #RESERVED_NAME})
   * @return a builder
   * @throws IllegalArgumentException when the name is not allowed
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** @return the table name */
  public String name() {
    return name;
  }

  /** @return the columns, in order */
  public List<Column> columns() {
    return columns;
  }

  /** @return the rows, each with one cell per column, in order */
  public List<List<Object>> rows() {
    return rows;
  }

  /**
   * The position of a column.
   *
   * @param columnName a column name
   * @return its index
   * @throws IllegalArgumentException naming the columns when there is no such column
   */
  public int columnIndex(String columnName) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(columnName)) {
        return i;
      }
    }
    List<String> names = new ArrayList<>();
    for (Column c : columns) {
      names.add(c.name());
    }
    throw new IllegalArgumentException(
        "table \"" + name + "\" has no column \"" + io.github.ariesmodel.core.Texts.abbreviate(columnName)
            + "\"; columns are " + names);
  }

  /**
   * The values of a numeric column as doubles.
   *
   * @param columnName an {@link ColumnType#INTEGER} or {@link ColumnType#NUMBER} column
   * @return one value per row, {@link Double#NaN} where a cell has no value
   * @throws IllegalArgumentException when there is no such column or it holds text
   */
  public double[] numbers(String columnName) {
    int c = columnIndex(columnName);
    if (columns.get(c).type() == ColumnType.STRING) {
      throw new IllegalArgumentException("column \"" + columnName + "\" of table \"" + name + "\" holds text, not numbers");
    }
    double[] out = new double[rows.size()];
    for (int r = 0; r < out.length; r++) {
      Object v = rows.get(r).get(c);
      out[r] = v == null ? Double.NaN : ((Number) v).doubleValue();
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResultTable t && name.equals(t.name) && columns.equals(t.columns) && rows.equals(t.rows);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, columns, rows);
  }

  @Override
  public String toString() {
    return "ResultTable[" + name + ", columns=" + columns + ", " + rows.size() + " rows]";
  }

  /** Builds a {@link ResultTable}: columns first, then rows. */
  public static final class Builder {
    private final String name;
    private final List<Column> columns = new ArrayList<>();
    private final Set<String> columnNames = new HashSet<>();
    private final List<List<Object>> rows = new ArrayList<>();

    private Builder(String name) {
      Names.checkFileSafe("table name", name);
      if (RESERVED_NAME.equals(name)) {
        throw new IllegalArgumentException("table name \"" + RESERVED_NAME + "\" is reserved for the scalar metrics");
      }
      this.name = name;
    }

    /**
     * Adds a column.
     *
     * @param column the column
     * @return this builder
     * @throws IllegalArgumentException when a column of that name exists
     * @throws IllegalStateException when rows were already added
     */
    public Builder column(Column column) {
      Objects.requireNonNull(column, "column");
      if (!rows.isEmpty()) {
        throw new IllegalStateException("table \"" + name + "\": add every column before the first row");
      }
      if (!columnNames.add(column.name())) {
        throw new IllegalArgumentException("table \"" + name + "\" already has a column \"" + column.name() + "\"");
      }
      columns.add(column);
      return this;
    }

    /**
     * Adds a column of whole numbers.
     *
     * @param columnName column name
     * @param unit unit, empty for none
     * @return this builder
     */
    public Builder integer(String columnName, String unit) {
      return column(Column.integer(columnName, unit));
    }

    /**
     * Adds a column of real numbers.
     *
     * @param columnName column name
     * @param unit unit, empty for none
     * @return this builder
     */
    public Builder number(String columnName, String unit) {
      return column(Column.number(columnName, unit));
    }

    /**
     * Adds a column of text.
     *
     * @param columnName column name
     * @return this builder
     */
    public Builder string(String columnName) {
      return column(Column.string(columnName));
    }

    /**
     * Adds a row. Integral values in a {@link ColumnType#NUMBER} column become doubles; {@code int} values in an
     * {@link ColumnType#INTEGER} column become longs.
     *
     * @param cells one value per column, in column order ({@code null} for no value)
     * @return this builder
     * @throws IllegalArgumentException when the count or a type is wrong, or a number is not finite
     */
    public Builder row(Object... cells) {
      return row(Arrays.asList(cells));
    }

    /**
     * Adds a row.
     *
     * @param cells one value per column, in column order ({@code null} for no value)
     * @return this builder
     * @throws IllegalArgumentException when the count or a type is wrong, or a number is not finite
     * @see #row(Object...)
     */
    public Builder row(List<?> cells) {
      if (columns.isEmpty()) {
        throw new IllegalStateException("table \"" + name + "\": add columns before rows");
      }
      if (cells.size() != columns.size()) {
        throw new IllegalArgumentException("table \"" + name + "\": a row must have " + columns.size()
            + " cells (one per column) but had " + cells.size());
      }
      Object[] row = new Object[cells.size()];
      for (int i = 0; i < row.length; i++) {
        Column c = columns.get(i);
        row[i] = c.type().check(cells.get(i), c.name());
      }
      rows.add(Collections.unmodifiableList(Arrays.asList(row)));
      return this;
    }

    /**
     * Builds the table.
     *
     * @return the table
     * @throws IllegalStateException when it has no columns
     */
    public ResultTable build() {
      if (columns.isEmpty()) {
        throw new IllegalStateException("table \"" + name + "\" must have at least one column");
      }
      return new ResultTable(name, List.copyOf(columns), List.copyOf(rows));
    }
  }
}
