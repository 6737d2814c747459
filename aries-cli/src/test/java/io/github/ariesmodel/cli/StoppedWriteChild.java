package io.github.ariesmodel.cli;

import io.github.ariesmodel.cli.report.AtomicFiles;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A process for {@link InterruptionTest}: starts an atomic write of the file its argument names, writes half of the new
 * content, says {@code writing} on standard output and waits, so that the test can stop it there with a signal.
 */
final class StoppedWriteChild {

  private StoppedWriteChild() {}

  public static void main(String[] args) throws Exception {
    AtomicFiles.writeText(Path.of(args[0]), w -> {
      w.write("the new content, half");
      w.flush();
      System.out.println("writing");
      System.out.flush();
      try {
        new CountDownLatch(1).await(); // until the signal
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }
}
