package io.github.ariesmodel.traces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.traces.dumpi.DumpiTrace;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TraceFormat#detect}: by name, else by the first bytes, never by reading a whole line. */
class TraceFormatTest {
  @TempDir
  Path dir;

  /**
   * A file without a line end is told by its first bytes: until stop 73 its first line was read whole, and a 4 GB
   * one ran the heap out before the SimGrid reader's 64 MiB line bound was met.
   */
  @Test
  void aHugeFileWithoutALineEndIsToldByItsFirstBytes() throws IOException {
    Path sparse = dir.resolve("sparse.txt");
    try (RandomAccessFile f = new RandomAccessFile(sparse.toFile(), "rw")) {
      f.setLength(4L << 30);
    }
    assertThat(TraceFormat.detect(sparse)).isEqualTo(TraceFormat.SIMGRID);
    assertThat(TraceFormat.detect(Files.writeString(dir.resolve("m"), "hostname=n1\nnumprocs=1\n")))
        .isEqualTo(TraceFormat.DUMPI);
    assertThat(TraceFormat.detect(Files.writeString(dir.resolve("h"), "hostname"))).isEqualTo(TraceFormat.SIMGRID);
  }
  /** A DUMPI meta file's first line after a byte-order mark still tells it (as the meta reader skips the mark). */
  @Test
  void aMetaFilesFirstLineAfterAByteOrderMarkTellsDumpi() throws IOException {
    Path m = dir.resolve("m");
    Files.write(m, new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, 'h', 'o', 's', 't', 'n', 'a', 'm', 'e', '=', 'x'});
    assertThat(TraceFormat.detect(m)).isEqualTo(TraceFormat.DUMPI);
  }
  /**
   * A path that exists but is no regular file (a FIFO, a device) is said to be one, not "no such trace file" (until
   * stop 73): a trace is read more than once, so a pipe cannot be one.
   */
  @Test
  void aPipeOrDeviceIsSaidToBeNoRegularFileNotMissing() throws IOException, InterruptedException {
    Path fifo = dir.resolve("f.txt");
    boolean made;
    try {
      made = new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;
    } catch (IOException e) {
      made = false;
    }
    Path device = Path.of("/dev/null");
    Assumptions.assumeTrue(made && Files.exists(device), "mkfifo and /dev/null (a POSIX system)");
    for (Path p : new Path[] {fifo, device}) {
      String not = p + ": not a regular file (a pipe, device or socket), but a ";
      String rest = " is read more than once (a first pass checks it, then the replay reads it): save it to a file and"
          + " give that";
      assertThatThrownBy(() -> TraceFormat.detect(p)).isInstanceOf(TraceFormatException.class)
          .hasMessage(not + "trace file" + rest);
      assertThatThrownBy(() -> DumpiTrace.open(p)).isInstanceOf(TraceFormatException.class)
          .hasMessage(not + "DUMPI .meta file" + rest);
      assertThatThrownBy(() -> SimGridTrace.open(p)).isInstanceOf(TraceFormatException.class)
          .hasMessage(not + "SimGrid trace file" + rest);
    }
    Path none = dir.resolve("none.txt");
    assertThatThrownBy(() -> TraceFormat.detect(none)).isInstanceOf(TraceFormatException.class)
        .hasMessage(none + ": no such trace file");
  }
}
