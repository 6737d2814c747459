package io.github.ariesmodel.traces;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.traces.dumpi.DumpiTrace;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A null given to the trace readers' factories is one line naming the parameter, not a NullPointerException. */
class TraceNullArgumentTest {

  @Test
  void factoriesNameTheirNullParameter() {
    assertThatThrownBy(() -> TraceFormat.detect(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("path must not be null");
    assertThatThrownBy(() -> DumpiTrace.openRankFile(null, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bin must not be null");
    Path p = Path.of("a.txt");
    assertThatThrownBy(() -> SimGridTrace.ofRankFiles(p, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rankFiles must not be null or empty");
    assertThatThrownBy(() -> SimGridTrace.ofRankFiles(p, Arrays.asList(p, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rankFiles must hold no null but rank 1's was null");
    assertThatThrownBy(() -> SimGridTrace.ofRankFiles(null, Arrays.asList(p)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("source must not be null");
  }
}
