package io.github.ariesmodel.traces.simgrid;

import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where each rank's lines are in a shared SimGrid trace, found in one pass when the trace is opened: the start of
 * every <em>run</em> of the rank (its lines up to the next line of another rank, blank and comment lines included),
 * with its line number. A rank's stream reads its runs and nothing else, so opening all N ranks of a trace reads the
 * file about twice in all, not N times.
 *
 * <p>Each rank's runs are kept as variable-length differences (offset, line number) from its run before, in a byte
 * array: a trace whose ranks' lines are interleaved (one run a line) costs a few bytes a line, one written rank by
 * rank a few bytes a rank. The index is immutable once built, so ranks may read on several threads.
 */
final class SharedTraceIndex {
  /** Bytes read at a time while indexing (the file is read straight through). */
  private static final int SCAN_BYTES = 1 << 16;

  /** Per rank, its runs' (offset, line number) deltas, each array exactly as long as they are. */
  private final byte[][] runs;

  private SharedTraceIndex(byte[][] runs) {
    this.runs = runs;
  }

  /**
   * Reads a shared trace once and indexes its ranks' runs.
   *
   * @param file the trace
   * @param maxRanks the largest rank count accepted
   * @return the index
   * @throws TraceFormatException if a line's rank is not a rank number below {@code maxRanks}, the trace has no action
   *     lines, or a rank below the largest has none
   */
  static SharedTraceIndex build(Path file, int maxRanks) throws IOException {
    Builder b = new Builder();
    long lineNumber = 0;
    int lastRank = -1;
    try (LineSource in = new LineSource(file, SCAN_BYTES)) {
      while (true) {
        long offset = in.position();
        String raw = in.next(TraceFormatException.NO_RANK, lineNumber + 1);
        if (raw == null) {
          break;
        }
        lineNumber++;
        String[] tokens = SimGridRankReader.tokens(raw);
        if (tokens == null) {
          continue;
        }
        int rank = SimGridRankReader.rankOf(file, lineNumber, raw, tokens[0], maxRanks - 1);
        if (rank != lastRank) {
          b.add(rank, offset, lineNumber);
          lastRank = rank;
        }
      }
    }
    if (b.ranks == 0) {
      throw TraceFormatException.ofFile(file, TraceFormatException.NO_RANK, "the trace has no action lines", null);
    }
    for (int r = 0; r < b.ranks; r++) {
      if (b.runBytes[r] == 0) {
        throw TraceFormatException.ofFile(file, r, "rank " + r + " has no lines, but the trace has ranks up"
            + " to " + (b.ranks - 1) + " (a rank missing?)", null);
      }
    }
    byte[][] runs = new byte[b.ranks][];
    for (int r = 0; r < b.ranks; r++) {
      runs[r] = Arrays.copyOf(b.runs[r], b.runBytes[r]);
    }
    return new SharedTraceIndex(runs);
  }

  /** @return the ranks: 0 to the largest rank named */
  int ranks() {
    return runs.length;
  }

  /** @return bytes the index holds for its runs */
  long indexBytes() {
    long n = 0;
    for (byte[] r : runs) {
      n += r.length;
    }
    return n;
  }

  /** @return a cursor over the rank's runs, first to last */
  Runs runs(int rank) {
    return new Runs(runs[rank]);
  }

  /** One rank's runs, read in order. */
  static final class Runs {
    private final byte[] data;
    private int at;
    private long offset;
    private long lineNumber;

    private Runs(byte[] data) {
      this.data = data;
    }

    /** Moves to the next run; false after the last. */
    boolean next() {
      if (at >= data.length) {
        return false;
      }
      offset += readVarLong();
      lineNumber += readVarLong();
      return true;
    }

    /** @return the byte offset of the run's first line */
    long offset() {
      return offset;
    }

    /** @return the line number (from 1) of the run's first line */
    long lineNumber() {
      return lineNumber;
    }

    private long readVarLong() {
      long v = 0;
      int shift = 0;
      while (true) {
        byte b = data[at++];
        v |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return v;
        }
        shift += 7;
      }
    }
  }

  private static final class Builder {
    byte[][] runs = new byte[16][];
    int[] runBytes = new int[16];
    long[] lastOffset = new long[16];
    long[] lastLine = new long[16];
    int ranks;

    void add(int rank, long offset, long lineNumber) {
      if (rank >= runs.length) {
        int n = Math.max(rank + 1, runs.length * 2);
        runs = Arrays.copyOf(runs, n);
        runBytes = Arrays.copyOf(runBytes, n);
        lastOffset = Arrays.copyOf(lastOffset, n);
        lastLine = Arrays.copyOf(lastLine, n);
      }
      ranks = Math.max(ranks, rank + 1);
      if (runs[rank] == null) {
        runs[rank] = new byte[16];
      }
      writeVarLong(rank, offset - lastOffset[rank]);
      writeVarLong(rank, lineNumber - lastLine[rank]);
      lastOffset[rank] = offset;
      lastLine[rank] = lineNumber;
    }

    private void writeVarLong(int rank, long v) {
      byte[] a = runs[rank];
      int n = runBytes[rank];
      if (n + 10 > a.length) {
        a = Arrays.copyOf(a, a.length * 2);
        runs[rank] = a;
      }
      while ((v & ~0x7FL) != 0) {
        a[n++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      a[n++] = (byte) v;
      runBytes[rank] = n;
    }
  }
}
