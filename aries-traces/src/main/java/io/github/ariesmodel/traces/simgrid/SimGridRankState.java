package io.github.ariesmodel.traces.simgrid;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.traces.TraceCall;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a rank's earlier lines decide about later ones: the default datatype size set by {@code init}, the
 * nonblocking requests still outstanding, and whether the rank has finalized.
 *
 * <p>SimGrid's traces have no request handles: {@code wait} and {@code test} name a request by its
 * (source, destination, tag), and SMPI's replay keeps a FIFO of requests per such key ({@code RequestStorage} in
 * {@code smpi_replay.cpp}); {@code waitall} waits for every outstanding request of the rank. This state does the same
 * and hands out handles (1, 2, ...) so the calls read carry request ids like a DUMPI trace's. Memory grows with the
 * requests outstanding at once, not with the trace.
 */
final class SimGridRankState {
  private record Key(int source, int destination, int tag) {
  }

  final int rank;
  final int ranks;
  int defaultBytes = SimGridDatatypes.DEFAULT_BYTES_BARE_INIT;
  /** The line of the rank's {@code finalize}, or 0 before it: no call may follow it. */
  long finalizedAtLine;
  private long nextRequest = 1;
  private final Map<Long, Key> outstanding = new LinkedHashMap<>();
  private final Map<Key, ArrayDeque<Long>> byKey = new HashMap<>();

  SimGridRankState(int rank, int ranks) {
    this.rank = rank;
    this.ranks = ranks;
  }

  long post(int source, int destination, int tag) {
    long id = nextRequest++;
    Key key = new Key(source, destination, tag);
    outstanding.put(id, key);
    byKey.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(id);
    return id;
  }

  /** The oldest outstanding request with this key, or {@link TraceCall#REQUEST_NULL}. */
  long peek(int source, int destination, int tag) {
    ArrayDeque<Long> q = byKey.get(new Key(source, destination, tag));
    return q == null || q.isEmpty() ? TraceCall.REQUEST_NULL : q.peekFirst();
  }

  /** Removes and returns the oldest outstanding request with this key, or {@link TraceCall#REQUEST_NULL}. */
  long complete(int source, int destination, int tag) {
    Key key = new Key(source, destination, tag);
    ArrayDeque<Long> q = byKey.get(key);
    if (q == null || q.isEmpty()) {
      return TraceCall.REQUEST_NULL;
    }
    long id = q.removeFirst();
    if (q.isEmpty()) {
      byKey.remove(key);
    }
    outstanding.remove(id);
    return id;
  }

  /** Removes and returns every outstanding request, oldest first. */
  ImmutableLongArray completeAll() {
    ImmutableLongArray all = ImmutableLongArray.copyOf(List.copyOf(outstanding.keySet()));
    outstanding.clear();
    byKey.clear();
    return all;
  }
}
