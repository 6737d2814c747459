package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --fabric ideal --threads N} is refused in the options' own words, before anything is written: it was
 * refused with the library builder's, {@code fabric(IDEAL) cannot be combined with threads(2)}, at "(arguments)".
 */
class IdealFabricThreadsTest {

  @TempDir Path tmp;

  @Test
  void idealFabricWithThreadsIsRefusedInTheOptionsOwnWords() {
    for (String n : new String[] {"1", "2"}) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      Path dir = tmp.resolve("o" + n);
      int rc = AriesCli.execute(new String[] {"run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "--fabric",
          "ideal", "--threads", n, "-q", "--out", dir.toString()}, new PrintWriter(out, true),
          new PrintWriter(err, true));
      assertThat(rc).as(err.toString()).isEqualTo(2);
      assertThat(err.toString().lines()).containsExactly("aries run: --fabric ideal cannot be combined with --threads "
          + n + ": the ideal fabric runs on the single event loop and the engine's threads need the router fabric;"
          + " drop one of them (--threads)");
      assertThat(Files.exists(dir)).isFalse();
    }
  }
}
