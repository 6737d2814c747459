package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;

/**
 * The arithmetic of the Aries AMO unit (aries-facts §3.3, §5; S5, S6d): the new value of a word from its old value
 * and the request's operands, for every {@link AmoKind} at 64 and 32 bits.
 *
 * <ul>
 *   <li>Integer operations wrap around in two's complement; IMIN/IMAX compare signed.
 *   <li>FPADD/FPMIN/FPMAX interpret the bits as IEEE-754 double (64-bit) or float (32-bit) and round to nearest
 *       even. MIN and MAX follow {@link Math#min(double, double)}: a NaN operand gives NaN and -0.0 is below +0.0.
 *       Every NaN result is the canonical quiet NaN ({@code 0x7ff8000000000000} / {@code 0x7fc00000}): Java does
 *       not fix NaN payloads (they differ between the interpreter and compiled code), and the model must be
 *       deterministic. The hardware's NaN and signed-zero behaviour is not published ([S6d] only says the rounding
 *       mode is configurable); this is the model's choice.
 *   <li>Not modelled: the AMO unit's rounding-mode register ([S6d] {@code ar_nic_amo_cfg_rounding_mode}, a 2-bit
 *       {@code rounding_mode} "for floating point computation" whose encoding is not published; the model always
 *       rounds to nearest even) and its floating-point exception flags ([S6d] {@code fp_inexact},
 *       {@code fp_invalid}, {@code fp_overflow}, {@code fp_underflow} in the AMO error-flag register, "for
 *       information purposes only"; the model raises none).
 *   <li>64-bit FPADD ({@code FPADD}, {@code FFPADD} and their cached forms): two libraries that run on Aries do not
 *       use it, calling it broken: libfabric's gni provider (Cray-authored) maps double-precision FI_SUM to no
 *       command, "DP addition is broken" ([S24] {@code gnix_atomic.c}), and GASNet's aries-conduit says "(F)FPADD is
 *       known to be broken!" and does not offload double add ([S25] {@code gasnet_ratomic.c}, [S9] README). Both use
 *       the 32-bit {@code FPADD_S}. What is broken (wrong sums, some operands, or only some forms) is not published;
 *       the model computes IEEE-754 double addition, rounded to nearest even (assumed), as for every other width.
 *   <li>CSWAP: the new value is {@code operand2} when {@code old == operand1}, else the old value stays.
 *   <li>AX (AND_XOR): {@code (old & operand1) ^ operand2}.
 * </ul>
 *
 * <p>A 32-bit operation uses the low 32 bits of the operands and returns the new 32-bit word zero-extended; callers
 * read and write 4 bytes of memory. Allocation-free.
 */
public final class AmoArithmetic {

  private AmoArithmetic() {}

  /**
   * The value an operation leaves in memory.
   *
   * @param op the operation (its width decides 32- or 64-bit arithmetic)
   * @param old the word before the operation (for 32 bits, the low 32 bits are used)
   * @param operand1 first operand
   * @param operand2 second operand (CSWAP, AX), else ignored
   * @return the new word (for 32 bits, zero-extended)
   * @throws IllegalArgumentException when {@code op} is null
   */
  public static long apply(AmoOperation op, long old, long operand1, long operand2) {
    if (op == null) { // (free per AMO: it takes the place of the null check of op's read below)
      throw new IllegalArgumentException("op must not be null");
    }
    return op.widthBits() == 64
        ? apply64(op.kind(), old, operand1, operand2)
        : Integer.toUnsignedLong(apply32(op.kind(), (int) old, (int) operand1, (int) operand2));
  }

  /**
   * 64-bit arithmetic.
   *
   * @param kind the operation
   * @param old the old word
   * @param a first operand
   * @param b second operand
   * @return the new word
   * @throws IllegalArgumentException when {@code kind} is null
   */
  public static long apply64(AmoKind kind, long old, long a, long b) {
    if (kind == null) { // (free per AMO, as in apply)
      throw new IllegalArgumentException("kind must not be null");
    }
    switch (kind) {
      case ADD:
      case IADD:
        return old + a;
      case AND:
        return old & a;
      case OR:
        return old | a;
      case XOR:
        return old ^ a;
      case SWAP:
        return a;
      case AND_XOR:
        return (old & a) ^ b;
      case CSWAP:
        return old == a ? b : old;
      case IMIN:
        return Math.min(old, a);
      case IMAX:
        return Math.max(old, a);
      case FPADD:
        return Double.doubleToLongBits(Double.longBitsToDouble(old) + Double.longBitsToDouble(a));
      case FPMIN:
        return Double.doubleToLongBits(Math.min(Double.longBitsToDouble(old), Double.longBitsToDouble(a)));
      case FPMAX:
        return Double.doubleToLongBits(Math.max(Double.longBitsToDouble(old), Double.longBitsToDouble(a)));
      default:
        throw new AssertionError(kind);
    }
  }

  /**
   * 32-bit arithmetic.
   *
   * @param kind the operation
   * @param old the old word
   * @param a first operand
   * @param b second operand
   * @return the new word
   * @throws IllegalArgumentException when {@code kind} is null
   */
  public static int apply32(AmoKind kind, int old, int a, int b) {
    if (kind == null) { // (free per AMO, as in apply)
      throw new IllegalArgumentException("kind must not be null");
    }
    switch (kind) {
      case ADD:
      case IADD:
        return old + a;
      case AND:
        return old & a;
      case OR:
        return old | a;
      case XOR:
        return old ^ a;
      case SWAP:
        return a;
      case AND_XOR:
        return (old & a) ^ b;
      case CSWAP:
        return old == a ? b : old;
      case IMIN:
        return Math.min(old, a);
      case IMAX:
        return Math.max(old, a);
      case FPADD:
        return Float.floatToIntBits(Float.intBitsToFloat(old) + Float.intBitsToFloat(a));
      case FPMIN:
        return Float.floatToIntBits(Math.min(Float.intBitsToFloat(old), Float.intBitsToFloat(a)));
      case FPMAX:
        return Float.floatToIntBits(Math.max(Float.intBitsToFloat(old), Float.intBitsToFloat(a)));
      default:
        throw new AssertionError(kind);
    }
  }
}
