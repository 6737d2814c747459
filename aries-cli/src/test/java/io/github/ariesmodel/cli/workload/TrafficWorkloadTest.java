package io.github.ariesmodel.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.system.SystemSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code run traffic}'s table where the network measured nothing.
 */
class TrafficWorkloadTest {

  private static final SystemSpec CANONICAL_SMALL = SystemSpec.of("canonical-small", 1);

  private static ResultTable traffic(WorkloadReport r) {
    return r.tables().stream().filter(t -> t.name().equals("traffic")).findFirst().orElseThrow();
  }

  /** The row's cell in a column, by name. */
  private static Object cell(ResultTable t, int row, String column) {
    return t.rows().get(row).get(t.columnIndex(column));
  }

  /** A point whose window measured no packet has no latency, hops or minimal fraction: null cells, where it had 0.0. */
  @Test
  void aPointThatMeasuredNoPacketHasNullCellsNotZeros() {
    ResultTable t = traffic(new TrafficWorkload().run(CANONICAL_SMALL, Params.of(Map.of("loads", "0.0001",
        "measureNs", "100", "routings", "minimal"))));
    for (String column : List.of("latencyMean", "latencyP99", "minimalFraction", "meanHops")) {
      assertThat(cell(t, 0, column)).as(column).isNull();
    }
  }
}
