package io.github.ariesmodel.core;

/** Small helpers for the text of error messages. */
public final class Texts {
  /** Longest user text echoed back in a message. */
  public static final int MAX_ECHO = 80;

  private Texts() {}

  /**
   * The text, cut to at most {@link #MAX_ECHO} characters with an ellipsis and the full length, so a message
   * never echoes a whole document back.
   *
   * @param text any text, or null
   * @return the text itself when short, otherwise its start and its length
   */
  public static String abbreviate(String text) {
    if (text == null) {
      return "null";
    }
    if (text.length() <= MAX_ECHO) {
      return text;
    }
    return text.substring(0, MAX_ECHO - 1) + "… (" + text.length() + " characters)";
  }

  /**
   * The value of {@code 0x} and 1 to {@code maxDigits} hex digits (at most 16, so it fits an unsigned long): the
   * address types' text form. Only ASCII hex digits are taken ({@code Long.parseUnsignedLong} alone took "0x+1"
   * and fullwidth digits).
   *
   * @param text the text, not null
   * @param maxDigits the most digits, 1 to 16
   * @param what what the text names, for the message ("virtual address")
   * @return the value, unsigned
   * @throws IllegalArgumentException quoting the text when it is not of that form
   */
  static long parseHex(String text, int maxDigits, String what) {
    int n = text.length() - 2;
    if (!text.startsWith("0x") || n < 1 || n > maxDigits
        || !text.chars().skip(2).allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
      throw new IllegalArgumentException(what + " must be 0x followed by 1 to " + maxDigits + " hex digits but was \""
          + abbreviate(text) + "\"");
    }
    return Long.parseUnsignedLong(text, 2, text.length(), 16);
  }
}
