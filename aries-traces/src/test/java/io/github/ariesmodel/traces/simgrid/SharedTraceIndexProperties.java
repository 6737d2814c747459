package io.github.ariesmodel.traces.simgrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A shared trace read through its index gives each rank what a file of its own lines gives, for ranks written line by
 * line, rank by rank or anything between, with blank and comment lines and every line end; {@link LineSource} reads
 * the lines {@link BufferedReader#readLine()} reads, from the start or from any line start, whatever its buffer.
 */
class SharedTraceIndexProperties {
  private static final String[] ENDS = {"\n", "\r\n", "\r"};
  private static Path dir;

  @BeforeAll
  static void temp() throws IOException {
    dir = Files.createTempDirectory("simgrid-index");
  }

  @AfterAll
  static void clean() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.delete(f);
      }
    }
    Files.delete(dir);
  }

  @Test
  void lineSourceReadsWhatReadLineReadsFromAnyLineStart() {
    qt().withExamples(300).forAll(longs().all()).checkAssert(seed -> {
      Random random = new Random(seed);
      StringBuilder text = new StringBuilder();
      int lines = random.nextInt(30);
      for (int i = 0; i < lines; i++) {
        int length = random.nextInt(5) == 0 ? random.nextInt(200) : random.nextInt(12);
        for (int k = 0; k < length; k++) {
          text.append((char) ('a' + random.nextInt(26)));
        }
        if (i < lines - 1 || random.nextBoolean()) {
          text.append(ENDS[random.nextInt(ENDS.length)]);
        }
      }
      int bufferBytes = 1 + random.nextInt(64);
      try {
        Path file = Files.writeString(dir.resolve("lines.txt"), text, StandardCharsets.ISO_8859_1);
        List<String> expected = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new StringReader(text.toString()))) {
          String line;
          while ((line = in.readLine()) != null) {
            expected.add(line);
          }
        }
        List<String> read = new ArrayList<>();
        List<Long> starts = new ArrayList<>();
        try (LineSource in = new LineSource(file, bufferBytes)) {
          while (true) {
            long start = in.position();
            String line = in.next(TraceFormatException.NO_RANK, read.size() + 1);
            if (line == null) {
              break;
            }
            starts.add(start);
            read.add(line);
          }
          assertThat(read).as("buffer %d", bufferBytes).isEqualTo(expected);
          List<Integer> order = new ArrayList<>();
          for (int i = 0; i < read.size(); i++) {
            order.add(i);
          }
          Collections.shuffle(order, random);
          for (int i : order) {
            in.seek(starts.get(i));
            assertThat(in.next(TraceFormatException.NO_RANK, i + 1)).as("line %d after a seek", i).isEqualTo(expected.get(i));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Test
  void eachRankReadsWhatItsOwnFileGives() {
    qt().withExamples(150).forAll(longs().all()).checkAssert(seed -> {
      Random random = new Random(seed);
      int ranks = 1 + random.nextInt(6);
      List<List<String>> own = new ArrayList<>();
      for (int r = 0; r < ranks; r++) {
        List<String> l = new ArrayList<>();
        l.add(r + " init");
        int n = random.nextInt(60);
        for (int i = 0; i < n; i++) {
          l.add(random.nextBoolean() ? r + " compute " + random.nextInt(1000)
              : r + "\tsleep  0." + random.nextInt(100));
        }
        l.add(r + " finalize");
        own.add(l);
      }
      // merge the ranks' lines in a random order, in runs of random length, with blank and comment lines between
      int[] next = new int[ranks];
      StringBuilder shared = new StringBuilder();
      int maxRun = 1 + random.nextInt(random.nextBoolean() ? 3 : 80);
      int left = own.stream().mapToInt(List::size).sum();
      while (left > 0) {
        int r = random.nextInt(ranks);
        for (int k = 1 + random.nextInt(maxRun); k > 0 && next[r] < own.get(r).size(); k--, left--) {
          if (random.nextInt(8) == 0) {
            shared.append(random.nextBoolean() ? "# note" : "  ").append(ENDS[random.nextInt(ENDS.length)]);
          }
          shared.append(own.get(r).get(next[r]++)).append(ENDS[random.nextInt(ENDS.length)]);
        }
      }
      try {
        Path file = Files.writeString(dir.resolve("shared.txt"), shared, StandardCharsets.ISO_8859_1);
        List<Path> rankFiles = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
          rankFiles.add(Files.write(dir.resolve("rank" + r + ".txt"), own.get(r)));
        }
        SimGridTrace sharedTrace = SimGridTrace.open(file);
        SimGridTrace split = SimGridTrace.ofRankFiles(rankFiles.get(0), rankFiles);
        assertThat(sharedTrace.isShared()).isTrue();
        assertThat(sharedTrace.ranks()).isEqualTo(ranks);
        for (int r = ranks - 1; r >= 0; r--) {
          assertThat(readAll(sharedTrace, r)).as("rank %d", r).isEqualTo(readAll(split, r))
              .hasSize(own.get(r).size());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Test
  void aBadLineDeepInASharedFileIsNamedByItsLineNumber() {
    qt().withExamples(100).forAll(longs().all()).checkAssert(seed -> {
      Random random = new Random(seed);
      int ranks = 2 + random.nextInt(4);
      int badRank = random.nextInt(ranks);
      List<String> lines = new ArrayList<>();
      for (int r = 0; r < ranks; r++) {
        lines.add(r + " init");
      }
      int n = 5 + random.nextInt(300);
      int badAt = -1;
      for (int i = 0; i < n; i++) {
        int r = random.nextInt(ranks);
        if (random.nextInt(10) == 0) {
          lines.add("");
        }
        if (badAt < 0 && r == badRank && random.nextInt(4) == 0) {
          lines.add(r + " compute lots");
          badAt = lines.size();
        } else {
          lines.add(r + " compute 10");
        }
      }
      if (badAt < 0) {
        lines.add(badRank + " compute lots");
        badAt = lines.size();
      }
      try {
        Path file = Files.write(dir.resolve("bad.txt"), lines);
        SimGridTrace trace = SimGridTrace.open(file);
        TraceFormatException error = null;
        try (RankTrace s = trace.open(badRank)) {
          while (s.read() != null) {
            // read on to the bad line
          }
        } catch (TraceFormatException e) {
          error = e;
        }
        assertThat(error).isNotNull();
        assertThat(error.line()).isEqualTo(badAt);
        assertThat(error.getMessage()).startsWith(file + ", rank " + badRank + ", line " + badAt + ": ");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Test
  void anInterleavedTraceCostsAFewBytesALineToIndex() throws IOException {
    int ranks = 256;
    StringBuilder text = new StringBuilder();
    int perRank = 40;
    for (int i = 0; i < perRank; i++) {
      for (int r = 0; r < ranks; r++) {
        text.append(r).append(" compute 1000\n");
      }
    }
    Path file = Files.writeString(dir.resolve("interleaved.txt"), text, StandardCharsets.ISO_8859_1);
    SharedTraceIndex index = SharedTraceIndex.build(file, SimGridTrace.MAX_RANKS);
    assertThat(index.ranks()).isEqualTo(ranks);
    long lines = (long) ranks * perRank;
    // each run is one line: an offset step of about 4 KB (2 bytes) and a line step of 256 (2 bytes)
    assertThat(index.indexBytes()).isBetween(2 * lines, 4 * lines);
  }

  private static List<TraceCall> readAll(SimGridTrace trace, int rank) throws IOException {
    List<TraceCall> calls = new ArrayList<>();
    try (RankTrace s = trace.open(rank)) {
      TraceCall c;
      while ((c = s.read()) != null) {
        calls.add(c);
      }
    }
    return calls;
  }
}
