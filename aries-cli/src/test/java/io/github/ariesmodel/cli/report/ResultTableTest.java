package io.github.ariesmodel.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ResultTableTest {

  private static ResultTable.Builder twoColumns() {
    return ResultTable.builder("t").integer("n", "").number("x", "ns");
  }

  @Test
  void widensIntsToLongsAndIntegralNumbersToDoubles() {
    ResultTable t = twoColumns().row(3, 4).build();
    assertThat(t.rows().get(0)).containsExactly(3L, 4.0);
    assertThat(t.numbers("x")).containsExactly(4.0);
  }

  @Test
  void rejectsWrongCellCountTypesAndNonFiniteNumbers() {
    assertThatThrownBy(() -> twoColumns().row(1)).hasMessageContaining("2 cells").hasMessageContaining("had 1");
    assertThatThrownBy(() -> twoColumns().row(1.5, 2.0)).hasMessageContaining("\"n\"").hasMessageContaining("integer");
    assertThatThrownBy(() -> twoColumns().row(1, Double.NaN)).hasMessageContaining("finite").hasMessageContaining("NaN");
    assertThatThrownBy(() -> twoColumns().row(1, "2")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsBadNamesAndDuplicateColumns() {
    assertThatThrownBy(() -> ResultTable.builder("a/b")).hasMessageContaining("a/b");
    assertThatThrownBy(() -> ResultTable.builder("metrics")).hasMessageContaining("reserved");
    assertThatThrownBy(() -> twoColumns().number("x", "")).hasMessageContaining("already has a column \"x\"");
    assertThatThrownBy(() -> twoColumns().row(1, 2).number("y", "")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void resultsRejectRepeatedMetricAndTableNames() {
    RunMetadata m = RunMetadata.builder("t", "c").build();
    assertThatThrownBy(() -> Results.builder(m).metric("a", 1, "").metric("a", 2, "").build())
        .hasMessageContaining("\"a\" appears twice");
    ResultTable t = twoColumns().build();
    assertThatThrownBy(() -> Results.builder(m).table(t).table(t).build()).hasMessageContaining("\"t\" appears twice");
  }

  @Test
  void missingColumnNamesTheColumns() {
    assertThatThrownBy(() -> twoColumns().build().columnIndex("y"))
        .hasMessageContaining("no column \"y\"").hasMessageContaining("[n, x]");
  }
}
