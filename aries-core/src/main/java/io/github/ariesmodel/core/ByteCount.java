package io.github.ariesmodel.core;

import java.util.Locale;

/**
 * Byte counts written with binary suffixes: {@code 4096}, {@code 64K}, {@code 2M}, {@code 1G}, {@code 1T},
 * optionally followed by {@code B} ({@code 64KB}), case-insensitive. The one parser of sizes in the project:
 * page sizes, region sizes, workload parameters and CLI options all read sizes through it, so they accept
 * the same text. Counts written the same way ({@code 64K} iterations) go through {@link #parseCount}, whose errors
 * do not call them bytes.
 *
 * <p>Only ASCII digits are accepted; no sign, no spaces inside, no fractions. The result is checked for
 * overflow.
 */
public final class ByteCount {
  private ByteCount() {}

  /**
   * Parses a non-negative byte count.
   *
   * @param parameter the name of what is being parsed, used in the error message
   * @param text the text
   * @return the number of bytes, ≥ 0
   * @throws IllegalArgumentException naming {@code parameter}, the accepted form and the text
   */
  public static long parse(String parameter, String text) {
    return parse(parameter, text, Noun.BYTES);
  }

  /**
   * Parses a non-negative count of things other than bytes (iterations, translations, processes) in the same
   * notation, so that {@code 64K} is 65,536 of them; the error message speaks of a whole number, not of bytes.
   *
   * @param parameter the name of what is being parsed, used in the error message
   * @param text the text
   * @return the count, ≥ 0
   * @throws IllegalArgumentException naming {@code parameter}, the accepted form and the text
   */
  public static long parseCount(String parameter, String text) {
    return parse(parameter, text, Noun.COUNT);
  }

  /** What a parsed number is called in an error: the accepted form, and the unit after a bound. */
  private enum Noun {
    BYTES("a byte count like 4096, 64K, 2M or 1G", " bytes"),
    COUNT("a whole number like 100, 64K or 2M (K, M, G and T multiply by 2^10, 2^20, 2^30 and 2^40)", "");

    final String form;
    final String unit;

    Noun(String form, String unit) {
      this.form = form;
      this.unit = unit;
    }
  }

  private static long parse(String parameter, String text, Noun what) {
    if (text == null) {
      throw new IllegalArgumentException(parameter + " must be " + what.form + " but was null");
    }
    String t = text.trim().toUpperCase(Locale.ROOT);
    if (t.endsWith("B")) {
      t = t.substring(0, t.length() - 1);
    }
    int shift = 0;
    if (!t.isEmpty()) {
      switch (t.charAt(t.length() - 1)) {
        case 'K' -> shift = 10;
        case 'M' -> shift = 20;
        case 'G' -> shift = 30;
        case 'T' -> shift = 40;
        default -> shift = 0;
      }
    }
    if (shift != 0) {
      t = t.substring(0, t.length() - 1);
    }
    if (t.isEmpty() || t.length() > 19 || !t.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw bad(parameter, text, what);
    }
    long v;
    try {
      v = Long.parseLong(t);
    } catch (NumberFormatException e) {
      throw bad(parameter, text, what);
    }
    if (v > (Long.MAX_VALUE >> shift)) {
      throw new IllegalArgumentException(
          parameter + " must be at most " + format(Long.MAX_VALUE) + what.unit + " but was " + Texts.abbreviate(text));
    }
    return v << shift;
  }

  /**
   * The shortest exact text for a byte count: {@code 4K}, {@code 2M}, {@code 1536}.
   *
   * @param bytes a count ≥ 0
   * @return text that {@link #parse} reads back to {@code bytes}
   */
  public static String format(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must be >= 0 but was " + bytes);
    }
    String[] units = {"T", "G", "M", "K"};
    int[] shifts = {40, 30, 20, 10};
    for (int i = 0; i < units.length; i++) {
      long unit = 1L << shifts[i];
      if (bytes != 0 && bytes % unit == 0) {
        return (bytes >>> shifts[i]) + units[i];
      }
    }
    return Long.toString(bytes);
  }

  private static IllegalArgumentException bad(String parameter, String text, Noun what) {
    return new IllegalArgumentException(
        parameter + " must be " + what.form + " but was \"" + Texts.abbreviate(text) + "\"");
  }
}
