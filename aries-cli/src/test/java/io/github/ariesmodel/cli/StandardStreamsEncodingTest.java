package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The CLI writes UTF-8 to standard output and error whatever the platform charset: under LC_ALL=C (an ASCII default
 * charset) its '×' and '…' printed as '?'. Runs the CLI in a JVM of its own, whose default charset is ASCII (its
 * arguments are ASCII, which the test's JVM passes unchanged whatever its own locale).
 */
class StandardStreamsEncodingTest {

  @Test
  void standardOutputAndErrorAreUtf8UnderAnAsciiDefaultCharset() throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // (stdout.encoding and stderr.encoding: what System.out encodes with from Java 19 on; Java 17 ignores them)
    Process p = new ProcessBuilder(java, "-Dfile.encoding=US-ASCII", "-Dstdout.encoding=US-ASCII",
        "-Dstderr.encoding=US-ASCII", "-cp", System.getProperty("java.class.path"), AriesCli.class.getName(),
        "systems", "--describe", "edison-cabled").start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(out).contains("(6 rows × 16 columns)");
    Process bad = new ProcessBuilder(List.of(java, "-Dfile.encoding=US-ASCII", "-Dstdout.encoding=US-ASCII",
        "-Dstderr.encoding=US-ASCII", "-cp", System.getProperty("java.class.path"), AriesCli.class.getName(), "systems",
        "--describe", "x".repeat(100))).start();
    bad.getOutputStream().close();
    bad.getInputStream().readAllBytes();
    String err = new String(bad.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bad.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(bad.exitValue()).isEqualTo(2);
    assertThat(err).contains("x… (100 characters)");
  }
}
