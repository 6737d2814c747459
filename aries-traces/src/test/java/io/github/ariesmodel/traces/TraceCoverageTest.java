package io.github.ariesmodel.traces;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TraceCoverageTest {

  private Locale display;
  private Locale format;

  @BeforeEach
  void remember() {
    display = Locale.getDefault(Locale.Category.DISPLAY);
    format = Locale.getDefault(Locale.Category.FORMAT);
  }

  @AfterEach
  void restore() {
    Locale.setDefault(Locale.Category.DISPLAY, display);
    Locale.setDefault(Locale.Category.FORMAT, format);
  }

  /** The report reads the same on every machine: a German default wrote 33,3 %, an Arabic one Arabic-Indic digits. */
  @ParameterizedTest
  @ValueSource(strings = {"de-DE", "ar-EG"})
  void theReportUsesAsciiDigitsAndADecimalPointWhateverTheLocale(String tag) {
    Locale.setDefault(Locale.forLanguageTag(tag));
    RankCoverage r = RankCoverage.of(0, Map.of("MPI_Isend", 2000L, "MPI_Comm_rank", 1L), Map.of(CallKind.ISEND, 2000L),
        Map.of("MPI_Comm_rank", 1L), Map.of("MPI_Isend", 3000L, "MPI_Comm_rank", 1L),
        Map.of("MPI_Isend", 1000L), 0, true);
    List<String> report = new TraceCoverage(TraceFormat.DUMPI, List.of(r)).report();
    assertThat(report).containsExactly("DUMPI trace, 1 ranks, 2001 records",
        "footers: 3001 calls made, 1000 not recorded by the tracer (33.3%)", "  not recorded: MPI_Isend 1000 of 3000",
        "  recorded, not modelled: MPI_Comm_rank 1");
  }
}
