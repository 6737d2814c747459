package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Locale;

/**
 * An atomic memory operation as a request names it: the arithmetic, whether the old value is returned (fetching,
 * GET semantics) or not (non-fetching, PUT semantics), the operand width, and whether the target NIC's AMO cache
 * is asked to hold the line (the cached {@code _C} / {@code _SC} forms).
 *
 * <p>Command codes are exactly those of uGNI's {@code enum gni_fma_cmd_type} ({@code gni_fma_cmd_type_t}) in Cray's
 * public header {@code gni_pub.h} (GNI_MAJOR_REV 0x00, GNI_MINOR_REV 0x5c; aries-facts §5, S5; the full table is
 * restated in {@code AmoOperationTest}). The header's layout, from which {@link #code()} computes:
 * <table>
 *   <caption>uGNI AMO command codes</caption>
 *   <tr><th>form</th><th>rule</th><th>example</th></tr>
 *   <tr><td>fetching, 64-bit</td><td>{@link AmoKind#fetchingCode64()}</td><td>FIADD 0x055</td></tr>
 *   <tr><td>non-fetching</td><td>+0x100</td><td>IADD 0x155</td></tr>
 *   <tr><td>32-bit {@code _S} (second generation only)</td><td>the even code below the 64-bit one, +0x200
 *       </td><td>FIADD_S 0x254, IADD_S 0x354</td></tr>
 *   <tr><td>cached {@code _C}, {@code _SC}</td><td>+{@link AmoKind#cachedOffset()}: 0x10 for first-generation
 *       ADD, 0x20 for the second generation</td><td>FADD_C 0x018, FIADD_C 0x075, FIADD_SC 0x274</td></tr>
 * </table>
 * The header marks AX_S, AX_SC, CSWAP_S and CSWAP_SC "not valid for FMA_LAUNCH"; they are valid posts otherwise,
 * and the model accepts them.
 *
 * <p>First-generation aliases. Besides FADD/ADD (the model's {@link AmoKind#ADD}), the header's first generation
 * ({@code GNI_FMA_ATOMIC_<name>}, 64-bit only) has logical and compare-and-swap commands that the second generation
 * repeats: fetching FAND 0x009, FOR 0x00A, FXOR 0x00B, FAX 0x00C and CSWAP 0x00D, non-fetching AND 0x109, OR 0x10A,
 * XOR 0x10B and AX 0x10C, and each one's cached {@code _C} form at +0x10 (0x019 to 0x01D, 0x119 to 0x11C). There
 * is no first-generation non-fetching CSWAP (no 0x10D) and no 32-bit form. The header describes each as the
 * operation of its second-generation twin (most in the same words; FXOR "FETCH and XOR" beside "FETCH exclusive
 * OR", CSWAP "COMPARE and SWAP" beside "Fetching COMPARE and SWAP"), and Cray's first-generation AMO test
 * ({@code fma_amo_pmi_example.c}, S21) checks the same results, with the same roles of the two operands (CSWAP:
 * compare, then swap value; AX: AND mask, then XOR mask), as its second-generation test
 * ({@code fma_amo_g2_b64_pmi_example.c}, S21). So {@link #fromCode} accepts these codes as aliases of the
 * second-generation operations (Open MPI's uGNI BTL, S23, and UCX, S13, post {@code GNI_FMA_ATOMIC_CSWAP} for a
 * 64-bit fetching compare-and-swap); the operation it returns reports its second-generation {@link #code()} and
 * mnemonic, e.g. {@code fromCode(0x009)} is FAND with code 0x041. Whether the hardware runs an alias at the same
 * speed as its twin is not published; the model does (assumed).
 *
 * <p>A name clash follows: the header's {@code GNI_FMA_ATOMIC_CSWAP} (0x00D) is a fetching compare-and-swap (it is
 * in the header's "AMOs with GET semantics" block), the model's FCSWAP, while the model's mnemonic {@code CSWAP}
 * is {@code GNI_FMA_ATOMIC2_CSWAP} (0x14B), which does not fetch. {@link #parse} reads {@code "CSWAP"} as the
 * latter; give 0x00D to {@link #fromCode} for the former.
 *
 * <p>Mnemonics are uGNI's too: {@code F} prefix for fetching, {@code _S} suffix for 32-bit, {@code _C} for cached,
 * {@code _SC} for cached 32-bit, e.g. {@code FIADD}, {@code IMAX_S}, {@code FCSWAP_C}, {@code FIADD_SC}.
 * {@link #toString()} gives the mnemonic and {@link #parse} reads it back.
 *
 * <p>A cached operation gives exactly the values its uncached twin ({@link #uncached()}) gives; what the cached form
 * changes is where the target NIC keeps the word (its AMO cache, aries-nic {@code AmoCacheConfig}) and so the time it
 * takes.
 *
 * @param kind the arithmetic
 * @param fetching whether the old value is returned
 * @param widthBits 64 or 32
 * @param cached whether the command is a cached ({@code _C}/{@code _SC}) form that uses the target's AMO cache
 */
public record AmoOperation(AmoKind kind, boolean fetching, int widthBits, boolean cached) {

  /** Validates the combination. */
  public AmoOperation {
    checkArgument(kind != null, "kind must not be null");
    checkArgument(widthBits == 64 || widthBits == 32, "widthBits must be 32 or 64 but was %s", widthBits);
    checkArgument(
        widthBits == 64 || kind.has32Bit(), "%s has no 32-bit form (use IADD for a 32-bit add)", kind);
  }

  /**
   * An uncached operation.
   *
   * @param kind the arithmetic
   * @param fetching whether the old value is returned
   * @param widthBits 64 or 32
   */
  public AmoOperation(AmoKind kind, boolean fetching, int widthBits) {
    this(kind, fetching, widthBits, false);
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
    return new AmoOperation(kind, fetching, widthBits, false);
  }

  /**
   * The operation, cached or not.
   *
   * @param kind the arithmetic
   * @param fetching whether the old value is returned
   * @param widthBits 64 or 32
   * @param cached whether it is the cached ({@code _C}/{@code _SC}) form
   * @return the operation
   */
  public static AmoOperation of(AmoKind kind, boolean fetching, int widthBits, boolean cached) {
    return new AmoOperation(kind, fetching, widthBits, cached);
  }

  /**
   * Every valid uncached operation: 13 kinds × fetching/non-fetching × 64/32 bits, less ADD's missing 32-bit forms.
   * The cached forms are in {@link #allForms()}.
   *
   * @return 50 operations
   */
  public static AmoOperation[] all() {
    return forms(false);
  }

  /**
   * Every valid operation, uncached and cached: the 50 of {@link #all()} followed by their 50 cached twins, i.e.
   * every AMO command of {@code gni_fma_cmd_type_t} the model's {@link AmoKind}s name, less the first-generation
   * aliases that {@link #fromCode} also reads (class javadoc).
   *
   * @return 100 operations
   */
  public static AmoOperation[] allForms() {
    AmoOperation[] uncached = forms(false);
    AmoOperation[] cachedForms = forms(true);
    AmoOperation[] both = java.util.Arrays.copyOf(uncached, uncached.length + cachedForms.length);
    System.arraycopy(cachedForms, 0, both, uncached.length, cachedForms.length);
    return both;
  }

  private static AmoOperation[] forms(boolean cached) {
    java.util.List<AmoOperation> ops = new java.util.ArrayList<>();
    for (AmoKind k : AmoKind.values()) {
      for (boolean f : new boolean[] {true, false}) {
        ops.add(new AmoOperation(k, f, 64, cached));
        if (k.has32Bit()) {
          ops.add(new AmoOperation(k, f, 32, cached));
        }
      }
    }
    return ops.toArray(new AmoOperation[0]);
  }

  /**
   * The uGNI command code, as {@code gni_pub.h} defines it (rules in the class javadoc).
   *
   * @return the code, e.g. 0x055 for FIADD, 0x254 for FIADD_S, 0x274 for FIADD_SC
   */
  public int code() {
    int code = kind.fetchingCode64() + (fetching ? 0 : 0x100);
    if (widthBits == 32) {
      // Second-generation 64-bit codes are odd; the header puts each 32-bit twin on the even code just below it,
      // in the 0x2xx (fetching) or 0x3xx (non-fetching) page.
      code = (code - 1) + 0x200;
    }
    return cached ? code + kind.cachedOffset() : code;
  }

  /**
   * The same operation without the AMO cache (the memory AMO a NIC without an AMO cache executes for a cached form).
   *
   * @return this operation with {@code cached} false
   */
  public AmoOperation uncached() {
    return cached ? new AmoOperation(kind, fetching, widthBits, false) : this;
  }

  /**
   * The operation with a uGNI command code: a code from {@link #code()}, or a first-generation alias (class
   * javadoc), whose operation reports its second-generation code, so {@code fromCode(0x00D).code()} is 0x04B.
   *
   * @param code a uGNI AMO command code of {@code gni_pub.h}
   * @return the operation
   * @throws IllegalArgumentException when no operation has the code
   */
  public static AmoOperation fromCode(int code) {
    for (AmoOperation op : allForms()) {
      if (op.code() == code) {
        return op;
      }
    }
    AmoOperation alias = firstGenerationAlias(code);
    if (alias != null) {
      return alias;
    }
    throw new IllegalArgumentException("AMO command code must be one of the uGNI AMO codes of gni_pub.h "
        + "(e.g. 0x055 FIADD, 0x155 IADD, 0x254 FIADD_S, 0x075 FIADD_C, 0x00D CSWAP (fetching)) but was 0x"
        + Integer.toHexString(code));
  }

  /**
   * The second-generation operation a first-generation alias code stands for (class javadoc), or null.
   *
   * @param code a command code
   * @return the operation, or null when the code is not one of the header's first-generation aliases
   */
  private static AmoOperation firstGenerationAlias(int code) {
    int uncachedCode = code & ~0x10; // a first-generation cached form is its uncached code + 0x10
    AmoKind kind = switch (uncachedCode) {
      case 0x009, 0x109 -> AmoKind.AND;
      case 0x00A, 0x10A -> AmoKind.OR;
      case 0x00B, 0x10B -> AmoKind.XOR;
      case 0x00C, 0x10C -> AmoKind.AND_XOR;
      case 0x00D -> AmoKind.CSWAP; // fetching only: the header has no 0x10D
      default -> null;
    };
    return kind == null ? null : new AmoOperation(kind, uncachedCode < 0x100, 64, (code & 0x10) != 0);
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
   * Parses a uGNI mnemonic such as {@code FIADD}, {@code IADD_S}, {@code FAX}, {@code CSWAP}, {@code FADD_C},
   * {@code FIADD_SC}.
   *
   * @param text the mnemonic (case-insensitive)
   * @return the operation
   * @throws IllegalArgumentException quoting the text when it names no operation
   */
  public static AmoOperation parse(String text) {
    checkArgument(text != null, "AMO mnemonic must not be null");
    String t = text.trim().toUpperCase(Locale.ROOT);
    for (AmoOperation op : allForms()) {
      if (op.toString().equals(t)) {
        return op;
      }
    }
    throw new IllegalArgumentException(
        "AMO mnemonic must be a uGNI name such as FIADD, IADD_S, FCSWAP, AX, FIADD_C, IADD_SC but was \"" + text
            + "\"");
  }

  /** The uGNI mnemonic. */
  @Override
  public String toString() {
    String suffix = widthBits == 32 ? (cached ? "_SC" : "_S") : (cached ? "_C" : "");
    return (fetching ? "F" : "") + kind.mnemonic() + suffix;
  }
}
