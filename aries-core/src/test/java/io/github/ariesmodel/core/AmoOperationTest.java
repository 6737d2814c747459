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
    assertThat(Arrays.stream(all).map(AmoOperation::code).collect(Collectors.toSet())).hasSize(50);
    assertThat(Arrays.stream(all).map(AmoOperation::toString).collect(Collectors.toSet())).hasSize(50);
  }

  @Test
  void codeAndMnemonicRoundTripForEveryOperation() {
    for (AmoOperation op : AmoOperation.all()) {
      assertThat(AmoOperation.fromCode(op.code())).isEqualTo(op);
      assertThat(AmoOperation.parse(op.toString())).isEqualTo(op);
      assertThat(AmoOperation.parse(" " + op.toString().toLowerCase(Locale.ROOT) + " ")).isEqualTo(op);
      assertThat(op.operandBytes()).isEqualTo(op.widthBits() / 8);
      assertThat(op.requestOperandBytes()).isEqualTo(op.kind().operands() * op.operandBytes());
      assertThat(op.responseBytes()).isEqualTo(op.fetching() ? op.operandBytes() : 0);
    }
  }

  /** Codes from uGNI's gni_fma_cmd_type_t (aries-facts §5, S5). */
  @ParameterizedTest
  @CsvSource({
      "FADD, 0x008", "ADD, 0x108", "FAND, 0x041", "FOR, 0x043", "FXOR, 0x045", "FSWAP, 0x047", "FAX, 0x049",
      "FCSWAP, 0x04B", "FIMIN, 0x051", "FIMAX, 0x053", "FIADD, 0x055", "FFPMIN, 0x059", "FFPMAX, 0x05B",
      "FFPADD, 0x05D", "AND, 0x141", "CSWAP, 0x14B", "IMIN, 0x151", "IMAX, 0x153", "IADD, 0x155", "FPMIN, 0x159",
      "FPMAX, 0x15B", "FPADD, 0x15D", "FIADD_S, 0x255", "FAND_S, 0x241", "IADD_S, 0x355", "AND_S, 0x341"
  })
  void codesAreTheUgniCommandCodes(String mnemonic, String hex) {
    int code = Integer.decode(hex);
    assertThat(AmoOperation.parse(mnemonic).code()).isEqualTo(code);
    assertThat(AmoOperation.fromCode(code)).hasToString(mnemonic);
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
