package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Locale;

/**
 * An atomic memory operation as a request names it: the arithmetic, whether the old value is returned (fetching,
 * GET semantics) or not (non-fetching, PUT semantics), and the operand width.
 *
 * <p>Command codes are uGNI's (aries-facts §5, S5): the fetching 64-bit code of {@link AmoKind}; +0x100 for
 * non-fetching; +0x200 for 32-bit ({@code _S}). Mnemonics are uGNI's too: {@code F} prefix for fetching,
 * {@code _S} suffix for 32-bit, e.g. {@code FIADD}, {@code IMAX_S}, {@code FCSWAP}. {@link #toString()} gives the
 * mnemonic and {@link #parse} reads it back.
 *
 * @param kind the arithmetic
 * @param fetching whether the old value is returned
 * @param widthBits 64 or 32
 */
public record AmoOperation(AmoKind kind, boolean fetching, int widthBits) {

  /** Validates the combination. */
  public AmoOperation {
    checkArgument(kind != null, "kind must not be null");
    checkArgument(widthBits == 64 || widthBits == 32, "widthBits must be 32 or 64 but was %s", widthBits);
    checkArgument(
        widthBits == 64 || kind.has32Bit(), "%s has no 32-bit form (use IADD for a 32-bit add)", kind);
  }

  /**
   * The operation.
   *
   * @param kind the arithmetic
   * @param fetching whether the old value is returned
   * @param widthBits 64 or 32
   * @return the operation
   */
  public static AmoOperation of(AmoKind kind, boolean fetching, int widthBits) {
    return new AmoOperation(kind, fetching, widthBits);
  }

  /**
   * Every valid operation: 13 kinds × fetching/non-fetching × 64/32 bits, less ADD's missing 32-bit forms.
   *
   * @return 50 operations
   */
  public static AmoOperation[] all() {
    java.util.List<AmoOperation> ops = new java.util.ArrayList<>();
    for (AmoKind k : AmoKind.values()) {
      for (boolean f : new boolean[] {true, false}) {
        ops.add(new AmoOperation(k, f, 64));
        if (k.has32Bit()) {
          ops.add(new AmoOperation(k, f, 32));
        }
      }
    }
    return ops.toArray(new AmoOperation[0]);
  }

  /** The uGNI command code. @return the code */
  public int code() {
    return kind.fetchingCode64() + (fetching ? 0 : 0x100) + (widthBits == 32 ? 0x200 : 0);
  }

  /**
   * The operation with a uGNI command code.
   *
   * @param code a code from {@link #code()}
   * @return the operation
   * @throws IllegalArgumentException when no operation has the code
   */
  public static AmoOperation fromCode(int code) {
    for (AmoOperation op : all()) {
      if (op.code() == code) {
        return op;
      }
    }
    throw new IllegalArgumentException("AMO command code 0x" + Integer.toHexString(code) + " is not one of the "
        + "uGNI AMO codes (e.g. 0x055 FIADD, 0x155 IADD, 0x255 FIADD_S)");
  }

  /** Operand size in bytes. @return 8 or 4 */
  public int operandBytes() {
    return widthBits / 8;
  }

  /** Bytes of operands a request carries. @return operands × operandBytes */
  public int requestOperandBytes() {
    return kind.operands() * operandBytes();
  }

  /** Bytes of data the response carries. @return operandBytes when fetching, else 0 */
  public int responseBytes() {
    return fetching ? operandBytes() : 0;
  }

  /**
   * Parses a uGNI mnemonic such as {@code FIADD}, {@code IADD_S}, {@code FAX}, {@code CSWAP}.
   *
   * @param text the mnemonic (case-insensitive)
   * @return the operation
   * @throws IllegalArgumentException quoting the text when it names no operation
   */
  public static AmoOperation parse(String text) {
    checkArgument(text != null, "AMO mnemonic must not be null");
    String t = text.trim().toUpperCase(Locale.ROOT);
    for (AmoOperation op : all()) {
      if (op.toString().equals(t)) {
        return op;
      }
    }
    throw new IllegalArgumentException(
        "AMO mnemonic must be a uGNI name such as FIADD, IADD_S, FCSWAP, AX but was \"" + text + "\"");
  }

  /** The uGNI mnemonic. */
  @Override
  public String toString() {
    return (fetching ? "F" : "") + kind.mnemonic() + (widthBits == 32 ? "_S" : "");
  }
}
