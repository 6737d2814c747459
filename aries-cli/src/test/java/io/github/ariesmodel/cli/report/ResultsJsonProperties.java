package io.github.ariesmodel.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;

class ResultsJsonProperties {

  /** Random tables from a seed: all three column types, nulls, edge numbers, awkward strings. */
  static ResultTable table(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    ResultTable.Builder b = ResultTable.builder("t" + r.nextInt(1000));
    int cols = 1 + r.nextInt(5);
    ColumnType[] types = new ColumnType[cols];
    for (int c = 0; c < cols; c++) {
      types[c] = ColumnType.values()[r.nextInt(3)];
      b.column(new Column("c" + c, r.nextBoolean() ? "ns" : "", types[c]));
    }
    int rows = r.nextInt(6);
    String[] strings = {"", "a,b", "q\"q", "<x>", "line\nbreak", "é€😀", " "};
    double[] doubles = {0.0, -0.0, 1e-300, Double.MAX_VALUE, Double.MIN_VALUE, -1.5, 0.1 + 0.2};
    long[] longs = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 53};
    for (int i = 0; i < rows; i++) {
      List<Object> row = new ArrayList<>();
      for (int c = 0; c < cols; c++) {
        if (r.nextInt(8) == 0) {
          row.add(null);
          continue;
        }
        switch (types[c]) {
          case INTEGER -> row.add(r.nextBoolean() ? longs[r.nextInt(longs.length)] : r.nextLong());
          case NUMBER -> row.add(r.nextBoolean() ? doubles[r.nextInt(doubles.length)]
              : Double.longBitsToDouble(r.nextLong() & 0x7fefffffffffffffL) * (r.nextBoolean() ? 1 : -1));
          default -> row.add(strings[r.nextInt(strings.length)] + r.nextInt(3));
        }
      }
      b.row(row);
    }
    return b.build();
  }

  @Test
  void anyTableRoundTripsThroughJson() {
    Gen<Long> seeds = SourceDSL.longs().all();
    qt().withExamples(300).forAll(seeds).checkAssert(seed -> {
      Results res = Results.builder(RunMetadata.builder("t", "c").seed(seed).build())
          .metric("m", seed % 1000 / 7.0, "u")
          .table(table(seed))
          .build();
      try {
        String json = ResultsJson.toJson(res, true);
        Results back = ResultsJson.read(new StringReader(json));
        assertThat(back).isEqualTo(res);
        assertThat(ResultsJson.toJson(back, true)).isEqualTo(json);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }
}
