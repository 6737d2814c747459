package io.github.ariesmodel.traces.simgrid;

import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.RankCoverage;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Streams one rank's actions from a SimGrid text trace, a line at a time: from the rank's own file, or from a shared
 * file, skipping the other ranks' lines. Lines are trimmed; empty lines and lines starting with {@code #} are skipped,
 * as SimGrid's {@code read_and_trim_line} does.
 */
final class SimGridRankReader implements RankTrace {
  private static final Pattern SEPARATORS = Pattern.compile("[ \\t]+");

  private final Path file;
  private final boolean shared;
  private final BufferedReader in;
  private final SimGridRankState state;
  private final Map<String, Long> recorded = new HashMap<>();
  private final Map<String, Long> unmodelled = new HashMap<>();
  private final Map<CallKind, Long> modelled = RankCoverage.newKindTally();
  private long unknownBytes;
  private long lineNumber;
  private boolean done;

  SimGridRankReader(Path file, boolean shared, int rank, int ranks) throws IOException {
    this.file = file;
    this.shared = shared;
    this.state = new SimGridRankState(rank, ranks);
    try {
      this.in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1);
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
    return rank;
  }

  @Override
  public int rank() {
    return state.rank;
  }

  @Override
  public TraceCall read() throws IOException {
    while (!done) {
      String raw = in.readLine();
      if (raw == null) {
        done = true;
        break;
      }
      lineNumber++;
      String[] tokens = tokens(raw);
      if (tokens == null) {
        continue;
      }
      int lineRank = rankOf(file, lineNumber, raw, tokens[0], shared ? state.ranks - 1 : Integer.MAX_VALUE);
      if (lineRank != state.rank) {
        if (shared) {
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
      modelled.merge(call.kind(), 1L, Long::sum);
      if (call instanceof TraceCall.PointToPoint p && p.bytes() < 0) {
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
