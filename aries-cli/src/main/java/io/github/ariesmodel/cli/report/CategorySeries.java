package io.github.ariesmodel.cli.report;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A named series of values by category, for a bar plot (for example latency by distance: "same router", "rank-1",
 * "rank-2", "rank-3"). Immutable; the array is copied in and out.
 */
final class CategorySeries {
  private final String name;
  private final List<String> categories;
  private final double[] values;

  private CategorySeries(String name, List<String> categories, double[] values) {
    this.name = name;
    this.categories = categories;
    this.values = values;
  }

  /**
   * A series.
   *
   * @param name legend name, non-empty
   * @param categories category labels, in drawing order, distinct
   * @param values one value per category
   * @return the series
   * @throws IllegalArgumentException when the name is empty, the lengths differ or a category repeats
   */
  public static CategorySeries of(String name, List<String> categories, double[] values) {
    Names.checkText("series name", name);
    Objects.requireNonNull(values, "values");
    List<String> cats = List.copyOf(categories);
    if (cats.size() != values.length) {
      throw new IllegalArgumentException("series \"" + name + "\" must have one value per category ("
          + cats.size() + ") but had " + values.length);
    }
    if (cats.stream().distinct().count() != cats.size()) {
      throw new IllegalArgumentException("series \"" + name + "\" has a repeated category in " + cats);
    }
    return new CategorySeries(name, cats, values.clone());
  }

  /** @return the legend name */
  public String name() {
    return name;
  }

  /** @return the category labels */
  public List<String> categories() {
    return categories;
  }

  /** @return a copy of the values */
  public double[] values() {
    return values.clone();
  }

  double valueAt(int i) {
    return values[i];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CategorySeries s && name.equals(s.name) && categories.equals(s.categories)
        && Arrays.equals(values, s.values);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, categories, Arrays.hashCode(values));
  }

  @Override
  public String toString() {
    return "CategorySeries[" + name + ", " + categories + "]";
  }
}
