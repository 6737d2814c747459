package io.github.ariesmodel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AmoOperationTest {

  @Test
  void allHasFiftyDistinctOperationsWithDistinctCodesAndMnemonics() {
    AmoOperation[] all = AmoOperation.all();
    assertThat(all).hasSize(50).doesNotHaveDuplicates();
    assertThat(Arrays.stream(all).map(AmoOperation::cached)).containsOnly(false);
    assertThat(Arrays.stream(all).map(AmoOperation::code).collect(Collectors.toSet())).hasSize(50);
    assertThat(Arrays.stream(all).map(AmoOperation::toString).collect(Collectors.toSet())).hasSize(50);
  }

  @Test
  void allFormsAddsACachedTwinForEveryOperation() {
    AmoOperation[] forms = AmoOperation.allForms();
    assertThat(forms).hasSize(100).doesNotHaveDuplicates().startsWith(AmoOperation.all());
    assertThat(Arrays.stream(forms).map(AmoOperation::code).collect(Collectors.toSet())).hasSize(100);
    assertThat(Arrays.stream(forms).map(AmoOperation::toString).collect(Collectors.toSet())).hasSize(100);
    for (AmoOperation op : AmoOperation.all()) {
      AmoOperation c = AmoOperation.of(op.kind(), op.fetching(), op.widthBits(), true);
      assertThat(forms).contains(c);
      assertThat(c.uncached()).isEqualTo(op);
      assertThat(op.uncached()).isSameAs(op);
      assertThat(c.code() - op.code()).isEqualTo(op.kind() == AmoKind.ADD ? 0x10 : 0x20);
      assertThat(c.toString()).isEqualTo(op + (op.widthBits() == 32 ? "C" : "_C"));
    }
  }

  @Test
  void codeAndMnemonicRoundTripForEveryOperation() {
    for (AmoOperation op : AmoOperation.allForms()) {
      assertThat(AmoOperation.fromCode(op.code())).isEqualTo(op);
      assertThat(AmoOperation.parse(op.toString())).isEqualTo(op);
      assertThat(AmoOperation.parse(" " + op.toString().toLowerCase(Locale.ROOT) + " ")).isEqualTo(op);
      assertThat(op.operandBytes()).isEqualTo(op.widthBits() / 8);
      assertThat(op.requestOperandBytes()).isEqualTo(op.kind().operands() * op.operandBytes());
      assertThat(op.responseBytes()).isEqualTo(op.fetching() ? op.operandBytes() : 0);
    }
  }

  /**
   * Every AMO command of {@code enum gni_fma_cmd_type} in Cray's public uGNI header {@code gni_pub.h}
   * (GNI_MAJOR_REV 0x00, GNI_MINOR_REV 0x5c, "Copyright 2007 Cray Inc.", GPLv2; aries-facts S5), transcribed by
   * hand from the header: one row per uGNI name stem with its plain, {@code _S}, {@code _C} and {@code _SC}
   * codes ("-" where the header has none). The header's names are {@code GNI_FMA_ATOMIC_<name>} for the first
   * generation (FADD, ADD) and {@code GNI_FMA_ATOMIC2_<name>} for the second. Open MPI's uGNI BTL uses the same
   * names for its 32-bit atomics ({@code opal/mca/btl/ugni/btl_ugni_atomic.c}: IADD_S, AND_S, OR_S, XOR_S,
   * SWAP_S, IMIN_S).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      // name,  plain,  _S,    _C,    _SC
      "FADD,    0x008, -,     0x018, -",
      "FAND,    0x041, 0x240, 0x061, 0x260",
      "FOR,     0x043, 0x242, 0x063, 0x262",
      "FXOR,    0x045, 0x244, 0x065, 0x264",
      "FSWAP,   0x047, 0x246, 0x067, 0x266",
      "FAX,     0x049, 0x248, 0x069, 0x268",
      "FCSWAP,  0x04B, 0x24A, 0x06B, 0x26A",
      "FIMIN,   0x051, 0x250, 0x071, 0x270",
      "FIMAX,   0x053, 0x252, 0x073, 0x272",
      "FIADD,   0x055, 0x254, 0x075, 0x274",
      "FFPMIN,  0x059, 0x258, 0x079, 0x278",
      "FFPMAX,  0x05B, 0x25A, 0x07B, 0x27A",
      "FFPADD,  0x05D, 0x25C, 0x07D, 0x27C",
      "ADD,     0x108, -,     0x118, -",
      "AND,     0x141, 0x340, 0x161, 0x360",
      "OR,      0x143, 0x342, 0x163, 0x362",
      "XOR,     0x145, 0x344, 0x165, 0x364",
      "SWAP,    0x147, 0x346, 0x167, 0x366",
      "AX,      0x149, 0x348, 0x169, 0x368",
      "CSWAP,   0x14B, 0x34A, 0x16B, 0x36A",
      "IMIN,    0x151, 0x350, 0x171, 0x370",
      "IMAX,    0x153, 0x352, 0x173, 0x372",
      "IADD,    0x155, 0x354, 0x175, 0x374",
      "FPMIN,   0x159, 0x358, 0x179, 0x378",
      "FPMAX,   0x15B, 0x35A, 0x17B, 0x37A",
      "FPADD,   0x15D, 0x35C, 0x17D, 0x37C",
  })
  void codesAreTheGniPubHeaderCommandCodes(String name, String plain, String s, String c, String sc) {
    assertCode(name, plain);
    assertCode(name + "_S", s);
    assertCode(name + "_C", c);
    assertCode(name + "_SC", sc);
  }

  private static void assertCode(String mnemonic, String hex) {
    if (hex.equals("-")) {
      assertThatThrownBy(() -> AmoOperation.parse(mnemonic)).isInstanceOf(IllegalArgumentException.class);
      return;
    }
    int code = Integer.decode(hex);
    assertThat(AmoOperation.parse(mnemonic).code()).as(mnemonic).isEqualTo(code);
    assertThat(AmoOperation.fromCode(code)).as(hex).hasToString(mnemonic);
  }

  /**
   * gni_pub.h's first-generation logical and compare-and-swap commands ({@code GNI_FMA_ATOMIC_<name>}, 64-bit only),
   * with their header codes: aliases of the second-generation operations, which they match in the header's words and
   * in Cray's first-generation AMO test (S21 {@code fma_amo_pmi_example.c}: same operand roles, same results). Until
   * this change they were refused; Open MPI's uGNI BTL and UCX post {@code GNI_FMA_ATOMIC_CSWAP} (0x00D), which is
   * fetching although its name has no F: it is FCSWAP, not the model's non-fetching CSWAP (0x14B).
   */
  @ParameterizedTest(name = "0x{0} is {1}")
  @CsvSource({
      // header code, the operation it aliases
      "009, FAND",   "019, FAND_C",
      "00A, FOR",    "01A, FOR_C",
      "00B, FXOR",   "01B, FXOR_C",
      "00C, FAX",    "01C, FAX_C",
      "00D, FCSWAP", "01D, FCSWAP_C",
      "109, AND",    "119, AND_C",
      "10A, OR",     "11A, OR_C",
      "10B, XOR",    "11B, XOR_C",
      "10C, AX",     "11C, AX_C",
  })
  void firstGenerationCodesAreAliasesOfTheSecondGenerationOperations(String hex, String mnemonic) {
    int code = Integer.parseInt(hex, 16);
    AmoOperation op = AmoOperation.fromCode(code);
    assertThat(op).isEqualTo(AmoOperation.parse(mnemonic));
    assertThat(op.widthBits()).isEqualTo(64);
    assertThat(op.fetching()).isEqualTo(code < 0x100);
    assertThat(op.cached()).isEqualTo((code & 0x10) != 0);
    // The operation keeps its second-generation code and name: toString and code() are not the alias's.
    assertThat(op).hasToString(mnemonic);
    assertThat(op.code()).isNotEqualTo(code).isEqualTo(AmoOperation.parse(mnemonic).code());
  }

  @Test
  void theHeadersFetchingCswapIsNotTheModelsCswapMnemonic() {
    assertThat(AmoOperation.fromCode(0x00D).fetching()).isTrue();
    assertThat(AmoOperation.parse("CSWAP").fetching()).isFalse();
    assertThat(AmoOperation.parse("CSWAP").code()).isEqualTo(0x14B);
  }

  @Test
  void codesNextToTheFirstGenerationAliasesThatTheHeaderDoesNotHaveAreRefused() {
    // No first-generation non-fetching CSWAP (0x10D, 0x11D), nothing at 0x00E/0x00F, no first-generation _S forms.
    for (int code : new int[] {0x10D, 0x11D, 0x00E, 0x01E, 0x00F, 0x10E, 0x20D, 0x209, 0x309, 0x029, 0x129}) {
      assertThatThrownBy(() -> AmoOperation.fromCode(code))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("but was 0x" + Integer.toHexString(code));
    }
  }

  @Test
  void firstGenerationAddHasNo32BitForm() {
    assertThatThrownBy(() -> AmoOperation.of(AmoKind.ADD, true, 32))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ADD has no 32-bit form");
    assertThatThrownBy(() -> AmoOperation.of(AmoKind.IADD, true, 16))
        .hasMessageContaining("widthBits must be 32 or 64 but was 16");
  }

  @Test
  void unknownCodesAndMnemonicsAreRejected() {
    assertThatThrownBy(() -> AmoOperation.fromCode(0x999))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0x999");
    assertThatThrownBy(() -> AmoOperation.parse("FMULT"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"FMULT\"");
    assertThatThrownBy(() -> AmoOperation.parse("ADD_S")).hasMessageContaining("\"ADD_S\"");
    assertThatThrownBy(() -> AmoOperation.parse("FADD_SC")).hasMessageContaining("\"FADD_SC\"");
    assertThatThrownBy(() -> AmoOperation.parse("FIADD_CS")).hasMessageContaining("\"FIADD_CS\"");
  }

  @Test
  void deliveryModesParseTheirDocumentedSpellings() {
    assertThat(DeliveryMode.parse("adaptive0")).isEqualTo(DeliveryMode.ADAPTIVE_0);
    assertThat(DeliveryMode.parse("ADAPTIVE_3")).isEqualTo(DeliveryMode.ADAPTIVE_3);
    assertThat(DeliveryMode.parse("min-hash")).isEqualTo(DeliveryMode.MIN_HASH);
    assertThat(DeliveryMode.parse("in-order")).isEqualTo(DeliveryMode.IN_ORDER);
    for (DeliveryMode m : DeliveryMode.values()) {
      assertThat(DeliveryMode.parse(m.name())).isEqualTo(m);
      assertThat(m.adaptive()).isEqualTo(m.name().startsWith("ADAPTIVE"));
      assertThat(m.inOrder()).isEqualTo(m == DeliveryMode.IN_ORDER);
    }
    assertThatThrownBy(() -> DeliveryMode.parse("fastest")).hasMessageContaining("\"fastest\"");
  }
}
