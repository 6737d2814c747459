package org.example.study;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.PageSize;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The study runs small in CI and its rows say what the model should: huge pages miss less, Valiant detours. */
class WhatIfStudyTest {

  @Test
  void routingsTimesPageSizesGiveOneRowEachAndTheExpectedTrends() {
    List<String> routings = List.of("minimal", "valiant");
    List<WhatIfStudy.Row> rows = new WhatIfStudy(8, 200, 64L << 20)
        .run(routings, List.of(PageSize.SIZE_4K, PageSize.SIZE_2M));
    assertThat(rows).hasSize(4);
    System.out.print(WhatIfStudy.table(rows));
    for (WhatIfStudy.Row r : rows) {
      assertThat(r.runPs()).isPositive();
      assertThat(r.statistics().nics().packetsSent()).isPositive();
    }
    for (int i = 0; i < rows.size(); i += 2) {
      WhatIfStudy.Row small = rows.get(i);
      WhatIfStudy.Row huge = rows.get(i + 1);
      assertThat(huge.requestMisses()).as(small.routing() + ": 2M pages miss less than 4K pages")
          .isLessThan(small.requestMisses());
    }
    assertThat(rows.get(0).nonMinimalFraction()).as("minimal").isZero();
    // Valiant detours packets between groups (87 % of all packets here, requests and responses included).
    assertThat(rows.get(2).nonMinimalFraction()).as("valiant").isPositive();
    assertThat(WhatIfStudy.table(rows).lines()).hasSize(5);
  }
}
