package io.github.ariesmodel.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Echoed user text: abbreviated, and never able to act on the terminal that shows the message. */
class TextsTest {

  @Test
  void shortPrintableTextIsItself() {
    assertThat(Texts.abbreviate("a\\b \"c\" é")).isEqualTo("a\\b \"c\" é");
    assertThat(Texts.abbreviate(null)).isEqualTo("null");
    assertThat(Texts.visible("plain")).isSameAs("plain");
  }

  @Test
  void controlAndFormatCharactersAreEscaped() {
    // ESC (a colour), BEL, NUL, a line separator and a right-to-left override: all reached the terminal raw
    String hostile = "x\u001b[31my\u0007\u0000z\u2028w\u202e";
    assertThat(Texts.abbreviate(hostile)).isEqualTo("x\\u001b[31my\\u0007\\u0000z\\u2028w\\u202e");
    assertThat(Texts.visible(hostile)).isEqualTo("x\\u001b[31my\\u0007\\u0000z\\u2028w\\u202e");
  }

  @Test
  void longTextIsCutWithItsLengthAndNoEscapeIsCut() {
    String longText = "y".repeat(200);
    assertThat(Texts.abbreviate(longText)).isEqualTo("y".repeat(79) + "… (200 characters)");
    // 76 letters and an ESC: the escape would straddle character 79, so the cut comes before it
    String escAtTheEdge = "y".repeat(76) + "\u001b" + "y".repeat(10);
    assertThat(Texts.abbreviate(escAtTheEdge)).isEqualTo("y".repeat(76) + "… (87 characters)");
    // short, but longer than the limit once escaped
    String manyEscapes = "\u0007".repeat(20);
    assertThat(Texts.abbreviate(manyEscapes)).isEqualTo("\\u0007".repeat(13) + "… (20 characters)");
  }
}
