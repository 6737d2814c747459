package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress bar is drawn only when standard error is a terminal, whatever standard input and output are:
 * {@code System.console()}, which it asked until stop 78, tells about those two, so {@code ./aries run mixed 2>log} at a
 * terminal drew the bar's carriage returns into the log. Each case is a link such as {@code /proc/self/fd/2} is, made
 * in a temporary directory and leading where standard error would.
 */
class ProgressBarTerminalTest {

  @TempDir Path tmp;

  private Path link(String target) throws Exception {
    return Files.createSymbolicLink(tmp.resolve("fd" + Math.abs(target.hashCode())), Path.of(target));
  }

  @Test
  void standardErrorRedirectedIsNoTerminalEvenWhenTheConsoleIs() throws Exception {
    for (String notATerminal : new String[] {"/home/u/run.log", "/dev/null", "pipe:[40213]", "socket:[977]"}) {
      assertThat(ProgressBar.isTerminal(link(notATerminal), true)).as(notATerminal).isFalse();
    }
  }

  @Test
  void standardErrorOnATerminalIsOneEvenWhenTheConsoleIsNot() throws Exception {
    for (String terminal : new String[] {"/dev/pts/3", "/dev/tty1", "/dev/ttyS0", "/dev/console"}) {
      assertThat(ProgressBar.isTerminal(link(terminal), false)).as(terminal).isTrue();
    }
  }

  @Test
  void withoutALinkToReadTheConsoleDecides() throws Exception {
    Path plain = Files.createFile(tmp.resolve("not-a-link"));
    assertThat(ProgressBar.isTerminal(plain, true)).isTrue();
    assertThat(ProgressBar.isTerminal(plain, false)).isFalse();
    assertThat(ProgressBar.isTerminal(tmp.resolve("missing"), false)).isFalse();
  }
}
