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
}
