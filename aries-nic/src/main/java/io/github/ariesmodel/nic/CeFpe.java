package io.github.ariesmodel.nic;

/**
 * The floating-point exception flags of a CE result ({@code GNI_CE_FPE_*}, read with {@code GNI_CE_RES_GET_FPE}
 * [S5]), as an {@code int} bit set: {@link #INVALID}, {@link #OVERFLOW}, {@link #UNDERFLOW}, {@link #INEXACT}.
 *
 * <p>Where flags come from in the model: a channel sets them as it combines its children's contributions
 * ({@code CeAccumulator}); a child channel's intermediate result carries its flags to the parent channel in the CE
 * packet, where they are ORed into the parent's, and the root's flags come back down with the result to every
 * process's {@link CeResult}. A process's own {@link CePost} carries none: it has no {@code ce_mode} field, and the
 * engine takes every post as a contribution without flags. uGNI's post modes {@code GNI_CEMODE_FPE_OP_INVAL}
 * (1 &lt;&lt; 1), {@code _OFLOW} (1 &lt;&lt; 2), {@code _UFLOW} (1 &lt;&lt; 3) and {@code _PRECISION}
 * (1 &lt;&lt; 4) [S5], with which software that posts an intermediate result says which flags it already carries
 * (the same four flags, in the same order, one bit higher), are not modelled.
 */
public final class CeFpe {

  /**
   * {@code GNI_CE_FPE_OP_INVAL}: an invalid operation. Here: infinity minus infinity or a signalling NaN in an FPADD
   * addition (IEEE 754), or any NaN, quiet ones too, in FP min/max (the model's choice; {@code CeAccumulator}).
   */
  public static final int INVALID = 0x1;
  /** {@code GNI_CE_FPE_OFLOW}: the rounded result exceeded the largest finite double. */
  public static final int OVERFLOW = 0x2;
  /** {@code GNI_CE_FPE_UFLOW}: a tiny (subnormal) result was also inexact. */
  public static final int UNDERFLOW = 0x4;
  /** {@code GNI_CE_FPE_PRECISION}: the result was rounded (inexact). */
  public static final int INEXACT = 0x8;

  private static final int ALL = INVALID | OVERFLOW | UNDERFLOW | INEXACT;
  private static final String[] NAMES = {"invalid", "overflow", "underflow", "inexact"};

  private CeFpe() {}

  /**
   * A readable form of a flag set, for messages: the set flags' names joined by {@code |} in bit order, e.g.
   * {@code "overflow|inexact"}, or {@code "none"}. Bits outside 0xF are shown in hex, e.g. {@code "invalid|0x10"}.
   *
   * @param flags a flag set
   * @return its description
   */
  public static String describe(int flags) {
    if (flags == 0) {
      return "none";
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < NAMES.length; i++) {
      if ((flags & (1 << i)) != 0) {
        b.append(b.length() == 0 ? "" : "|").append(NAMES[i]);
      }
    }
    if ((flags & ~ALL) != 0) {
      b.append(b.length() == 0 ? "" : "|").append("0x").append(Integer.toHexString(flags & ~ALL));
    }
    return b.toString();
  }

  /**
   * Checks that a flag set uses only the four flags. Allocation-free when it passes.
   *
   * @param flags a flag set
   * @throws IllegalArgumentException if a bit outside 0xF is set
   */
  public static void check(int flags) {
    if ((flags & ~ALL) != 0) {
      throw new IllegalArgumentException("flags must be in [0x0, 0xf] (GNI_CE_FPE_* bits) but was 0x"
          + Integer.toHexString(flags));
    }
  }
}
