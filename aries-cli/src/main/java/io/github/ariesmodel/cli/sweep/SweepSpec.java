package io.github.ariesmodel.cli.sweep;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A sweep: the cartesian product of named parameter lists, such as {@code load=0.1,0.2,0.3} × {@code
 * routing=minimal,ugal} × {@code seed=1,2} (12 points).
 *
 * <p><b>Order.</b> Points are numbered like nested loops with the first parameter outermost: the last parameter varies
 * fastest. For the example, point 0 is (0.1, minimal, 1), point 1 is (0.1, minimal, 2), point 2 is (0.1, ugal, 1), and
 * point 11 is (0.3, ugal, 2). In general, with {@code n_k} values for parameter {@code k}, the point with value
 * indices {@code (i_0, ..., i_m)} has index {@code ((i_0 * n_1 + i_1) * n_2 + i_2) ...}. This order is part of the
 * file format: {@code point-<index>.json} refers to it.
 *
 * <p><b>Text form.</b> {@code name=v1,v2,...} per parameter, parameters separated by {@code ;}. A value list may use
 * an integer range {@code a..b} (inclusive, {@code a <= b}) for {@code a,a+1,...,b}. {@link #toString()} gives the
 * canonical form (ranges expanded), which {@link #parse(String)} accepts. Names are letters, digits, {@code . _ -};
 * values are non-empty and contain none of {@code , ; =} or whitespace; names and the values of one parameter are
 * distinct.
 */
public final class SweepSpec {

  /** Largest number of points a sweep may have. */
  public static final int MAX_POINTS = 10_000_000;

  /**
   * One parameter of a sweep.
   *
   * @param name parameter name
   * @param values its values, in order, at least one, distinct
   */
  public record Parameter(String name, List<String> values) {

    /**
     * Validates the parameter.
     *
     * @throws IllegalArgumentException when the name or a value is malformed, or a value repeats
     */
    public Parameter {
      if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
        throw new IllegalArgumentException(
            "parameter name must be letters, digits, '.', '_' or '-' but was \"" + name + "\"");
      }
      values = List.copyOf(values);
      if (values.isEmpty()) {
        throw new IllegalArgumentException("parameter " + name + " must have at least one value");
      }
      Set<String> seen = new HashSet<>();
      for (String v : values) {
        if (v.isEmpty() || !v.matches("[^,;=\\s]+")) {
          throw new IllegalArgumentException("values of parameter " + name
              + " must be non-empty without ',', ';', '=' or whitespace but one was \"" + v + "\""
              + (v.indexOf('=') >= 0 ? " (a value with options of its own, such as a topology spec"
              + " canonical:p=2,a=4,h=2, cannot be swept: run one sweep per such value)" : ""));
        }
        if (!seen.add(v)) {
          throw new IllegalArgumentException("parameter " + name + " lists value \"" + v + "\" twice");
        }
      }
    }
  }

  private final List<Parameter> parameters;
  private final int size;

  private SweepSpec(List<Parameter> parameters) {
    this.parameters = List.copyOf(parameters);
    if (this.parameters.isEmpty()) {
      throw new IllegalArgumentException("a sweep must have at least one parameter");
    }
    Set<String> names = new HashSet<>();
    long n = 1;
    for (Parameter p : this.parameters) {
      if (!names.add(p.name())) {
        throw new IllegalArgumentException("parameter " + p.name() + " is given twice");
      }
      n *= p.values().size();
      if (n > MAX_POINTS) {
        throw new IllegalArgumentException("a sweep must have at most " + MAX_POINTS + " points but "
            + this.parameters + " has more");
      }
    }
    this.size = (int) n;
  }

  /**
   * A sweep over parameters, in the given (enumeration) order.
   *
   * @param parameters at least one, distinct names
   * @return the sweep
   * @throws IllegalArgumentException when there is no parameter, a name repeats or there are too many points
   */
  public static SweepSpec of(List<Parameter> parameters) {
    return new SweepSpec(parameters);
  }

  /**
   * Parses the text form, e.g. {@code load=0.1,0.2;routing=minimal,ugal;seed=1..2}.
   *
   * @param text the specification
   * @return the sweep
   * @throws IllegalArgumentException naming the bad part
   */
  public static SweepSpec parse(String text) {
    Objects.requireNonNull(text, "text");
    List<String> parts = new ArrayList<>();
    for (String part : text.split(";", -1)) {
      parts.add(part);
    }
    return parse(parts);
  }

  /**
   * Parses one {@code name=values} text per parameter, as given by repeated {@code --param} options.
   *
   * @param parameterTexts e.g. {@code ["load=0.1,0.2", "seed=1..4"]}
   * @return the sweep
   * @throws IllegalArgumentException naming the bad part
   */
  public static SweepSpec parse(List<String> parameterTexts) {
    List<Parameter> params = new ArrayList<>();
    for (String raw : parameterTexts) {
      String p = raw.trim();
      int eq = p.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("a sweep parameter must be name=v1,v2,... but was \"" + raw + "\"");
      }
      String name = p.substring(0, eq).trim();
      List<String> values = new ArrayList<>();
      for (String v : p.substring(eq + 1).split(",", -1)) {
        expand(name, v.trim(), values);
      }
      params.add(new Parameter(name, values));
    }
    return new SweepSpec(params);
  }

  private static void expand(String name, String v, List<String> out) {
    int dots = v.indexOf("..");
    if (dots < 0) {
      out.add(v);
      return;
    }
    long a;
    long b;
    try {
      a = Long.parseLong(v.substring(0, dots));
      b = Long.parseLong(v.substring(dots + 2));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "range of parameter " + name + " must be a..b with integers a <= b but was \"" + v + "\"");
    }
    // (b - a may overflow for a range across the whole long range; compare without subtracting first)
    if (a > b || (a < 0 && b >= a + Long.MAX_VALUE) || b - a >= MAX_POINTS) {
      throw new IllegalArgumentException("range of parameter " + name + " must be a..b with a <= b and at most "
          + MAX_POINTS + " values but was \"" + v + "\"");
    }
    // counted, not "i <= b": with b = Long.MAX_VALUE that test never fails and the loop never ended
    for (long k = 0, n = b - a; k <= n; k++) {
      out.add(Long.toString(a + k));
    }
  }

  /** @return the parameters, in enumeration order (first outermost) */
  public List<Parameter> parameters() {
    return parameters;
  }

  /** @return the number of points */
  public int size() {
    return size;
  }

  /**
   * The point at an index.
   *
   * @param index {@code 0 <= index < size()}
   * @return the point
   * @throws IllegalArgumentException when the index is out of range
   */
  public SweepPoint point(int index) {
    if (index < 0 || index >= size) {
      throw new IllegalArgumentException("point index must be in [0, " + (size - 1) + "] but was " + index);
    }
    String[] chosen = new String[parameters.size()];
    int rest = index;
    for (int k = parameters.size() - 1; k >= 0; k--) {
      List<String> values = parameters.get(k).values();
      chosen[k] = values.get(rest % values.size());
      rest /= values.size();
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (int k = 0; k < chosen.length; k++) {
      values.put(parameters.get(k).name(), chosen[k]);
    }
    return new SweepPoint(index, values);
  }

  /**
   * The points of one shard, in index order.
   *
   * @param shard the shard ({@link Shard#ALL} for every point)
   * @return the points
   */
  public List<SweepPoint> points(Shard shard) {
    List<SweepPoint> out = new ArrayList<>();
    // long: index + count overflows an int for a shard count near Integer.MAX_VALUE
    for (long i = shard.index(); i < size; i += shard.count()) {
      out.add(point((int) i));
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SweepSpec s && parameters.equals(s.parameters);
  }

  @Override
  public int hashCode() {
    return parameters.hashCode();
  }

  /** @return the canonical text form, e.g. {@code load=0.1,0.2;seed=1,2} */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Parameter p : parameters) {
      if (b.length() > 0) {
        b.append(';');
      }
      b.append(p.name()).append('=').append(String.join(",", p.values()));
    }
    return b.toString();
  }
}
