package io.github.ariesmodel.nic;

/**
 * The 64-bit commands of the Aries NIC collective engine (CE), with their uGNI codes ({@code gni_ce_cmd_type_t},
 * [S5]). A reduction combines one contribution per child of a virtual CE channel; each contribution carries two
 * 64-bit operands.
 *
 * <ul>
 *   <li>AND, OR, XOR, IADD and FPADD are single-operand commands: they fold operand 1, and with the post mode
 *       {@code GNI_CEMODE_TWO_OP} [S5] also operand 2, element-wise.
 *   <li>The eight min/max commands are {@link #indexed() indexed}: operand 1 is the value, operand 2 its index, and
 *       the result is the winning value with its index. On equal values the {@code _LIDX} commands return the lowest
 *       index, the {@code _GIDX} commands the greatest [S5]; the model compares indices as signed 64-bit values and
 *       the FP commands compare -0.0 and +0.0 as equal, both assumed (no source says; {@code CeAccumulator}).
 *   <li>FPADD and the FP min/max commands read operand 1 (FPADD: both operands) as IEEE-754 doubles
 *       ({@link #floatingPoint()}).
 * </ul>
 *
 * <p>The short (32-bit, {@code _S}) commands, whose codes are these codes with bit 0 cleared, are not modelled:
 * {@link #ofCommand(int)} refuses them by name. The arithmetic itself is {@code CeAccumulator}'s.
 */
public enum CeOperation {
  /** {@code GNI_FMA_CE_AND}: bitwise AND. */
  AND(0x1),
  /** {@code GNI_FMA_CE_OR}: bitwise OR. */
  OR(0x3),
  /** {@code GNI_FMA_CE_XOR}: bitwise XOR. */
  XOR(0x5),
  /** {@code GNI_FMA_CE_IMIN_LIDX}: signed two's complement minimum, lowest index among equal values. */
  IMIN_LIDX(0x11),
  /** {@code GNI_FMA_CE_IMAX_LIDX}: signed two's complement maximum, lowest index among equal values. */
  IMAX_LIDX(0x13),
  /** {@code GNI_FMA_CE_IADD}: two's complement addition (wraps). */
  IADD(0x15),
  /** {@code GNI_FMA_CE_FPMIN_LIDX}: double-precision minimum, lowest index among equal values. */
  FPMIN_LIDX(0x19),
  /** {@code GNI_FMA_CE_FPMAX_LIDX}: double-precision maximum, lowest index among equal values. */
  FPMAX_LIDX(0x1b),
  /** {@code GNI_FMA_CE_FPADD}: double-precision addition, rounded as the channel is configured. */
  FPADD(0x1d),
  /** {@code GNI_FMA_CE_IMIN_GIDX}: signed two's complement minimum, greatest index among equal values. */
  IMIN_GIDX(0x31),
  /** {@code GNI_FMA_CE_IMAX_GIDX}: signed two's complement maximum, greatest index among equal values. */
  IMAX_GIDX(0x33),
  /** {@code GNI_FMA_CE_FPMIN_GIDX}: double-precision minimum, greatest index among equal values. */
  FPMIN_GIDX(0x39),
  /** {@code GNI_FMA_CE_FPMAX_GIDX}: double-precision maximum, greatest index among equal values. */
  FPMAX_GIDX(0x3b);

  private static final CeOperation[] VALUES = values();

  private final int command;

  CeOperation(int command) {
    this.command = command;
  }

  /**
   * The uGNI command code ({@code gni_ce_cmd_type_t} [S5]).
   *
   * @return the code, e.g. {@code 0x15} for IADD
   */
  public int command() {
    return command;
  }

  /**
   * Whether the operands are IEEE-754 doubles: FPADD and the four FP min/max commands.
   *
   * @return true for FPADD, FPMIN_LIDX, FPMAX_LIDX, FPMIN_GIDX and FPMAX_GIDX
   */
  public boolean floatingPoint() {
    return this == FPADD || this == FPMIN_LIDX || this == FPMAX_LIDX || this == FPMIN_GIDX || this == FPMAX_GIDX;
  }

  /**
   * Whether this is one of the eight min/max commands, which always take two operands: the value and its index.
   *
   * @return true for IMIN/IMAX/FPMIN/FPMAX with either index rule
   */
  public boolean indexed() {
    return this != AND && this != OR && this != XOR && this != IADD && this != FPADD;
  }

  /**
   * Whether equal values are resolved toward the greatest index ({@code _GIDX}) rather than the lowest.
   *
   * @return true for the four {@code _GIDX} commands
   */
  boolean greatestIndex() {
    return this == IMIN_GIDX || this == IMAX_GIDX || this == FPMIN_GIDX || this == FPMAX_GIDX;
  }

  /**
   * Whether this is a minimum (rather than a maximum) command.
   *
   * @return true for IMIN_LIDX, IMIN_GIDX, FPMIN_LIDX and FPMIN_GIDX
   */
  boolean minimum() {
    return this == IMIN_LIDX || this == IMIN_GIDX || this == FPMIN_LIDX || this == FPMIN_GIDX;
  }

  /**
   * The operation with a uGNI command code.
   *
   * @param command a 64-bit {@code gni_ce_cmd_type_t} code [S5]
   * @return the operation
   * @throws IllegalArgumentException for a short (32-bit) code, which is not modelled, or any other unknown code
   */
  public static CeOperation ofCommand(int command) {
    for (CeOperation op : VALUES) {
      if (op.command == command) {
        return op;
      }
    }
    for (CeOperation op : VALUES) {
      if ((op.command & ~1) == command) {
        throw new IllegalArgumentException("command 0x" + Integer.toHexString(command) + " is GNI_FMA_CE_" + op.name()
            + "_S: the short (32-bit) CE commands are not modelled");
      }
    }
    StringBuilder valid = new StringBuilder();
    for (CeOperation op : VALUES) {
      valid.append(valid.length() == 0 ? "" : ", ").append("0x").append(Integer.toHexString(op.command));
    }
    throw new IllegalArgumentException("command must be one of the 64-bit gni_ce_cmd_type_t values (" + valid
        + ") but was 0x" + Integer.toHexString(command));
  }
}
