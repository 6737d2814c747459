package io.github.ariesmodel.core;

/** Small helpers for the text of error messages. */
public final class Texts {
  /** Longest user text echoed back in a message. */
  public static final int MAX_ECHO = 80;

  private Texts() {}

  /**
   * The text, cut to at most {@link #MAX_ECHO} characters with an ellipsis and the full length, so a message
   * never echoes a whole document back, and with its control characters escaped as {@link #visible} does. An escape
   * counts as the characters it takes and is never cut.
   *
   * @param text any text, or null
   * @return the text itself when short and printable, otherwise its (escaped) start and its length
   */
  public static String abbreviate(String text) {
    if (text == null) {
      return "null";
    }
    if (text.length() <= MAX_ECHO && printable(text)) {
      return text;
    }
    StringBuilder b = new StringBuilder(MAX_ECHO + 24);
    int end = Math.min(text.length(), MAX_ECHO); // each character shows as one or more: no more are needed
    for (int i = 0; i < end; i++) {
      appendVisible(b, text.charAt(i));
    }
    if (text.length() <= MAX_ECHO && b.length() <= MAX_ECHO) {
      return b.toString();
    }
    // cut at MAX_ECHO - 1 characters, back to the start of an escape that would straddle it
    int cut = 0;
    for (int i = 0, at = 0; i < end; i++) {
      at += printable(text.charAt(i)) ? 1 : ESCAPE_LENGTH;
      if (at > MAX_ECHO - 1) {
        break;
      }
      cut = at;
    }
    return b.substring(0, cut) + "… (" + text.length() + " characters)";
  }

  /** Characters a control character's escape takes ({@code \u001b}). */
  private static final int ESCAPE_LENGTH = 6;

  /**
   * The text with every character that would act on a terminal rather than show (ISO controls such as ESC, BEL and
   * NUL, line and paragraph separators, Unicode's format characters such as the bidirectional overrides) written as a
   * Java escape, {@code \u001b}: text from a user or a file, echoed in a message, cannot then move the cursor, change
   * colours, erase the line or reorder what follows it. Other text, backslashes included, is unchanged.
   *
   * @param text any text, not null
   * @return the text, escaped
   */
  public static String visible(String text) {
    if (printable(text)) {
      return text;
    }
    StringBuilder b = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      appendVisible(b, text.charAt(i));
    }
    return b.toString();
  }

  private static boolean printable(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (!printable(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean printable(char c) {
    if (Character.isISOControl(c)) {
      return false;
    }
    int type = Character.getType(c);
    return type != Character.FORMAT && type != Character.LINE_SEPARATOR && type != Character.PARAGRAPH_SEPARATOR;
  }

  private static void appendVisible(StringBuilder b, char c) {
    if (printable(c)) {
      b.append(c);
    } else {
      b.append("\\u").append(Character.forDigit(c >> 12 & 0xf, 16)).append(Character.forDigit(c >> 8 & 0xf, 16))
          .append(Character.forDigit(c >> 4 & 0xf, 16)).append(Character.forDigit(c & 0xf, 16));
    }
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
