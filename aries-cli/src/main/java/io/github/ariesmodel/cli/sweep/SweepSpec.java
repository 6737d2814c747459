package io.github.ariesmodel.cli.sweep;

import io.github.ariesmodel.core.Texts;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;
import java.util.regex.Pattern;

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
 * an integer range {@code a..b} (inclusive, {@code a <= b}) for {@code a,a+1,...,b}. A value written in square
 * brackets is one value, taken as it stands inside them, commas and {@code option=value} parts included: {@code
 * system=[canonical:p=2,a=4,h=2],[canonical:p=4,a=8,h=4]}, {@code osNoise=none,[period=1ms,detour=10us]}, and {@code
 * [1..3]} is the one value {@code 1..3}, not a range. {@link #toString()} gives the canonical form (runs of three or
 * more consecutive integers as ranges, a value in brackets where it needs them), which {@link #parse(String)} accepts.
 * Names are letters, digits, {@code . _ -}; values are non-empty and contain no {@code ;}, {@code [}, {@code ]} or
 * whitespace, and a value outside brackets no {@code ,} and no bare {@code option=value}; names and the values of one
 * parameter are distinct, a numeric parameter's as the numbers they stand for ({@code 05} is {@code 5}: see {@link
 * #refuseSameNumbers}).
 */
public final class SweepSpec {

  /**
   * Largest number of points a sweep may have. It is counted from the parameter texts before any value is made, so a
   * sweep beyond it is refused at once.
   */
  public static final int MAX_POINTS = 10_000_000;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");
  /** A value: compiled once, as a sweep of {@link #MAX_POINTS} values checks every one (String.matches compiles). */
  private static final Pattern VALUE = Pattern.compile("[^;\\s\\[\\]]+");
  /**
   * A value that is a bare {@code option=value}, such as the {@code a=4} of {@code canonical:p=2,a=4,h=2} split at
   * its commas: refused, since it is no value of its own. An {@code =} after a spec's own prefix stays allowed
   * ({@code aries:groups=9}, {@code edison-cabled+failed=random:24:blue:seed=2}).
   */
  private static final Pattern BARE_OPTION = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*=.*");

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
      checkName(name);
      if (!(values instanceof ParsedValues)) { // (those were checked as they were parsed, ranges unmade)
        values = List.copyOf(values);
        if (values.isEmpty()) {
          throw new IllegalArgumentException("parameter " + name + " must have at least one value");
        }
        Set<String> seen = new HashSet<>();
        Map<Long, String> numbers = new HashMap<>();
        for (String v : values) {
          checkValue(name, v, true); // (the text form brackets what needs it)
          if (!seen.add(v)) {
            throw twice(name, v);
          }
          refuseSameNumber(name, numbers, v);
        }
        refuseSameNumbers(name, values, new long[0], new long[0]);
        refuseSameNames(name, values);
      }
    }
  }

  private static void checkName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "parameter name must be letters, digits, '.', '_' or '-' but was \"" + Texts.abbreviate(name) + "\"");
    }
  }

  /**
   * Refuses a malformed value.
   *
   * @param bracketed whether the value stood in brackets (or is given as a value, not as text): it may then hold
   *     commas and be an {@code option=value}
   */
  private static void checkValue(String name, String v, boolean bracketed) {
    if (v.isEmpty() || !VALUE.matcher(v).matches()) {
      throw new IllegalArgumentException("values of parameter " + name
          + " must be non-empty without ';', '[', ']' or whitespace but one was \"" + v + "\"");
    }
    if (bracketed) {
      return;
    }
    boolean bare = BARE_OPTION.matcher(v).matches();
    if (v.indexOf(',') >= 0 || bare) {
      throw new IllegalArgumentException("a value of parameter " + name + " with commas or options of its own must"
          + " stand in brackets, e.g. [canonical:p=2,a=4,h=2] or [period=1ms,detour=10us], but one was \"" + v + "\""
          + (bare ? " (a bare option=value: most likely part of such a value split at its commas)" : ""));
    }
  }

  /**
   * Splits a parameter's value text at the commas outside brackets, each part trimmed; a part in brackets keeps them.
   *
   * @throws IllegalArgumentException naming the parameter when brackets do not pair up or a part has text outside its
   *     brackets
   */
  private static List<String> splitValues(String name, String text) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    int open = -1;
    for (int i = 0; i <= text.length(); i++) {
      char c = i < text.length() ? text.charAt(i) : ',';
      if (c == '[') {
        if (open >= 0) {
          throw new IllegalArgumentException("values of parameter " + name + " cannot nest brackets but had \""
              + text.substring(open) + "\"");
        }
        open = i;
      } else if (c == ']') {
        if (open < 0) {
          throw new IllegalArgumentException("values of parameter " + name + " have a ']' without its '[' in \""
              + text + "\"");
        }
        open = -1;
      } else if (c == ',' && (open < 0 || i == text.length())) {
        if (open >= 0) {
          throw new IllegalArgumentException("values of parameter " + name + " have a '[' without its ']' in \""
              + text + "\"");
        }
        String part = text.substring(start, i).trim();
        int b = part.indexOf('[');
        if (b >= 0 && (b != 0 || part.indexOf(']') != part.length() - 1)) {
          throw new IllegalArgumentException("a value of parameter " + name + " in brackets must be the whole value"
              + " ([...]) but one was \"" + part + "\"");
        }
        parts.add(part);
        start = i + 1;
      }
    }
    return parts;
  }

  /** @return whether a value text stands in brackets */
  private static boolean bracketed(String v) {
    return v.length() >= 2 && v.charAt(0) == '[';
  }

  private static IllegalArgumentException twice(String name, String v) {
    return new IllegalArgumentException("parameter " + name + " lists value \"" + v + "\" twice");
  }

  /**
   * Refuses a count written with a binary suffix that is a value before it written out, or the other way round
   * ({@code 4K} and {@code 4096}, {@code 1k} and {@code 1K}): every workload reads both alike
   * ({@code ByteCount.parseCount}), so the sweep ran one point twice and its merge had two rows of the same coordinates
   * ({@link SweepMerge#wholeNumber} types them alike). A numeric parameter's other values are compared by {@link
   * #refuseSameNumbers}.
   *
   * @param numbers the counts among the values before, as {@link Long#toString} writes them, with their texts (added
   *     to)
   */
  private static void refuseSameNumber(String name, Map<Long, String> numbers, String v) {
    Long x = count(v);
    String before = x == null ? null : numbers.putIfAbsent(x, v);
    if (before != null) {
      throw sameNumber(name, before, v, x);
    }
  }

  /** A count with a binary suffix, or an integer as {@link Long#toString} writes it: its value; else null. */
  private static Long count(String v) {
    return SUFFIXED.matcher(v).matches() ? SweepMerge.wholeNumber(v) : integer(v);
  }

  /** A count with a binary suffix, as the workloads' sizes and counts take it ({@code 4K}, {@code 1MB}). */
  private static final Pattern SUFFIXED = Pattern.compile("\\d{1,19}[kKmMgGtT][bB]?");

  /**
   * Refuses two values of {@code system} or {@code routing} that name one preset or routing in two cases ({@code
   * routing=minimal,MINIMAL}): a run reads both alike
   * ({@link io.github.ariesmodel.cli.system.SystemSpec#canonicalRouting}), so the sweep ran one point twice (until
   * stop 75).
   */
  private static void refuseSameNames(String name, List<String> values) {
    if (!name.equals("system") && !name.equals("routing")) {
      return;
    }
    Map<String, String> seen = new HashMap<>();
    for (String v : values) {
      String key = name.equals("system") ? io.github.ariesmodel.cli.system.SystemSpec.canonicalSystem(v)
          : io.github.ariesmodel.cli.system.SystemSpec.canonicalRouting(v);
      String before = seen.putIfAbsent(key, v);
      if (before != null) {
        throw new IllegalArgumentException("parameter " + name + " lists " + Texts.abbreviate(key) + " twice, as \""
            + Texts.abbreviate(before) + "\" and \"" + Texts.abbreviate(v) + "\"; give each value once");
      }
    }
  }

  private static IllegalArgumentException sameNumber(String name, String before, String v, Object x) {
    return new IllegalArgumentException("parameter " + name + " lists " + Texts.abbreviate(String.valueOf(x))
        + " twice, as \"" + Texts.abbreviate(before) + "\" and \"" + Texts.abbreviate(v) + "\"; give each value once");
  }

  /** A whole number as the workloads read sizes, counts and seeds: a sign, digits, a binary suffix or a {@code B}. */
  private static final Pattern WHOLE = Pattern.compile("([+-]?)(\\d+)([kKmMgGtT]?)[bB]?");
  /**
   * A number as the workloads read rates and loads ({@link io.github.ariesmodel.cli.workload.Params#decimal}) and
   * merge types a column number (merge's test is {@link #decimal}).
   */
  private static final Pattern DECIMAL = io.github.ariesmodel.cli.workload.Params.DECIMAL;

  /**
   * Refuses two values of a numeric parameter that are one number (or one list of numbers) written two ways: {@code
   * 05} and {@code 5}, {@code 0.5} and {@code 0.50}, {@code [8,64]} and {@code [8,064]}. A workload reads both alike,
   * so the sweep ran one point twice (and a merge typed the column as numbers, two rows of the same coordinates). A
   * parameter is numeric when every value is a whole number (sign, digits, a binary suffix: compared exactly) or every
   * value is a number (compared as the doubles the workloads read); a value with commas is a list of such elements. A
   * parameter with any other value (a path, a name) is compared as text, so {@code trace=run05,run5} stays two
   * values. The values keep their texts: the points and their files are those of before.
   *
   * @param literals the values other than ranges' (the Parameter's values, or a parse's literals)
   * @param firsts the ranges' first values (integers)
   * @param lasts the ranges' last values, in the same order
   */
  private static void refuseSameNumbers(String name, List<String> literals, long[] firsts, long[] lasts) {
    if (literals.size() + firsts.length < 2) {
      return;
    }
    for (boolean whole : new boolean[] {true, false}) {
      List<List<Object>> keys = new ArrayList<>(literals.size());
      for (String v : literals) {
        List<Object> key = numbers(v, whole);
        if (key == null) {
          break;
        }
        keys.add(key);
      }
      if (keys.size() < literals.size()) {
        continue; // not every value is such a number (or list of them): try the next reading, else text
      }
      Map<List<Object>, String> seen = new HashMap<>();
      for (int i = 0; i < keys.size(); i++) {
        List<Object> key = keys.get(i);
        String before = seen.putIfAbsent(key, literals.get(i));
        if (before != null) {
          throw sameNumber(name, before, literals.get(i), display(key));
        }
        Long inRange = key.size() == 1 ? inRanges(key.get(0), firsts, lasts) : null;
        if (inRange != null) {
          throw sameNumber(name, Long.toString(inRange), literals.get(i), inRange);
        }
      }
      return;
    }
  }

  /**
   * A value as the list of numbers a workload reads from it (one element unless it has commas), read as whole numbers
   * or as doubles; null when an element is not such a number.
   */
  private static List<Object> numbers(String v, boolean whole) {
    List<Object> key = new ArrayList<>(1);
    int start = 0;
    while (start <= v.length()) {
      int comma = v.indexOf(',', start);
      int end = comma < 0 ? v.length() : comma;
      Object x = whole ? wholeNumber(v.substring(start, end)) : decimal(v.substring(start, end));
      if (x == null) {
        return null;
      }
      key.add(x);
      start = end + 1;
    }
    return key;
  }

  /** A whole number's value (a binary suffix multiplies it), exactly; null when the text is not one. */
  private static java.math.BigInteger wholeNumber(String t) {
    java.util.regex.Matcher m = WHOLE.matcher(t);
    if (!m.matches()) {
      return null;
    }
    int shift = switch (m.group(3)) {
      case "k", "K" -> 10;
      case "m", "M" -> 20;
      case "g", "G" -> 30;
      case "t", "T" -> 40;
      default -> 0;
    };
    java.math.BigInteger x = new java.math.BigInteger(m.group(2)).shiftLeft(shift);
    return m.group(1).equals("-") ? x.negate() : x;
  }

  /** A number as a workload reads it ({@code -0.0} is {@code 0.0}); null when the text is not a finite number. */
  static Double decimal(String t) {
    if (!DECIMAL.matcher(t).matches()) {
      return null;
    }
    double x = Double.parseDouble(t);
    return Double.isFinite(x) ? x + 0.0 : null; // (+ 0.0: -0.0 becomes 0.0)
  }

  /** A one-number key's value when it lies in one of the (integer) ranges, as the range writes it; else null. */
  private static Long inRanges(Object x, long[] firsts, long[] lasts) {
    for (int r = 0; r < firsts.length; r++) {
      if (x instanceof java.math.BigInteger b) {
        if (b.compareTo(java.math.BigInteger.valueOf(firsts[r])) >= 0
            && b.compareTo(java.math.BigInteger.valueOf(lasts[r])) <= 0) {
          return b.longValueExact();
        }
      } else if (x instanceof Double d && d == Math.rint(d) && d >= firsts[r] && d <= lasts[r]) {
        return Math.max(firsts[r], Math.min(lasts[r], d.longValue()));
      }
    }
    return null;
  }

  /** A key as a message names it: its number, or its numbers separated by commas. */
  private static String display(List<Object> key) {
    StringBuilder b = new StringBuilder();
    for (Object x : key) {
      b.append(b.length() == 0 ? "" : ",").append(x);
    }
    return b.toString();
  }

  /**
   * A parameter's values as {@link #parse} reads them: literal values and integer ranges {@code a..b}, a range
   * standing for its values without making them. Making and checking the ten million strings of {@code
   * seed=1..10000000} took several seconds before a sweep's first point could be checked; a value is now made when it
   * is read. Immutable, and checked as it is built (each literal as {@link Parameter} checks a value, and no value
   * twice: literal against literal, a literal against the ranges, range against range), so {@link Parameter} takes
   * it as it is.
   */
  private static final class ParsedValues extends AbstractList<String> implements RandomAccess {
    /** Per part: its literal value, or null for a range. */
    private final String[] literals;
    /** Per part: a range's first value. */
    private final long[] firsts;
    /** Per part, the index of its first value; the last entry is the size. */
    private final int[] starts;

    private ParsedValues(String[] literals, long[] firsts, int[] starts) {
      this.literals = literals;
      this.firsts = firsts;
      this.starts = starts;
    }

    /**
     * @param name the parameter
     * @param parts its value texts, trimmed, with at most {@link #MAX_POINTS} values in all (counted before)
     * @throws IllegalArgumentException naming the parameter and the value when a value is malformed or repeats
     */
    static ParsedValues of(String name, List<String> parts) {
      String[] literals = new String[parts.size()];
      long[] firsts = new long[parts.size()];
      long[] lasts = new long[parts.size()];
      int[] starts = new int[parts.size() + 1];
      Set<String> seen = new java.util.LinkedHashSet<>();
      Map<Long, String> numbers = new HashMap<>();
      List<Integer> ranges = new ArrayList<>();
      for (int k = 0; k < literals.length; k++) {
        String v = parts.get(k);
        boolean inBrackets = bracketed(v);
        long[] r = inBrackets ? null : range(name, v);
        if (r == null) {
          v = inBrackets ? v.substring(1, v.length() - 1).trim() : v;
          checkValue(name, v, inBrackets);
          if (!seen.add(v)) {
            throw twice(name, v);
          }
          refuseSameNumber(name, numbers, v);
          literals[k] = v;
          starts[k + 1] = starts[k] + 1;
        } else {
          firsts[k] = r[0];
          lasts[k] = r[1];
          starts[k + 1] = Math.toIntExact(starts[k] + (r[1] - r[0] + 1));
          for (int j : ranges) { // two ranges that overlap: their first common value repeats
            long common = Math.max(firsts[j], r[0]);
            if (common <= Math.min(lasts[j], r[1])) {
              throw twice(name, Long.toString(common));
            }
          }
          ranges.add(k);
        }
      }
      for (String v : seen) { // a literal that is one of a range's values, as the range writes it or otherwise
        Long x = count(v);
        for (int j = 0; x != null && j < ranges.size(); j++) {
          int r = ranges.get(j);
          if (x >= firsts[r] && x <= lasts[r]) {
            throw integer(v) != null ? twice(name, v) : sameNumber(name, Long.toString(x), v, x);
          }
        }
      }
      long[] rangeFirsts = new long[ranges.size()];
      long[] rangeLasts = new long[ranges.size()];
      for (int j = 0; j < ranges.size(); j++) {
        rangeFirsts[j] = firsts[ranges.get(j)];
        rangeLasts[j] = lasts[ranges.get(j)];
      }
      refuseSameNumbers(name, new ArrayList<>(seen), rangeFirsts, rangeLasts);
      refuseSameNames(name, new ArrayList<>(seen));
      return new ParsedValues(literals, firsts, starts);
    }

    @Override
    public String get(int i) {
      Objects.checkIndex(i, size());
      int k = Arrays.binarySearch(starts, i); // (starts rise strictly: every part has a value)
      k = k >= 0 ? k : -k - 2;
      return literals[k] != null ? literals[k] : Long.toString(firsts[k] + (i - starts[k]));
    }

    @Override
    public int size() {
      return starts[starts.length - 1];
    }
  }

  private final List<Parameter> parameters;
  /** {@link #toString()}, made on first use (the spec is immutable; a benign race at worst makes it twice). */
  private String text;
  private final int size;

  private SweepSpec(List<Parameter> parameters) {
    this.parameters = List.copyOf(parameters);
    if (this.parameters.isEmpty()) {
      throw new IllegalArgumentException("a sweep must have at least one parameter");
    }
    Set<String> names = new HashSet<>();
    List<String> counted = new ArrayList<>();
    long[] counts = new long[this.parameters.size()];
    for (int k = 0; k < counts.length; k++) {
      Parameter p = this.parameters.get(k);
      if (!names.add(p.name())) {
        throw new IllegalArgumentException("parameter " + p.name() + " is given twice");
      }
      counted.add(p.name());
      counts[k] = p.values().size();
    }
    this.size = (int) checkSize(counted, counts);
  }

  /**
   * The number of points of parameters with these numbers of values, refused above {@link #MAX_POINTS}.
   *
   * @param names the parameters' names
   * @param counts their numbers of values, each at least 1
   * @return the product
   * @throws IllegalArgumentException naming each parameter's count when the product is above {@link #MAX_POINTS}
   */
  private static long checkSize(List<String> names, long[] counts) {
    long n = 1;
    for (long c : counts) {
      n = c > MAX_POINTS || n * c > MAX_POINTS ? MAX_POINTS + 1L : n * c; // (n, c <= MAX_POINTS: no overflow)
    }
    if (n > MAX_POINTS) {
      StringBuilder each = new StringBuilder();
      for (int k = 0; k < counts.length; k++) {
        each.append(k == 0 ? "" : ", ").append(names.get(k)).append(": ").append(counts[k]);
      }
      throw new IllegalArgumentException("a sweep must have at most " + MAX_POINTS + " points but has more (values"
          + " per parameter: " + each + ")");
    }
    return n;
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
    List<String> names = new ArrayList<>();
    List<String[]> texts = new ArrayList<>();
    for (String raw : parameterTexts) {
      String p = raw.trim();
      int eq = p.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("a sweep parameter must be name=v1,v2,... but was \"" + raw + "\"");
      }
      names.add(p.substring(0, eq).trim());
      texts.add(splitValues(p.substring(0, eq).trim(), p.substring(eq + 1)).toArray(new String[0]));
    }
    // counted before any value is made: a sweep of too many points was refused only after making its values (a range
    // of ten million takes seconds), and its message printed them all
    long[] counts = new long[texts.size()];
    for (int k = 0; k < counts.length; k++) {
      for (String v : texts.get(k)) {
        counts[k] = Math.min(MAX_POINTS + 1L, counts[k] + count(names.get(k), v.trim()));
      }
    }
    checkSize(names, counts);
    List<Parameter> params = new ArrayList<>();
    for (int k = 0; k < counts.length; k++) {
      checkName(names.get(k));
      List<String> parts = new ArrayList<>();
      for (String v : texts.get(k)) {
        parts.add(v.trim());
      }
      params.add(new Parameter(names.get(k), ParsedValues.of(names.get(k), parts)));
    }
    return new SweepSpec(params);
  }

  /** The number of values a value text stands for: a range's, else 1. */
  private static long count(String name, String v) {
    long[] r = bracketed(v) ? null : range(name, v);
    return r == null ? 1 : r[1] - r[0] + 1;
  }

  /** What comes before a range's dots: an integer. */
  private static final java.util.regex.Pattern RANGE_START = java.util.regex.Pattern.compile("[+-]?[0-9]+");

  /**
   * The bounds of a range value {@code a..b}, or null when the value is not a range. A value is a range when an
   * integer comes before its first {@code ..}; any other value is a literal, so a path such as {@code
   * ../traces/x.meta} or {@code a/../b} is one value (such a path was refused as a malformed range).
   *
   * @throws IllegalArgumentException when it is a range that is malformed or has more than {@link #MAX_POINTS} values
   */
  private static long[] range(String name, String v) {
    int dots = v.indexOf("..");
    if (dots < 0 || !RANGE_START.matcher(v.substring(0, dots)).matches()) {
      return null;
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
    return new long[] {a, b};
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
   * The points of one shard, in index order: a list that makes each point when it is read, so that a sweep of
   * millions of points checks (and fails at) its first point at once rather than after making them all (10^7 points
   * took about half a minute).
   *
   * @param shard the shard ({@link Shard#ALL} for every point)
   * @return the points, unmodifiable
   */
  public List<SweepPoint> points(Shard shard) {
    // long: index + count overflows an int for a shard count near Integer.MAX_VALUE
    int n = shard.index() >= size ? 0 : (int) ((size - 1L - shard.index()) / shard.count() + 1);
    return new ShardPoints(n, shard);
  }

  /** The points of one shard, each made from its index as it is read. */
  private final class ShardPoints extends AbstractList<SweepPoint> implements RandomAccess {
    private final int n;
    private final Shard shard;

    ShardPoints(int n, Shard shard) {
      this.n = n;
      this.shard = shard;
    }

    @Override
    public SweepPoint get(int k) {
      Objects.checkIndex(k, n);
      return point((int) (shard.index() + (long) k * shard.count()));
    }

    @Override
    public int size() {
      return n;
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SweepSpec s && parameters.equals(s.parameters);
  }

  @Override
  public int hashCode() {
    return parameters.hashCode();
  }

  /**
   * The canonical text form, e.g. {@code load=0.1,0.2;seed=1..1000}: each parameter's values in order, a run of three
   * or more consecutive integers (each written as {@link Long#toString} writes it) as {@code a..b}, which {@link
   * #parse} reads back to the same values. Every point's results file records it: written out, a range of a million
   * seeds made each point file megabytes long and each point build the text again (stop 48).
   *
   * @return the canonical text form, made once
   */
  @Override
  public String toString() {
    String t = text;
    if (t == null) {
      StringBuilder b = new StringBuilder();
      for (Parameter p : parameters) {
        if (b.length() > 0) {
          b.append(';');
        }
        b.append(p.name()).append('=');
        appendValues(b, p.values());
      }
      t = b.toString();
      text = t;
    }
    return t;
  }

  /** Appends values separated by commas, runs of three or more consecutive integers as {@code a..b}. */
  private static void appendValues(StringBuilder b, List<String> values) {
    int n = values.size();
    int i = 0;
    while (i < n) {
      String v = values.get(i);
      int j = i;
      Long first = integer(v);
      if (first != null) {
        long last = first;
        while (j + 1 < n && last != Long.MAX_VALUE && Long.valueOf(last + 1).equals(integer(values.get(j + 1)))) {
          j++;
          last++;
        }
      }
      if (i > 0) {
        b.append(',');
      }
      if (j - i >= 2) {
        b.append(v).append("..").append(values.get(j));
      } else {
        b.append(valueText(v));
        for (int k = i + 1; k <= j; k++) {
          b.append(',').append(valueText(values.get(k)));
        }
      }
      i = j + 1;
    }
  }

  /** A value as the text form writes it: in brackets when it holds a comma, is an option=value or reads as a range. */
  private static String valueText(String v) {
    int dots = v.indexOf("..");
    boolean range = dots >= 0 && RANGE_START.matcher(v.substring(0, dots)).matches();
    return v.indexOf(',') >= 0 || BARE_OPTION.matcher(v).matches() || range ? "[" + v + "]" : v;
  }

  /**
   * @return the value as a long when it is one written as {@link Long#toString} writes it (as a range writes its
   *     values), else null
   */
  private static Long integer(String v) {
    int len = v.length();
    if (len == 0 || len > 20) {
      return null;
    }
    for (int k = v.charAt(0) == '-' ? 1 : 0; k < len; k++) {
      char c = v.charAt(k);
      if (c < '0' || c > '9') {
        return null;
      }
    }
    try {
      long x = Long.parseLong(v);
      return Long.toString(x).equals(v) ? x : null;
    } catch (NumberFormatException e) {
      return null; // beyond a long, or a lone "-"
    }
  }
}
