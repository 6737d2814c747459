package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A command whose standard output cannot be written fails: {@code ./aries systems > /dev/full} lost its whole output
 * and exited 0 (until stop 78), since a {@link PrintWriter} only remembers a failed write. It is a failed run, exit
 * status 1, told in one line with the reason, except a pipe whose reader went away ({@code | head}): status 1 alone.
 */
class StandardOutputFailureTest {

  /** An output stream every write to which fails as the operating system's write would. */
  private static OutputStream failing(String reason) {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException(reason);
      }
    };
  }

  private static PrintWriter writer(OutputStream s) {
    return new PrintWriter(new OutputStreamWriter(s, StandardCharsets.UTF_8), true);
  }

  @Test
  void aCommandWhoseOutputCannotBeWrittenFailsInOneLine() {
    for (String[] args : List.of(new String[] {"systems"}, new String[] {"--version"}, new String[] {"run", "--help"},
        new String[] {"sweep", "--list-jobs"})) {
      StringWriter err = new StringWriter();
      int status = AriesCli.execute(args, writer(failing("No space left on device")), new PrintWriter(err, true));
      assertThat(status).as(String.join(" ", args)).isEqualTo(CliError.FAILED_RUN);
      String command = args[0].startsWith("-") ? "aries" : "aries " + args[0];
      assertThat(err.toString()).as(String.join(" ", args))
          .isEqualTo(command + ": cannot write standard output (standard output)" + System.lineSeparator());
    }
  }

  @Test
  void theLineSaysWhyWhenItIsKnownAndABrokenPipeIsNotTold() {
    StringWriter err = new StringWriter();
    AriesCli.Recorded full = new AriesCli.Recorded(failing("No space left on device"));
    assertThat(AriesCli.execute(new String[] {"systems"}, writer(full), new PrintWriter(err, true), full::failure))
        .isEqualTo(CliError.FAILED_RUN);
    assertThat(err.toString()).isEqualTo("aries systems: cannot write standard output: no space left on device"
        + " (standard output)" + System.lineSeparator());

    StringWriter quiet = new StringWriter();
    AriesCli.Recorded pipe = new AriesCli.Recorded(failing(ErrorHandler.BROKEN_PIPE));
    assertThat(AriesCli.execute(new String[] {"systems"}, writer(pipe), new PrintWriter(quiet, true), pipe::failure))
        .isEqualTo(CliError.FAILED_RUN);
    assertThat(quiet.toString()).isEmpty();
  }

  @Test
  void aWrittenOutputIsStillASuccess() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(AriesCli.execute(new String[] {"systems"}, new PrintWriter(out, true), new PrintWriter(err, true)))
        .isZero();
    assertThat(out.toString()).contains("two-groups");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void theCommandLineToAFullDeviceExitsOneNamingTheReason() throws Exception {
    File full = new File("/dev/full");
    assumeTrue(full.exists(), "a device that is always full");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), AriesCli.class.getName(), "systems")
        .redirectOutput(ProcessBuilder.Redirect.to(full)).start();
    p.getOutputStream().close();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isEqualTo(CliError.FAILED_RUN);
    assertThat(err.lines().toList()).containsExactly(
        "aries systems: cannot write standard output: no space left on device (standard output)");
    assertThat(Files.isRegularFile(full.toPath())).isFalse(); // (still the device)
  }
}
