package io.github.ariesmodel.nic;

/**
 * The rounding mode of a virtual CE channel, chosen when the channel is configured ({@code GNI_CeConfigure}'s
 * {@code GNI_CE_MODE_ROUND_*} bits, exactly one of which is set [S5]). It applies to FPADD; the other CE commands
 * are exact.
 */
public enum CeRounding {
  /** {@code GNI_CE_MODE_ROUND_UP}: toward +infinity. */
  UP(0x1),
  /** {@code GNI_CE_MODE_ROUND_DOWN}: toward -infinity. */
  DOWN(0x2),
  /** {@code GNI_CE_MODE_ROUND_NEAR}: to nearest, ties to even (what Java's {@code +} does). */
  NEAREST(0x4),
  /** {@code GNI_CE_MODE_ROUND_ZERO}: toward zero (truncation). */
  TOWARD_ZERO(0x8);

  private static final CeRounding[] VALUES = values();

  private final int mode;

  CeRounding(int mode) {
    this.mode = mode;
  }

  /**
   * The uGNI mode bit ({@code GNI_CE_MODE_ROUND_*} [S5]).
   *
   * @return 0x1, 0x2, 0x4 or 0x8
   */
  public int mode() {
    return mode;
  }

  /**
   * The rounding with a uGNI mode bit.
   *
   * @param mode one of {@code GNI_CE_MODE_ROUND_UP} 0x1, {@code _DOWN} 0x2, {@code _NEAR} 0x4, {@code _ZERO} 0x8
   * @return the rounding
   * @throws IllegalArgumentException for any other value (including a combination of bits)
   */
  public static CeRounding ofMode(int mode) {
    for (CeRounding r : VALUES) {
      if (r.mode == mode) {
        return r;
      }
    }
    throw new IllegalArgumentException("mode must be one of GNI_CE_MODE_ROUND_UP 0x1, _DOWN 0x2, _NEAR 0x4, _ZERO 0x8"
        + " but was 0x" + Integer.toHexString(mode));
  }
}
