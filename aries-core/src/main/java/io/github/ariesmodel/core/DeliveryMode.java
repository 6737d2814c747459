package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Locale;

/**
 * The routing (delivery) mode a request carries, from the 3-bit {@code rc} field of Aries packets and descriptors
 * and uGNI's {@code GNI_DLVMODE_*} flags (aries-facts §2, §5; S5, S6a, S7, S9).
 */
public enum DeliveryMode {
  /** Adaptive, no bias toward minimal ({@code ADAPTIVE0}, uGNI {@code PERFORMANCE}). The default. */
  ADAPTIVE_0(0x0000),
  /** Adaptive with a bias toward minimal that grows at every hop ({@code ADAPTIVE1}). */
  ADAPTIVE_1(0x0020),
  /** Adaptive with a small fixed bias toward minimal ({@code ADAPTIVE2}). */
  ADAPTIVE_2(0x0040),
  /** Adaptive with a large fixed bias toward minimal ({@code ADAPTIVE3}). */
  ADAPTIVE_3(0x0080),
  /** Deterministic minimal, path chosen by a hash of the flow ({@code MIN_HASH}). */
  MIN_HASH(0x0010),
  /** Deterministic non-minimal, intermediate chosen by a hash ({@code NMIN_HASH}). */
  NMIN_HASH(0x0008),
  /** Minimal, not hashed: one path per source/destination pair, so delivery is in order ({@code IN_ORDER}). */
  IN_ORDER(0x0003);

  private final int gniCode;

  DeliveryMode(int gniCode) {
    this.gniCode = gniCode;
  }

  /** The uGNI {@code GNI_DLVMODE_*} value. @return the flag value */
  public int gniCode() {
    return gniCode;
  }

  /** Whether the mode keeps packets of one source/destination pair in order. @return true for IN_ORDER */
  public boolean inOrder() {
    return this == IN_ORDER;
  }

  /** Whether the mode adapts to congestion. @return true for ADAPTIVE_0..3 */
  public boolean adaptive() {
    return ordinal() <= ADAPTIVE_3.ordinal();
  }

  /**
   * Parses a name such as {@code adaptive0}, {@code ADAPTIVE_0}, {@code min-hash} or {@code in-order}.
   *
   * @param text the text
   * @return the mode
   * @throws IllegalArgumentException listing the valid names when the text is none of them
   */
  public static DeliveryMode parse(String text) {
    checkArgument(text != null, "delivery mode must not be null");
    String norm = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    if (norm.matches("ADAPTIVE[0-3]")) {
      norm = "ADAPTIVE_" + norm.charAt(8);
    }
    for (DeliveryMode m : values()) {
      if (m.name().equals(norm)) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "delivery mode must be one of adaptive0..adaptive3, min-hash, nmin-hash, in-order but was \"" + text + "\"");
  }
}
