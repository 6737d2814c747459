package io.github.ariesmodel.traces.dumpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.traces.SharedTraces;
import io.github.ariesmodel.traces.TraceFormat;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening damaged or incomplete DUMPI traces: one clear error naming the file and, where it has one, the rank. */
class DumpiTraceErrorsTest {
  @TempDir
  Path dir;

  private Path copyAmgWithout(int missingRank) throws IOException {
    try (var files = Files.list(SharedTraces.amg())) {
      for (Path p : files.toList()) {
        if (!p.getFileName().toString().endsWith(String.format("-%04d.bin", missingRank))) {
          Files.copy(p, dir.resolve(p.getFileName()));
        }
      }
    }
    return dir;
  }

  @Test
  void aFilePrefixOutsideAsciiNamesItsRankFiles() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        io.github.ariesmodel.traces.FileNames.charset().equals(StandardCharsets.UTF_8),
        "the JVM names files in UTF-8 (sun.jnu.encoding, from a UTF-8 locale)");
    // the meta file's lines are read one char a byte: fileprefix=wörk was looked for as wÃ¶rk-0000.bin
    Path meta = Files.writeString(dir.resolve("w.meta"), "numprocs=1\nfileprefix=wörk\n", StandardCharsets.UTF_8);
    Files.createFile(dir.resolve("wörk-0000.bin"));
    assertThat(DumpiTrace.open(meta).ranks()).isEqualTo(1);
  }

  @Test
  void aMissingRankFileIsNamedWithItsRank() throws IOException {
    Path copy = copyAmgWithout(13);
    assertThatThrownBy(() -> DumpiTrace.open(copy)).isInstanceOfSatisfying(TraceFormatException.class, e -> {
      assertThat(e.rank()).isEqualTo(13);
      assertThat(e.file().getFileName().toString()).isEqualTo("dumpi-2014.03.03.14.55.00-0013.bin");
      assertThat(e.getMessage()).contains("rank 13").contains("rank file missing").contains("numprocs=27");
    });
  }

  /**
   * sst-dumpi's own readers (dumpi/bin/metadata.cc, dumpi2dumpi-meta.c) take a set of rank files zero-padded to another
   * width than libdumpi's four digits, trying 4 to 9 and then 0 to 3; so does this one (until stop 78 AMG's files
   * renamed to five digits were refused as "rank file missing"). The rank file beyond numprocs is looked for at the
   * width found, and a set complete at no width names the first missing file of the width with the most ranks first.
   */
  @Test
  void rankFilesZeroPaddedToAnotherWidthAreFoundAsSstDumpiFindsThem() throws IOException {
    Path copy = copyAmgWithout(-1);
    try (var files = Files.list(copy)) {
      for (Path p : files.toList()) {
        String name = p.getFileName().toString();
        if (name.endsWith(".bin")) {
          int rank = Integer.parseInt(name.substring(name.length() - 8, name.length() - 4));
          Files.move(p, copy.resolve(name.substring(0, name.length() - 8) + String.format("%05d.bin", rank)));
        }
      }
    }
    DumpiTrace trace = DumpiTrace.open(copy);
    assertThat(trace.ranks()).isEqualTo(27);
    assertThat(trace.rankFile(26).getFileName().toString()).isEqualTo("dumpi-2014.03.03.14.55.00-00026.bin");
    try (var calls = trace.open(26)) {
      assertThat(calls.read().kind()).isEqualTo(io.github.ariesmodel.traces.CallKind.INIT);
    }
    Files.delete(copy.resolve("dumpi-2014.03.03.14.55.00-00013.bin"));
    assertThatThrownBy(() -> DumpiTrace.open(copy)).isInstanceOfSatisfying(TraceFormatException.class, e -> {
      assertThat(e.rank()).isEqualTo(13);
      assertThat(e.file().getFileName().toString()).isEqualTo("dumpi-2014.03.03.14.55.00-00013.bin");
      assertThat(e.getMessage()).contains("rank file missing").contains("numprocs=27");
    });
  }

  @Test
  void aMetaFileWithoutNumprocsSaysSo() throws IOException {
    Path meta = Files.writeString(dir.resolve("x.meta"), "hostname=a\nfileprefix=x\n");
    assertThatThrownBy(() -> DumpiTrace.open(meta)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("x.meta").hasMessageContaining("numprocs");
  }

  @Test
  void aHugeNumprocsIsRefusedBeforeAnythingIsSizedByIt() throws IOException {
    // a one-line edit used to run the heap out (a list sized by numprocs before any rank file was looked for)
    Path meta = Files.writeString(dir.resolve("h.meta"), "numprocs=2147483647\nfileprefix=h\n");
    assertThatThrownBy(() -> DumpiTrace.open(meta)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("h.meta").hasMessageContaining("numprocs must be an integer in [1, 4194304], was");
  }

  @Test
  void aFilePrefixNoFileNameCanHoldIsNamedNotLeakedAsAPathError() throws IOException {
    Path meta = Files.writeString(dir.resolve("n.meta"), "numprocs=1\nfileprefix=ab\u0000cd\n");
    assertThatThrownBy(() -> DumpiTrace.open(meta)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("n.meta").hasMessageContaining("does not make a file name this system takes")
        .hasMessageNotContaining("Nul character");
  }

  @Test
  void aRankFileGivenForTheTraceSaysToGiveTheMetaFile() {
    Path bin = SharedTraces.amg().resolve("dumpi-2014.03.03.14.55.00-0000.bin");
    assertThatThrownBy(() -> DumpiTrace.open(bin)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("-0000.bin").hasMessageContaining("a DUMPI rank file; give the trace's .meta file or its"
            + " directory");
  }

  /**
   * The meta file is read line by line with bounds: a line longer than 65,536 characters (a huge file without a line
   * end) and more than 1,024 key=value lines are refused naming the file, the line and the bound; until stop 73 the
   * file was read whole, and a 4 GB one ran the heap out.
   */
  @Test
  void aMetaFileTooLongALineOrTooManyKeysIsRefusedNamingTheLineAndTheBound() throws IOException {
    Path longLine = Files.writeString(dir.resolve("l.meta"), "numprocs=1\nfileprefix=" + "x".repeat(70_000));
    assertThatThrownBy(() -> DumpiTrace.open(longLine)).isInstanceOf(TraceFormatException.class)
        .hasMessage(longLine + ", line 2: line longer than 65536 characters, the longest read (is it the right file?)");
    StringBuilder keys = new StringBuilder("numprocs=1\nfileprefix=k\n");
    for (int i = 0; i < 1100; i++) {
      keys.append("key").append(i).append("=1\n");
    }
    Path many = Files.writeString(dir.resolve("k.meta"), keys);
    Path sparse = dir.resolve("sparse.meta"); // 4 GB of NULs, no line end: the hunt's file
    try (var f = new java.io.RandomAccessFile(sparse.toFile(), "rw")) {
      f.setLength(4L << 30);
    }
    assertThatThrownBy(() -> DumpiTrace.open(sparse)).isInstanceOf(TraceFormatException.class)
        .hasMessage(sparse + ", line 1: line longer than 65536 characters, the longest read (is it the right file?)");
    assertThatThrownBy(() -> DumpiTrace.open(many)).isInstanceOf(TraceFormatException.class)
        .hasMessage(many + ", line 1025: more than 1024 key=value lines, the most a .meta file may have (libdumpi"
            + " writes eight; is it the right file?)");
  }

  /**
   * A key given twice in the meta file is refused naming both lines (the last was taken: numprocs=26 added below AMG's
   * numprocs=27 replayed 26 ranks without a word), and a rank file beyond numprocs, which says the meta file and the
   * rank files disagree, is refused naming it (it was left out in silence, with its rank's messages).
   */
  @Test
  void aKeyGivenTwiceOrARankFileBeyondNumprocsIsRefused() throws IOException {
    Path twice = Files.writeString(Files.createDirectory(dir.resolve("t")).resolve("t.meta"),
        "numprocs=1\nfileprefix=t\n\nNumProcs = 2\n");
    assertThatThrownBy(() -> DumpiTrace.open(twice)).isInstanceOf(TraceFormatException.class)
        .hasMessage(twice + ", line 4: key 'numprocs' again (first on line 1): a key may appear once");
    Path copy = copyAmgWithout(-1);
    Path meta = copy.resolve("dumpi-2014.03.03.14.55.00.meta");
    Files.writeString(meta, Files.readString(meta).replace("numprocs=27", "numprocs=26"));
    assertThatThrownBy(() -> DumpiTrace.open(copy)).isInstanceOfSatisfying(TraceFormatException.class, e -> {
      assertThat(e.rank()).isEqualTo(26);
      assertThat(e).hasMessage(copy.toAbsolutePath().resolve("dumpi-2014.03.03.14.55.00-0026.bin") + ", rank 26: a rank"
          + " file beyond the meta file's numprocs=26 (ranks 0 to 25): the meta file and the rank files disagree");
    });
  }

  @Test
  void aBadMetaLineNamesItsLineNumber() throws IOException {
    Path meta = Files.writeString(dir.resolve("y.meta"), "numprocs=2\nfileprefix=y\nthis is no pair\n");
    assertThatThrownBy(() -> DumpiTrace.open(meta)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("line 3").hasMessageContaining("'this is no pair'");
  }

  @Test
  void aDirectoryOrMetaFileIsDetectedAsDumpi() throws IOException {
    assertThat(TraceFormat.detect(SharedTraces.amg())).isEqualTo(TraceFormat.DUMPI);
    assertThat(TraceFormat.detect(SharedTraces.amg().resolve("dumpi-2014.03.03.14.55.00.meta")))
        .isEqualTo(TraceFormat.DUMPI);
    assertThat(DumpiTrace.open(SharedTraces.amg().resolve("dumpi-2014.03.03.14.55.00.meta")).ranks())
        .isEqualTo(27);
  }
}
