package io.github.ariesmodel.traces.simgrid;

import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.RankCoverage;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Streams one rank's actions from a SimGrid text trace, a line at a time: from the rank's own file, or from a shared
 * file, reading only the rank's runs of lines that the trace's {@link SharedTraceIndex} found. Lines are trimmed;
 * empty lines and lines starting with {@code #} are skipped, as SimGrid's {@code read_and_trim_line} does.
 */
final class SimGridRankReader implements RankTrace {
  private static final Pattern SEPARATORS = Pattern.compile("[ \\t]+");

  /** Bytes read at a time from a rank's own file (read straight through). */
  private static final int OWN_FILE_BYTES = 1 << 13;
  /**
   * Bytes read at a time from a shared file: a rank's run is often one line, and the next run lies past the other
   * ranks' lines, so a read fetches little more than the line.
   */
  private static final int SHARED_FILE_BYTES = 1 << 10;

  private final Path file;
  private final SharedTraceIndex.Runs runs;
  private final LineSource in;
  private final SimGridRankState state;
  private final Map<String, Long> recorded = new HashMap<>();
  private final Map<String, Long> unmodelled = new HashMap<>();
  private final Map<CallKind, Long> modelled = RankCoverage.newKindTally();
  private long unknownBytes;
  private long lineNumber;
  private boolean inRun;
  private boolean done;

  /**
   * @param file the rank's own file, or the shared file
   * @param index the shared file's index, or null for the rank's own file
   */
  SimGridRankReader(Path file, SharedTraceIndex index, int rank, int ranks) throws IOException {
    this.file = file;
    this.runs = index == null ? null : index.runs(rank);
    this.state = new SimGridRankState(rank, ranks);
    this.inRun = index == null;
    try {
      this.in = new LineSource(file, index == null ? OWN_FILE_BYTES : SHARED_FILE_BYTES);
    } catch (IOException e) {
      throw TraceFormatException.ofFile(file, rank, "cannot open trace file: " + e.getMessage(), e);
    }
  }

  /**
   * Splits a content line into tokens and reads its rank, or returns null for blank and comment lines.
   *
   * @return the tokens (token 0 the rank, token 1 the action), or null
   */
  static String[] tokens(String raw) {
    String line = raw.strip();
    if (line.isEmpty() || line.charAt(0) == '#') {
      return null;
    }
    return SEPARATORS.split(line);
  }

  /** Parses a line's rank token, or throws naming the line. */
  static int rankOf(Path file, long lineNumber, String line, String token, int maxRank) throws TraceFormatException {
    int rank;
    try {
      rank = Integer.parseInt(token);
    } catch (NumberFormatException e) {
      throw TraceFormatException.atLine(file, TraceFormatException.NO_RANK, lineNumber,
          "a line must start with its rank (a non-negative integer), found " + TraceFormatException.echo(token)
              + " in " + TraceFormatException.echo(line.strip()));
    }
    if (rank < 0 || rank > maxRank) {
      throw TraceFormatException.atLine(file, TraceFormatException.NO_RANK, lineNumber,
          "rank must be in 0.." + maxRank + ", was " + rank + " in " + TraceFormatException.echo(line.strip()));
    }
    if (!token.equals(Integer.toString(rank))) {
      // SimGrid's replay matches a line's first word as text against the rank's name, std::to_string(rank)
      // (replay_runner and get_action in src/xbt/xbt_replay.cpp): "00" or "+1" is no rank's line to it, skipped
      // (with a warning in a rank's own file, without one in a shared file); until stop 78 read as rank 0 or 1
      throw TraceFormatException.atLine(file, TraceFormatException.NO_RANK, lineNumber,
          "rank must be written " + TraceFormatException.echo(Integer.toString(rank)) + ", as SimGrid's replay names"
              + " rank " + rank + " (it compares the text: " + TraceFormatException.echo(token) + " is no rank's line"
              + " to it), was " + TraceFormatException.echo(token) + " in " + TraceFormatException.echo(line.strip()));
    }
    return rank;
  }

  @Override
  public int rank() {
    return state.rank;
  }

  @Override
  public TraceCall read() throws IOException {
    while (!done) {
      if (!inRun) {
        if (!runs.next()) {
          done = true;
          break;
        }
        in.seek(runs.offset());
        lineNumber = runs.lineNumber() - 1;
        inRun = true;
      }
      String raw = in.next(state.rank, lineNumber + 1);
      if (raw == null) {
        if (runs == null) {
          done = true;
        }
        inRun = false;
        continue;
      }
      lineNumber++;
      String[] tokens = tokens(raw);
      if (tokens == null) {
        continue;
      }
      int lineRank = rankOf(file, lineNumber, raw, tokens[0], runs != null ? state.ranks - 1 : Integer.MAX_VALUE);
      if (lineRank != state.rank) {
        if (runs != null) {
          inRun = false; // the run ends at another rank's line
          continue;
        }
        throw TraceFormatException.atLine(file, state.rank, lineNumber, "line of rank " + lineRank
            + " in rank " + state.rank + "'s file: " + TraceFormatException.echo(raw.strip()));
      }
      SimGridLine line = new SimGridLine(file, state.rank, lineNumber, raw.strip(), tokens);
      if (tokens.length < 2) {
        throw line.error("a line needs a rank and an action");
      }
      SimGridAction action = SimGridAction.named(tokens[1]);
      if (action == null) {
        throw line.error("unknown action " + TraceFormatException.echo(tokens[1]));
      }
      recorded.merge(action.traceName(), 1L, Long::sum);
      TraceCall call = action.parse(line, state);
      if (call == null) {
        unmodelled.merge(action.traceName(), 1L, Long::sum);
        continue;
      }
      if (state.finalizedAtLine != 0) {
        // MPI allows no call after MPI_Finalize; the replay made it, on a rank its MPI layer had finalized
        throw line.error("action '" + action.traceName() + "' after the rank's finalize (line "
            + state.finalizedAtLine + ")");
      }
      if (call.kind() == CallKind.FINALIZE) {
        state.finalizedAtLine = lineNumber;
      }
      modelled.merge(call.kind(), 1L, Long::sum);
      if (TraceCall.hasUnknownBytes(call)) {
        unknownBytes++;
      }
      return call;
    }
    return null;
  }

  @Override
  public RankCoverage coverage() {
    return RankCoverage.of(state.rank, recorded, modelled, unmodelled, Map.of(), Map.of(), unknownBytes, done);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
