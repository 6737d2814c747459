package io.github.ariesmodel.core;

/**
 * The arithmetic of an Aries atomic memory operation, independent of width and of whether the old value is
 * returned. The set is uGNI's {@code gni_fma_cmd_type_t} (aries-facts §5, S5): first-generation ADD and the
 * second-generation logical, swap, integer and floating-point operations. The NIC's AMO unit gives them their exact
 * semantics; this type only names them.
 */
public enum AmoKind {
  /** Two's-complement add (first-generation {@code ADD}, 64-bit only). */
  ADD(0x008, 1, false),
  /** Bitwise AND. */
  AND(0x041, 1, true),
  /** Bitwise OR. */
  OR(0x043, 1, true),
  /** Bitwise XOR. */
  XOR(0x045, 1, true),
  /** Unconditional swap: the new value is the operand. */
  SWAP(0x047, 1, true),
  /** AND then XOR: {@code (old & first) ^ second} ({@code AX}). */
  AND_XOR(0x049, 2, true),
  /** Compare and swap: if {@code old == first} the new value is {@code second}. */
  CSWAP(0x04B, 2, true),
  /** Signed integer minimum. */
  IMIN(0x051, 1, true),
  /** Signed integer maximum. */
  IMAX(0x053, 1, true),
  /** Two's-complement add (second-generation {@code IADD}). */
  IADD(0x055, 1, true),
  /** IEEE-754 minimum (double for 64-bit, float for 32-bit). */
  FPMIN(0x059, 1, true),
  /** IEEE-754 maximum. */
  FPMAX(0x05B, 1, true),
  /**
   * IEEE-754 add. The 64-bit (double) form is one that two libraries that run on Aries leave unused as "broken"
   * (libfabric's gni provider and GASNet's aries-conduit; aries-facts §3.3, S24, S25), without saying how; the model
   * computes IEEE-754 addition for it as for the 32-bit form (assumed).
   */
  FPADD(0x05D, 1, true);

  private final int fetchingCode64;
  private final int operands;
  private final boolean has32Bit;

  AmoKind(int fetchingCode64, int operands, boolean has32Bit) {
    this.fetchingCode64 = fetchingCode64;
    this.operands = operands;
    this.has32Bit = has32Bit;
  }

  /**
   * What a cached form ({@code _C}, {@code _SC}) adds to the uncached command code in {@code gni_pub.h}.
   *
   * @return 0x10 for first-generation ADD (FADD 0x008, FADD_C 0x018), 0x20 for the second generation (FIADD 0x055,
   *     FIADD_C 0x075)
   */
  public int cachedOffset() {
    return this == ADD ? 0x10 : 0x20;
  }

  /** The uGNI command code of the fetching 64-bit uncached form. @return e.g. 0x055 for FIADD */
  public int fetchingCode64() {
    return fetchingCode64;
  }

  /** Operands the operation takes. @return 2 for CSWAP and AND_XOR, else 1 */
  public int operands() {
    return operands;
  }

  /** Whether a 32-bit ({@code _S}) form exists. @return false only for first-generation ADD */
  public boolean has32Bit() {
    return has32Bit;
  }

  /** Whether the operation is floating point. @return true for FPMIN, FPMAX, FPADD */
  public boolean floatingPoint() {
    return this == FPMIN || this == FPMAX || this == FPADD;
  }

  /** The uGNI mnemonic stem, e.g. {@code AX} for AND_XOR. @return the stem */
  public String mnemonic() {
    return this == AND_XOR ? "AX" : name();
  }
}
