package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.core.ByteCount;
import io.github.ariesmodel.core.Texts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.DoubleStream;
import java.util.stream.LongStream;

/**
 * A workload's parameters ({@code name=value} strings from the command line, a sweep point or code), read with
 * typed getters that check ranges. {@link #checkAllUsed(Set)} rejects the names a workload does not declare, with a
 * message that lists the known ones. Reading has no side effect: the same read gives the same value or the same
 * message every time, so a workload may read its parameters once to check them and again to run.
 */
public final class Params {

  private final Map<String, String> values;

  private Params(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** @param values name → value @return the parameters */
  public static Params of(Map<String, String> values) {
    if (values == null) {
      throw new IllegalArgumentException("values must not be null");
    }
    return new Params(values);
  }

  /**
   * Parses {@code name=value} pairs.
   *
   * @param pairs e.g. {@code ["sizes=8,64", "iterations=5"]}
   * @return the parameters
   * @throws IllegalArgumentException quoting a pair that has no '=', or naming a parameter given twice
   */
  public static Params parse(List<String> pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String p : pairs) {
      int eq = p.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("parameter must look like name=value but was \"" + Texts.abbreviate(p) + "\"");
      }
      String name = p.substring(0, eq).trim();
      if (m.put(name, p.substring(eq + 1).trim()) != null) {
        throw new IllegalArgumentException("parameter " + Texts.abbreviate(name) + " is given twice; give each parameter once");
      }
    }
    return new Params(m);
  }

  /** @return no parameters */
  public static Params none() {
    return new Params(Map.of());
  }

  /** @return the raw values */
  public Map<String, String> asMap() {
    return values;
  }

  /**
   * Rejects names that the workload does not know.
   *
   * @param known the names the workload reads
   * @throws IllegalArgumentException naming the first unknown parameter and listing the known ones
   */
  public void checkAllUsed(Set<String> known) {
    for (String name : values.keySet()) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown parameter \"" + Texts.abbreviate(name) + "\"; "
            + (known.isEmpty() ? "this workload takes no parameters"
                : "known parameters: " + String.join(", ", new TreeSet<>(known))));
      }
    }
  }

  /**
   * An integer parameter.
   *
   * @param name the name
   * @param defaultValue used when absent
   * @param min smallest allowed
   * @param max largest allowed
   * @return the value
   */
  public int integer(String name, int defaultValue, int min, int max) {
    return (int) longValue(name, defaultValue, min, max);
  }

  /**
   * A long parameter; accepts the binary suffixes of {@link ByteCount} ({@code 64K} = 65536).
   *
   * @param name the name
   * @param defaultValue used when absent
   * @param min smallest allowed
   * @param max largest allowed
   * @return the value
   */
  public long longValue(String name, long defaultValue, long min, long max) {
    String v = values.get(name);
    long x = v == null ? defaultValue : parseLong(name, v, min, max);
    if (x < min || x > max) {
      throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "] but was " + x
          + ifDefault(name));
    }
    return x;
  }

  /**
   * The numbers a floating-point workload parameter or option takes: decimal digits with an optional sign, point and
   * exponent ({@code 0.5}, {@code .5}, {@code -3}, {@code 1e6}). Java's own parser also took {@code 0.5d},
   * {@code 0.5f}, hexadecimal {@code 0x1p-1}, {@code NaN}, {@code Infinity} and spaces around, which a sweep's check
   * of repeated values ({@code SweepSpec}) and merge's column types read as text: {@code loads=0.5,0.5d,0x1p-1} ran
   * one point three times (until stop 75).
   */
  public static final java.util.regex.Pattern DECIMAL =
      java.util.regex.Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

  /**
   * Parses a number of the {@link #DECIMAL} grammar.
   *
   * @param text the text
   * @return its value (which may be infinite when the exponent is huge: the callers' ranges refuse it)
   * @throws NumberFormatException when the text is not of that grammar
   */
  public static double decimal(String text) {
    if (text == null || !DECIMAL.matcher(text).matches()) {
      throw new NumberFormatException("not a decimal number");
    }
    return Double.parseDouble(text);
  }

  /**
   * A floating-point parameter.
   *
   * @param name the name
   * @param defaultValue used when absent
   * @param min smallest allowed
   * @param max largest allowed
   * @return the value
   */
  public double number(String name, double defaultValue, double min, double max) {
    String v = values.get(name);
    double x;
    try {
      x = v == null ? defaultValue : decimal(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number but was \"" + Texts.abbreviate(v) + "\"", e);
    }
    if (!(x >= min && x <= max)) {
      throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "] but was " + x
          + ifDefault(name));
    }
    return x;
  }

  /**
   * A comma-separated list of longs (binary suffixes allowed).
   *
   * @param name the name
   * @param defaultValue used when absent, e.g. {@code "8,64,1K"}
   * @param min smallest allowed element
   * @param max largest allowed element
   * @return the values, in the given order
   */
  public long[] longList(String name, String defaultValue, long min, long max) {
    List<String> parts = list(name, defaultValue);
    long[] out = new long[parts.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = parseLong(name, parts.get(i), min, max);
      if (out[i] < min || out[i] > max) {
        throw new IllegalArgumentException(
            name + " elements must be in [" + min + ", " + max + "] but one was " + out[i] + ifDefault(name));
      }
    }
    refuseRepeats(name, parts, LongStream.of(out).boxed().toList());
    return out;
  }

  /**
   * The elements of a comma-separated list parameter, trimmed. An empty element, a trailing comma's included, is
   * refused: {@code sizes=8,} is a slip of the keyboard, and the sweep's lists refuse it too.
   *
   * @param name the name
   * @param defaultValue used when absent
   * @return the elements, in the given order
   * @throws IllegalArgumentException naming the parameter and its text when an element is empty
   */
  public List<String> list(String name, String defaultValue) {
    String v = values.getOrDefault(name, defaultValue);
    List<String> out = new ArrayList<>();
    for (String part : v.split(",", -1)) {
      String t = part.trim();
      if (t.isEmpty()) {
        throw new IllegalArgumentException(name + " must be a comma-separated list with no empty element but was \""
            + Texts.abbreviate(v) + "\"" + ifDefault(name));
      }
      out.add(t);
    }
    return out;
  }

  /**
   * Refuses a list whose elements repeat one another, compared by their keys (the parsed values): each element of a
   * list parameter names a result of its own, and a repeat used to be found only after the whole run, as two metrics
   * of one name.
   *
   * @param name the parameter
   * @param texts the elements as given
   * @param keys their keys, in the same order
   * @throws IllegalArgumentException naming the parameter and the first repeated element, in both its spellings when
   *     they differ ({@code sizes lists 5 twice, as "05" and "5"}), as a sweep names a value given twice
   */
  public static void refuseRepeats(String name, List<String> texts, List<?> keys) {
    Map<Object, String> seen = new HashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      String before = seen.putIfAbsent(keys.get(i), texts.get(i));
      if (before != null && before.equals(texts.get(i))) {
        throw new IllegalArgumentException(name + " lists \"" + Texts.abbreviate(texts.get(i)) + "\" twice; give each"
            + " value once");
      } else if (before != null) {
        throw new IllegalArgumentException(name + " lists " + Texts.abbreviate(String.valueOf(keys.get(i)))
            + " twice, as \"" + Texts.abbreviate(before) + "\" and \"" + Texts.abbreviate(texts.get(i))
            + "\"; give each value once");
      }
    }
  }

  /**
   * A comma-separated list of doubles.
   *
   * @param name the name
   * @param defaultValue used when absent
   * @param min smallest allowed element
   * @param max largest allowed element
   * @return the values
   */
  public double[] numberList(String name, String defaultValue, double min, double max) {
    List<String> parts = list(name, defaultValue);
    double[] out = new double[parts.size()];
    for (int i = 0; i < out.length; i++) {
      try {
        out[i] = decimal(parts.get(i));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " must be a list of numbers but had \""
            + Texts.abbreviate(parts.get(i)) + "\"", e);
      }
      if (!(out[i] >= min && out[i] <= max)) {
        throw new IllegalArgumentException(
            name + " elements must be in [" + min + ", " + max + "] but one was " + out[i] + ifDefault(name));
      }
    }
    refuseRepeats(name, parts, DoubleStream.of(out).map(x -> x + 0.0).boxed().toList()); // (-0.0 is 0.0)
    return out;
  }

  /**
   * A string parameter restricted to a set of choices.
   *
   * @param name the name
   * @param defaultValue used when absent
   * @param choices the allowed values
   * @return the value
   */
  public String choice(String name, String defaultValue, List<String> choices) {
    String v = values.getOrDefault(name, defaultValue);
    if (!choices.contains(v)) {
      throw new IllegalArgumentException(name + " must be one of " + String.join(", ", choices) + " but was \"" + v
          + "\"" + ifDefault(name));
    }
    return v;
  }

  /**
   * A string parameter restricted to a set of lower-case choices, taken in any case and with spaces around it, as the
   * placements' names are ({@code Placement.named}): {@code UNIFORM} is {@code uniform}.
   *
   * @param name the name
   * @param defaultValue used when absent
   * @param choices the allowed values, in lower case
   * @return the value, as the choices write it
   */
  public String choiceInAnyCase(String name, String defaultValue, List<String> choices) {
    String v = values.getOrDefault(name, defaultValue);
    String lower = v.trim().toLowerCase(java.util.Locale.ROOT);
    if (!choices.contains(lower)) {
      throw new IllegalArgumentException(name + " must be one of " + String.join(", ", choices) + " but was \""
          + Texts.abbreviate(v) + "\"" + ifDefault(name));
    }
    return lower;
  }

  /**
   * A comma-separated list of strings, each from a set of choices.
   *
   * @param name the name
   * @param defaultValue used when absent
   * @param choices the allowed values
   * @return the values
   */
  public List<String> choices(String name, String defaultValue, List<String> choices) {
    List<String> out = list(name, defaultValue);
    for (String t : out) {
      if (!choices.contains(t)) {
        throw new IllegalArgumentException(name + " elements must be among " + String.join(", ", choices)
            + " but one was \"" + t + "\"" + ifDefault(name));
      }
    }
    refuseRepeats(name, out, out);
    return out;
  }

  /** @param name the name @param defaultValue used when absent @return the raw string */
  public String string(String name, String defaultValue) {
    return values.getOrDefault(name, defaultValue);
  }

  /**
   * What a range or choice message adds when the value was the workload's default (which may not fit a small
   * system, or another parameter's setting): the user gave no such parameter and learns that there is one to set.
   */
  private String ifDefault(String name) {
    return values.containsKey(name) ? "" : " (the default; set " + name + "=VALUE)";
  }

  /**
   * An integer with an optional binary suffix, read by {@link ByteCount#parseCount} (a parameter may be a size or a
   * count); a leading minus sign only where the parameter's range admits negatives.
   */
  private static long parseLong(String name, String text, long min, long max) {
    String t = text.trim();
    if (t.startsWith("-")) {
      if (min >= 0) {
        throw new IllegalArgumentException(
            name + " must be in [" + min + ", " + max + "] but was " + Texts.abbreviate(t));
      }
      return -ByteCount.parseCount(name, t.substring(1));
    }
    return ByteCount.parseCount(name, t);
  }
}
