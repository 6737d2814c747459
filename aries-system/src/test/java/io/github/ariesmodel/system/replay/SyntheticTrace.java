package io.github.ariesmodel.system.replay;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.github.ariesmodel.traces.RankCoverage;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceFormat;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** A trace written in a test: each rank's calls as a list, read back in order (a SimGrid-like trace, no footer). */
final class SyntheticTrace implements Trace {
  private final List<List<TraceCall>> calls;

  private SyntheticTrace(List<List<TraceCall>> calls) {
    this.calls = calls;
  }

  /** @return a trace of {@code calls.size()} ranks, rank {@code r} making {@code calls.get(r)} */
  static Trace of(List<List<TraceCall>> calls) {
    return new SyntheticTrace(List.copyOf(calls));
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.SIMGRID;
  }

  @Override
  public Path source() {
    return Path.of("synthetic");
  }

  @Override
  public int ranks() {
    return calls.size();
  }

  @Override
  public RankTrace open(int rank) {
    Deque<TraceCall> left = new ArrayDeque<>(calls.get(rank));
    return new RankTrace() {
      @Override
      public int rank() {
        return rank;
      }

      @Override
      public TraceCall read() {
        return left.poll();
      }

      @Override
      public RankCoverage coverage() {
        return new RankCoverage(rank, ImmutableSortedMap.of(), ImmutableMap.of(), ImmutableSortedMap.of(),
            ImmutableSortedMap.of(), ImmutableSortedMap.of(), 0, true);
      }

      @Override
      public void close() {}
    };
  }
}
