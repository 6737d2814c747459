package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.ariesmodel.cli.report.AtomicFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command stopped by a signal (Ctrl-C's SIGINT, SIGTERM) runs no {@code finally}, so the cleanup of a failed command
 * did not happen: {@code timeout -s INT 5 ./aries run mixed --out a/b} left {@code a/b} behind, empty, and a write
 * stopped midway its hidden staging file. Each test runs the CLI (or a write) in a JVM of its own, waits until it has
 * made its output directory (or said that it is writing), signals it, and looks at what is left. No timing: the signal
 * follows what the process did, and the run it stops takes far longer than the signal takes to arrive.
 */
class InterruptionTest {

  @TempDir Path tmp;

  @Test
  void aRunStoppedBySigintLeavesNoOutputDirectoryItMade() throws Exception {
    Path out = tmp.resolve("made").resolve("out");
    Process p = cli(List.of("run", "mixed", "--system", "two-groups", "--out", out.toString(), "-q"));
    awaitDirectory(p, out);
    signal(p, "INT");
    assertThat(p.waitFor()).isEqualTo(130);
    assertThat(listed(tmp)).as("what the stopped run left in " + tmp).isEmpty();
  }

  @Test
  void aSweepStoppedBySigtermBeforeItsFirstPointLeavesNoOutputDirectory() throws Exception {
    Path out = tmp.resolve("sweep");
    Path existing = Files.createDirectory(tmp.resolve("kept"));
    Process p = cli(List.of("sweep", "--job", "mixed", "--param", "seed=1,2", "--out", out.toString(), "-q"));
    awaitDirectory(p, out);
    signal(p, "TERM");
    assertThat(p.waitFor()).isEqualTo(143);
    // a directory that was there before is never removed
    assertThat(listed(tmp)).containsExactly(existing);
  }

  @Test
  void aWriteStoppedMidwayLeavesTheTargetAsItWasAndNoStagingFile() throws Exception {
    Path target = tmp.resolve("results.json");
    Files.writeString(target, "the old content");
    Process p = java(StoppedWriteChild.class, List.of(target.toString()));
    BufferedReader said = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    assertThat(said.readLine()).isEqualTo("writing");
    assertThat(listed(tmp)).hasSize(2); // (the target and the staging file being written)
    signal(p, "INT");
    assertThat(p.waitFor()).isEqualTo(130);
    assertThat(Files.readString(target)).isEqualTo("the old content");
    assertThat(listed(tmp)).containsExactly(target);
    assertThat(AtomicFiles.TEMP_PREFIX).startsWith("."); // (the staging file's name, looked for above as any file)
  }

  /** Every file and directory under {@code dir}, itself left out. */
  private static List<Path> listed(Path dir) throws IOException {
    List<Path> all = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      s.filter(f -> !f.equals(dir)).sorted().forEach(all::add);
    }
    return all;
  }

  private Process cli(List<String> args) throws IOException {
    return java(AriesCli.class, args);
  }

  private Process java(Class<?> main, List<String> args) throws IOException {
    assumeTrue(Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(Path.of("/usr/bin/kill")),
        "signals are sent with kill");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(args);
    ProcessBuilder b = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    if (main == AriesCli.class) {
      b.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    }
    Process p = b.start();
    p.getOutputStream().close();
    return p;
  }

  /** Waits until the process has made {@code dir}; fails if it ends first. */
  private static void awaitDirectory(Process p, Path dir) throws InterruptedException {
    while (!Files.isDirectory(dir)) {
      assertThat(p.isAlive()).as("the process is still running, before it made " + dir).isTrue();
      Thread.sleep(10);
    }
  }

  private static void signal(Process p, String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
    assertThat(kill.waitFor()).isZero();
  }
}
