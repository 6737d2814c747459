package io.github.ariesmodel.traces.simgrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad SimGrid traces: one clear error naming the file, the rank and the line. */
class SimGridTraceErrorsTest {
  @TempDir
  Path dir;

  private static TraceFormatException readUntilError(Trace t, int rank) throws IOException {
    try (RankTrace s = t.open(rank)) {
      while (s.read() != null) {
        // keep reading
      }
    } catch (TraceFormatException e) {
      return e;
    }
    throw new AssertionError("no error reading rank " + rank);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "0 frobnicate 3|unknown action 'frobnicate'",
      "0 send 1 0|takes 3 to 4 arguments, found 2",
      "0 send 1 0 lots|size must be a number, was 'lots'",
      "0 send 7 0 10|destination must be in 0..1, was 7",
      "0 send 1 -4 10|tag must be in 0..2147483647, was -4",
      "0 send 1 -444 10|tag must be in 0..2147483647, was -444",
      "0 recv 1 -4 10|tag must be in 0..2147483647 or -444 (MPI_ANY_TAG), was -4",
      "0 wait 1 0 x|tag must be an integer, was 'x'",
      "0 send 1 99999999999 10|tag must be in 0..2147483647, was '99999999999'",
      "0 recv 1 -99999999999 10|tag must be in 0..2147483647 or -444 (MPI_ANY_TAG), was '-99999999999'",
      "0 send 99999999999 0 10|destination must be in 0..1, was '99999999999'",
      "0 sleep 1e12|seconds must be at most 9200000000 (9.2e9 s: its nanoseconds must fit a 64-bit count), was '1e12'",
      "0 waitall 1 2|action 'waitall' takes 0 to 1 arguments, found 2",
      "0 waitall -1|request count must be >= 0, was '-1'",
      "0 send 1 0 -10|size must be >= 0",
      "0 recv 1 0 10 99|unknown SMPI datatype id 99",
      "0 compute NaN|flops must be finite",
      "0 bcast 1e30|size is too large",
      "0 alltoallv 10 1 1 10 1|alltoallv' takes 6 to 8 arguments, found 5",
  })
  void aBadLineNamesFileRankAndLine(String badLine, String problem) throws IOException {
    Path file = Files.writeString(dir.resolve("bad.txt"), "0 init\n1 init\n\n" + badLine + "\n1 finalize\n");
    TraceFormatException e = readUntilError(SimGridTrace.open(file), 0);
    assertThat(e.getMessage()).startsWith(file + ", rank 0, line 4: ").contains(problem);
    assertThat(e.line()).isEqualTo(4);
  }

  /** Five ranks: a line of rank 0 between their inits and finalizes, read until its error. */
  private TraceFormatException fiveRankLineError(String line) throws IOException {
    Path file = Files.writeString(dir.resolve("five.txt"), "0 init\n1 init\n2 init\n3 init\n4 init\n" + line
        + "\n1 finalize\n");
    TraceFormatException e = readUntilError(SimGridTrace.open(file), 0);
    assertThat(e.getMessage()).startsWith(file + ", rank 0, line 6: ");
    return e;
  }

  @Test
  void reduceScatterCountsWhoseSumOverflowsAreRefusedAtTheirLine() throws IOException {
    // each count times the 32-byte datatype 27 fits a long, their sum does not: it gave "sendBytes must be >= 0"
    // (until stop 78; since then a per-rank count is an int, as SMPI's std::stoi reads it, and 2^22 ranks of
    // 2^31 - 1 elements of 32 bytes add up to less than 2^58, so the line is refused at its first count)
    TraceFormatException e = fiveRankLineError("0 reducescatter 7e16 7e16 7e16 7e16 7e16 0 27");
    assertThat(e.problem()).startsWith("receive count must be a whole number of elements up to 2147483647, as SMPI's"
        + " replay reads a per-rank count with std::stoi, which reads '7e16' as 7");
  }

  @Test
  void allgathervWithTheWrongNumberOfArgumentsIsRefused() throws IOException {
    // 5 ranks: send count and 5 receive counts (6), then 1 or 2 datatypes (7, 8), 5 displacements (11), or 2
    // datatypes and 5 displacements (13); 3 or 4 extra tokens were taken as displacements and never read
    for (String extra : new String[] {" 0 0 0", " 0 0 0 0", " 0 0 0 0 0 0", " 0 0 0 0 0 0 0 0"}) {
      TraceFormatException e = fiveRankLineError("0 allgatherv 10 10 10 10 10 10" + extra);
      assertThat(e.problem()).as(extra).startsWith("action 'allgatherv' takes 6, 7, 8, 11 or 13 arguments for 5"
          + " ranks, found " + (6 + extra.length() / 2));
    }
  }

  @Test
  void aCallAfterFinalizeIsRefusedAtItsLine() throws IOException {
    Path file = Files.writeString(dir.resolve("after.txt"), "0 init\n1 init\n0 finalize\n0 send 1 0 8\n"
        + "1 finalize\n");
    TraceFormatException e = readUntilError(SimGridTrace.open(file), 0);
    assertThat(e.getMessage()).startsWith(file + ", rank 0, line 4: ")
        .contains("action 'send' after the rank's finalize (line 3)");
  }

  @Test
  void controlCharactersOfTheFileAreEscapedInTheMessage() throws IOException {
    Path file = Files.writeString(dir.resolve("esc.txt"), "0 init\n0 fr\u001b[31mob\u0007 1\n");
    TraceFormatException e = readUntilError(SimGridTrace.open(file), 0);
    assertThat(e.getMessage()).contains("unknown action 'fr\\u001b[31mob\\u0007'").doesNotContain("\u001b")
        .doesNotContain("\u0007");
    // a number followed by a control character parsed (Java trims them) but was echoed raw when refused; since stop 78
    // it is no number, as SimGrid's strtod-based reading finds text after it
    Path size = Files.writeString(dir.resolve("size.txt"), "0 init\n1 init\n0 send 1 0 -1\u0007\u0000\n");
    e = readUntilError(SimGridTrace.open(size), 0);
    assertThat(e.getMessage()).contains("size must be a number, was '-1\\u0007\\u0000'").doesNotContain("\u0007")
        .doesNotContain("\u0000");
  }

  @Test
  void aDirectoryOrNullIsRefusedSayingWhat() {
    assertThatThrownBy(() -> SimGridTrace.open(dir)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("a directory, not a SimGrid trace file");
    assertThatThrownBy(() -> SimGridTrace.open(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("file must not be null");
    assertThatThrownBy(() -> io.github.ariesmodel.traces.dumpi.DumpiTrace.open(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("path must not be null");
  }

  @Test
  void aMissingRankIsNamed() throws IOException {
    Path file = Files.writeString(dir.resolve("gap.txt"), "0 init\n2 init\n3 init\n");
    assertThatThrownBy(() -> SimGridTrace.open(file)).isInstanceOfSatisfying(TraceFormatException.class, e -> {
      assertThat(e.rank()).isEqualTo(1);
      assertThat(e.getMessage()).contains("rank 1 has no lines").contains("up to 3");
    });
  }

  @Test
  void aLineWithoutARankNumberIsRefusedWhenOpening() throws IOException {
    Path file = Files.writeString(dir.resolve("norank.txt"), "0 init\np1 init\n");
    assertThatThrownBy(() -> SimGridTrace.open(file)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("line 2").hasMessageContaining("'p1'");
  }

  @Test
  void aPerRankFileHoldingAnotherRanksLineIsRefused() throws IOException {
    Path a = Files.writeString(dir.resolve("a.txt"), "0 init\n");
    Path b = Files.writeString(dir.resolve("b.txt"), "1 init\n0 finalize\n");
    Trace t = SimGridTrace.ofRankFiles(a, List.of(a, b));
    TraceFormatException e = readUntilError(t, 1);
    assertThat(e.getMessage()).startsWith(b + ", rank 1, line 2").contains("line of rank 0 in rank 1's file");
  }

  @Test
  void anIndexListingAMissingFileNamesIt() throws IOException {
    Path index = Files.writeString(dir.resolve("index"), "here.txt\nnot-there.txt\n");
    Files.writeString(dir.resolve("here.txt"), "0 init\n");
    assertThatThrownBy(() -> SimGridTrace.open(index)).isInstanceOfSatisfying(TraceFormatException.class, e -> {
      assertThat(e.rank()).isEqualTo(1);
      assertThat(e.getMessage()).contains("rank file missing: entry 2 of the index, 'not-there.txt', is neither "
          + Path.of("").toAbsolutePath().resolve("not-there.txt") + " (from the working directory) nor "
          + dir.toAbsolutePath().resolve("not-there.txt") + " (from the index's folder)");
    });
  }

  /**
   * An entry naming a directory is refused saying so, with the directory's path: it said the entry "is neither" the
   * directory's path "nor" the other, as if nothing were there (until stop 71). Relative (found from the index's
   * folder), absolute, and the one entry of a shared trace.
   */
  @Test
  void anIndexEntryNamingADirectorySaysItIsADirectoryNotATraceFile() throws IOException {
    Files.writeString(dir.resolve("here.txt"), "0 init\n");
    Path sub = Files.createDirectory(dir.resolve("sub-71"));
    String[][] cases = {{"here.txt\nsub-71\n", "rank file is a directory: entry 2 of the index, 'sub-71', is the"
        + " directory " + sub.toAbsolutePath() + " (from the index's folder), not a trace file"},
        {"here.txt\n" + sub.toAbsolutePath() + "\n", "rank file is a directory: entry 2 of the index, '"
            + sub.toAbsolutePath() + "', is the directory " + sub.toAbsolutePath() + ", not a trace file"},
        {"sub-71\n", "trace file is a directory: the index's one entry, 'sub-71', is the directory "
            + sub.toAbsolutePath() + " (from the index's folder), not a trace file"}};
    for (String[] c : cases) {
      Path index = Files.writeString(dir.resolve("index"), c[0]);
      assertThatThrownBy(() -> SimGridTrace.open(index)).as(c[0]).isInstanceOfSatisfying(TraceFormatException.class,
          e -> assertThat(e.getMessage()).contains(c[1]).doesNotContain("is neither").doesNotContain("\n"));
    }
  }

  /**
   * A carriage return (a Windows line end) or white space at an end of an entry is part of the name for SMPI's replay
   * ({@code smpi_read_replay} keeps the line whole), which then finds no file: so is it here, in one line saying why.
   * Such an index was read with the ends stripped (until stop 70), so it replayed here and not in SimGrid.
   */
  @Test
  void anEntryNamingNoFileForItsCarriageReturnOrWhiteSpaceIsRefusedSayingSo() throws IOException {
    Files.writeString(dir.resolve("r0.txt"), "0 init\n0 finalize\n");
    Files.writeString(dir.resolve("r1.txt"), "1 init\n1 finalize\n");
    String[][] cases = {
        {"r0.txt\r\nr1.txt\r\n", "rank file missing: entry 1 of the index, 'r0.txt\\u000d', is neither",
            "; the entry holds a carriage return (a Windows line end), which SimGrid's replay reads as part of the"
                + " file name as this reader does: end the index's lines with \\n alone (dos2unix)"},
        {"r0.txt\n  r1.txt\n", "rank file missing: entry 2 of the index, '  r1.txt', is neither",
            "; the entry begins with white space, which SimGrid's replay reads as part of the file name as this"
                + " reader does (it skips only empty lines)"},
        {"r0.txt \nr1.txt\n", "entry 1 of the index, 'r0.txt ', is neither", "; the entry ends with white space,"},
        {"r0.txt\n \t\nr1.txt\n", "entry 2 of the index, ' \\u0009', is neither", "; the entry is only white space,"}};
    for (String[] c : cases) {
      Path index = Files.writeString(dir.resolve("index"), c[0]);
      assertThatThrownBy(() -> SimGridTrace.open(index)).as(c[0]).isInstanceOfSatisfying(TraceFormatException.class,
          e -> assertThat(e.getMessage()).startsWith(index + ", rank ").contains(c[1]).contains(c[2])
              .doesNotContain("\r").doesNotContain("\n"));
    }
    // the one entry of a shared trace, without a rank
    Path one = Files.writeString(dir.resolve("one"), "r0.txt\r\n");
    assertThatThrownBy(() -> SimGridTrace.open(one)).isInstanceOfSatisfying(TraceFormatException.class,
        e -> assertThat(e.getMessage()).startsWith(one + ": trace file missing: the index's one entry, 'r0.txt\\u000d',"
            + " is neither").contains("carriage return"));
  }

  @Test
  void aFileWithControlCharactersIsNoIndexAndIsRefusedAtItsLineNotAsAPathError() throws IOException {
    // a NUL used to reach Path.resolve and come out as "Nul character not allowed" with the raw bytes
    Path bad = Files.write(dir.resolve("binary.txt"), new byte[] {'a', 0, 'b', '\n', 1, 2, 3, '\n'});
    assertThatThrownBy(() -> SimGridTrace.open(bad)).isInstanceOfSatisfying(TraceFormatException.class, e -> {
      assertThat(e.getMessage()).contains("binary.txt").contains("line 1").doesNotContain("Nul character");
    });
  }

  @Test
  void aLineOfAGigabyteIsRefusedNamingFileAndLineNotWithANegativeArraySize() throws IOException {
    // the line buffer doubled until 2^30 * 2 overflowed: NegativeArraySizeException. The gigabyte of NULs is a hole
    // of a sparse file; only the first 64 MiB of it are read now.
    long gigabyte = 1L << 30;
    Path shared = dir.resolve("huge.txt");
    Path own = dir.resolve("huge-rank0.txt");
    Path first = dir.resolve("huge-first.txt");
    for (Path p : new Path[] {shared, own, first}) {
      String head = p == first ? "" : "0 init\n0 compute ";
      try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(p.toFile(), "rw")) {
        f.write(head.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        f.setLength(head.length() + gigabyte);
      }
    }
    String problem = "line longer than 67108864 bytes (64 MiB, the longest line read)";
    // while scanning a shared file for its ranks, while deciding whether a file is an index, while reading a rank
    assertThatThrownBy(() -> SimGridTrace.open(shared)).isInstanceOf(TraceFormatException.class)
        .hasMessage(shared + ", line 2: " + problem);
    assertThatThrownBy(() -> SimGridTrace.open(first)).isInstanceOf(TraceFormatException.class)
        .hasMessage(first + ", line 1: " + problem);
    TraceFormatException e = readUntilError(SimGridTrace.ofRankFiles(own, List.of(own)), 0);
    assertThat(e.getMessage()).isEqualTo(own + ", rank 0, line 2: " + problem);
  }

  @Test
  void echoedTextIsAbbreviated() throws IOException {
    Path file = Files.writeString(dir.resolve("long.txt"), "0 " + "x".repeat(500) + "\n");
    TraceFormatException e = readUntilError(SimGridTrace.open(file), 0);
    assertThat(e.getMessage()).contains("x".repeat(77) + "...").doesNotContain("x".repeat(81));
  }
}
