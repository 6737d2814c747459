package io.github.ariesmodel.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Floating-point workload parameters take decimal numbers only, the grammar by which a sweep compares values and merge
 * types its columns: Java's parser also took {@code 0.5d}, {@code 0.5f} and {@code 0x1p-1}, so {@code sweep --param
 * loads=0.5,0.5d,0x1p-1} ran one point three times (stop 75's hunt).
 */
class ParamsDecimalTest {

  private static final List<String> REFUSED = List.of("0.5d", "0.5f", "0x1p-1", " 0.5", "0.5 ", "NaN", "Infinity",
      "1e", "e5", ".", "+", "0,5");

  @Test
  void numbersAreDecimalOnly() {
    for (String good : List.of("0.5", ".5", "5.", "-3", "+2", "1e6", "1E-3", "007")) {
      assertThat(Params.of(Map.of("rate", good)).number("rate", 1, -10, 1e7)).as(good)
          .isEqualTo(Double.parseDouble(good));
      assertThat(Params.decimal(good)).as(good).isEqualTo(Double.parseDouble(good));
    }
    for (String bad : REFUSED) {
      assertThatThrownBy(() -> Params.of(Map.of("rate", bad)).number("rate", 1, -10, 10)).as(bad)
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("rate must be a number but was \"");
    }
  }

  @Test
  void listElementsAreDecimalOnly() {
    assertThat(Params.of(Map.of("loads", "0.25, .5,1e-1")).numberList("loads", "1", 0, 1))
        .containsExactly(0.25, 0.5, 0.1);
    for (String bad : List.of("0.5d", "0.5f", "0x1p-1", "NaN")) {
      assertThatThrownBy(() -> Params.of(Map.of("loads", "0.5," + bad)).numberList("loads", "1", 0, 1)).as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("loads must be a list of numbers but had \"" + bad + "\"");
    }
  }

  @Test
  void floatingPointOptionsTakeTheSameGrammar() throws Exception {
    java.lang.reflect.Method finite = Class.forName("io.github.ariesmodel.cli.AriesCli")
        .getDeclaredMethod("finiteDouble", String.class);
    finite.setAccessible(true);
    assertThat(finite.invoke(null, "1e3")).isEqualTo(1000.0);
    for (String bad : REFUSED) {
      assertThatThrownBy(() -> finite.invoke(null, bad)).as(bad).hasRootCauseInstanceOf(
          picocli.CommandLine.TypeConversionException.class);
    }
  }
}
