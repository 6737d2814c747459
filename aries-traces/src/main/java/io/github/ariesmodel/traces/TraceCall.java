package io.github.ariesmodel.traces;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.primitives.ImmutableIntArray;
import com.google.common.primitives.ImmutableLongArray;

/**
 * One recorded MPI call of one rank, in a model that does not depend on the trace format.
 *
 * <p>Conventions shared by every record:
 * <ul>
 *   <li>Ranks are ranks in the call's communicator; {@link #ANY_SOURCE} and {@link #PROC_NULL} are the wildcards.
 *   <li>Communicators are small integers: {@link #COMM_WORLD}, {@link #COMM_SELF}, and format-assigned ids of
 *       communicators the application created ({@code >= 2}); {@link #COMM_NULL} when the trace says none.
 *   <li>Sizes are in bytes (count times the datatype's size); {@link #UNKNOWN_BYTES} when the trace does not say the
 *       datatype's size (a derived type missing from the trace's size table, or a receive size SimGrid leaves to a
 *       probe).
 *   <li>Requests are per-rank handles as the format stores them: a handle may be reused once its request completed.
 *       {@link #REQUEST_NULL} is the null request.
 *   <li>Windows of one-sided calls are per-rank ids as the format stores them, {@link #WIN_NULL} the null window;
 *       window assertions are the model's {@code MODE_*} bits, into which a format's own encoding is translated.
 *   <li>{@link #timing()} holds entry and exit times when the format records them (wall clock, or CPU time where a
 *       DUMPI trace recorded no wall-clock times: {@link CallTiming#clock()}).
 * </ul>
 */
public sealed interface TraceCall {
  /** Wildcard source of a receive or probe. */
  int ANY_SOURCE = -1;
  /** Wildcard tag of a receive or probe. */
  int ANY_TAG = -1;
  /** The null process: a send or receive with it completes at once and moves nothing. */
  int PROC_NULL = -2;
  /** Root argument of an intercommunicator collective on the root's side ({@code MPI_ROOT}). */
  int ROOT = -3;
  /** A byte count the trace does not determine. */
  long UNKNOWN_BYTES = -1;

  /**
   * Whether a call moves a byte count its trace does not give ({@link #UNKNOWN_BYTES} in any of its sizes, per-rank
   * ones included): what a reader's coverage counts as a call of unknown size.
   *
   * @param call a call
   * @return whether any of its sizes is unknown
   */
  static boolean hasUnknownBytes(TraceCall call) {
    if (call instanceof PointToPoint p) {
      return p.bytes() < 0;
    }
    if (call instanceof SendReceive s) {
      return s.sendBytes() < 0 || s.receiveBytes() < 0;
    }
    if (call instanceof Collective c) {
      return c.sendBytes() < 0 || c.receiveBytes() < 0 || c.sendBytesPerRank().stream().anyMatch(b -> b < 0)
          || c.receiveBytesPerRank().stream().anyMatch(b -> b < 0);
    }
    return false;
  }
  /** The null request handle. */
  long REQUEST_NULL = -1;
  /** {@code MPI_COMM_WORLD}. */
  int COMM_WORLD = 0;
  /** {@code MPI_COMM_SELF}. */
  int COMM_SELF = 1;
  /** {@code MPI_COMM_NULL} (or a communicator the trace marks as erroneous). */
  int COMM_NULL = -1;
  /** {@code MPI_GROUP_NULL} (or a group the trace marks as erroneous). */
  int GROUP_NULL = -1;
  /** {@code MPI_GROUP_EMPTY}. */
  int GROUP_EMPTY = -2;
  /** {@code MPI_WIN_NULL} (or a window the trace marks as erroneous). */
  int WIN_NULL = -1;
  /**
   * Window assertion {@code MPI_MODE_NOCHECK}, as this model's own bit (not the MPI library's value; a format's
   * encoding is translated into these bits).
   */
  int MODE_NOCHECK = 1;
  /** Window assertion {@code MPI_MODE_NOSTORE}, as this model's own bit. */
  int MODE_NOSTORE = 2;
  /** Window assertion {@code MPI_MODE_NOPUT}, as this model's own bit. */
  int MODE_NOPUT = 4;
  /** Window assertion {@code MPI_MODE_NOPRECEDE}, as this model's own bit. */
  int MODE_NOPRECEDE = 8;
  /** Window assertion {@code MPI_MODE_NOSUCCEED}, as this model's own bit. */
  int MODE_NOSUCCEED = 16;

  /** What kind of call this is. */
  CallKind kind();

  /** Wall-clock entry and exit times, or {@link CallTiming#NONE}. */
  CallTiming timing();

  private static void checkFamily(CallKind kind, CallKind.Family family) {
    checkNotNull(kind, "kind");
    checkArgument(kind.family() == family, "kind must be of family %s, was %s (%s)", family, kind, kind.family());
  }

  private static void checkBytes(String name, long bytes) {
    checkArgument(bytes >= 0 || bytes == UNKNOWN_BYTES, "%s must be >= 0 or UNKNOWN_BYTES (-1), was %s", name, bytes);
  }

  private static void checkBytes(String name, ImmutableLongArray bytes) {
    checkNotNull(bytes, name);
    for (int i = 0; i < bytes.length(); i++) {
      checkBytes(name + "[" + i + "]", bytes.get(i));
    }
  }

  /**
   * {@link CallKind#INIT} or {@link CallKind#FINALIZE}.
   *
   * @param kind INIT or FINALIZE
   * @param timing wall-clock times
   */
  record Lifecycle(CallKind kind, CallTiming timing) implements TraceCall {
    /** Validates the kind's family. */
    public Lifecycle {
      checkFamily(kind, CallKind.Family.LIFECYCLE);
      checkNotNull(timing, "timing");
    }
  }

  /**
   * A send, receive or probe with one peer.
   *
   * <p>The persistent kinds (SEND_INIT, BSEND_INIT, SSEND_INIT, RECV_INIT) create a request that {@link RequestCall}s
   * start: their {@code request} is the handle the starts, waits and tests name.
   *
   * @param kind SEND, ISEND, BSEND, IBSEND, SSEND, ISSEND, RECV, IRECV, PROBE, IPROBE, SEND_INIT, BSEND_INIT,
   *     SSEND_INIT or RECV_INIT
   * @param peer destination of a send, source of a receive or probe ({@link #ANY_SOURCE}, {@link #PROC_NULL} allowed)
   * @param tag message tag ({@link #ANY_TAG} allowed for receives and probes)
   * @param communicator communicator id
   * @param bytes bytes sent, or the receive buffer's size in bytes (a receive may match a shorter message);
   *     for a probe, the probed message's size when the trace recorded its status
   * @param request request handle of a nonblocking or persistent call, {@link #REQUEST_NULL} for blocking ones
   * @param timing wall-clock times
   */
  record PointToPoint(CallKind kind, int peer, int tag, int communicator, long bytes, long request,
      CallTiming timing) implements TraceCall {
    /** Validates the kind's family and the byte count. */
    public PointToPoint {
      checkFamily(kind, CallKind.Family.POINT_TO_POINT);
      checkBytes("bytes", bytes);
      checkNotNull(timing, "timing");
    }

    /** Whether this call sends, or creates a persistent send (every kind but RECV, IRECV, PROBE, IPROBE, RECV_INIT). */
    public boolean isSend() {
      return kind != CallKind.RECV && kind != CallKind.IRECV && kind != CallKind.PROBE && kind != CallKind.IPROBE
          && kind != CallKind.RECV_INIT;
    }

    /** Whether this call creates a persistent request (SEND_INIT, BSEND_INIT, SSEND_INIT or RECV_INIT). */
    public boolean isPersistentInit() {
      return kind == CallKind.SEND_INIT || kind == CallKind.BSEND_INIT || kind == CallKind.SSEND_INIT
          || kind == CallKind.RECV_INIT;
    }
  }

  /**
   * {@code MPI_Sendrecv}: a send and a receive that complete together.
   *
   * @param destination rank sent to
   * @param sendTag tag of the message sent
   * @param sendBytes bytes sent
   * @param source rank received from ({@link #ANY_SOURCE} allowed)
   * @param receiveTag tag matched ({@link #ANY_TAG} allowed)
   * @param receiveBytes receive buffer size in bytes
   * @param communicator communicator id
   * @param timing wall-clock times
   */
  record SendReceive(int destination, int sendTag, long sendBytes, int source, int receiveTag, long receiveBytes,
      int communicator, CallTiming timing) implements TraceCall {
    /** Validates the byte counts. */
    public SendReceive {
      checkBytes("sendBytes", sendBytes);
      checkBytes("receiveBytes", receiveBytes);
      checkNotNull(timing, "timing");
    }

    @Override
    public CallKind kind() {
      return CallKind.SENDRECV;
    }
  }

  /**
   * A wait or test on requests.
   *
   * @param kind WAIT, WAITALL, WAITANY, WAITSOME, TEST, TESTALL, TESTANY or TESTSOME
   * @param requests the requests passed to the call, in order
   * @param completed the requests the call completed in the traced run, when {@code outcomeRecorded}
   * @param outcomeRecorded whether the trace says which requests completed (DUMPI does through flags and indices;
   *     SimGrid's {@code test} does not)
   * @param timing wall-clock times
   */
  record Completion(CallKind kind, ImmutableLongArray requests, ImmutableLongArray completed, boolean outcomeRecorded,
      CallTiming timing) implements TraceCall {
    /** Validates the kind's family. */
    public Completion {
      checkFamily(kind, CallKind.Family.COMPLETION);
      checkNotNull(requests, "requests");
      checkNotNull(completed, "completed");
      checkArgument(outcomeRecorded || completed.isEmpty(),
          "completed must be empty when the outcome is not recorded, was %s", completed);
      checkNotNull(timing, "timing");
    }
  }

  /**
   * The buffer of buffered-mode sends attached or detached.
   *
   * @param kind BUFFER_ATTACH or BUFFER_DETACH
   * @param bytes the buffer's size in bytes (as the trace gives it for a detach)
   * @param timing wall-clock times
   */
  record BufferCall(CallKind kind, long bytes, CallTiming timing) implements TraceCall {
    /** Validates the kind's family and the size. */
    public BufferCall {
      checkFamily(kind, CallKind.Family.BUFFER);
      checkArgument(bytes >= 0, "bytes must be >= 0, was %s", bytes);
      checkNotNull(timing, "timing");
    }
  }

  /**
   * A start, release or cancellation of requests.
   *
   * @param kind START (one request), STARTALL (the requests in order), REQUEST_FREE or CANCEL (one request)
   * @param requests the requests passed to the call, in order ({@link #REQUEST_NULL} where the trace says none)
   * @param timing wall-clock times
   */
  record RequestCall(CallKind kind, ImmutableLongArray requests, CallTiming timing) implements TraceCall {
    /** Validates the kind's family, and that START, REQUEST_FREE and CANCEL name one request. */
    public RequestCall {
      checkFamily(kind, CallKind.Family.REQUEST);
      checkNotNull(requests, "requests");
      checkArgument(kind == CallKind.STARTALL || requests.length() == 1,
          "requests of %s must hold one request, was %s", kind, requests);
      checkNotNull(timing, "timing");
    }
  }

  /**
   * A collective operation on a communicator.
   *
   * <p>Byte counts follow the MPI arguments: {@code sendBytes} and {@code receiveBytes} are per peer for
   * gather/scatter/allgather/alltoall (the MPI {@code sendcount}/{@code recvcount}), the whole buffer for bcast,
   * reduce, allreduce and scan. The v-variants and reduce_scatter carry per-rank arrays instead (indexed by rank in
   * the communicator), which are empty where MPI ignores them (the counts of a non-root rank).
   *
   * @param kind a collective kind
   * @param communicator communicator id
   * @param root root rank of rooted collectives, -1 for the others
   * @param sendBytes bytes sent per peer or in total (see above), 0 when the kind sends nothing
   * @param receiveBytes bytes received per peer or in total, 0 when none
   * @param sendBytesPerRank per-rank send sizes of SCATTERV (root) and ALLTOALLV
   * @param receiveBytesPerRank per-rank receive sizes of GATHERV (root), ALLGATHERV, ALLTOALLV and REDUCE_SCATTER
   * @param reductionFlops floating-point work of the reduction when the trace states it (SimGrid), else 0
   * @param timing wall-clock times
   */
  record Collective(CallKind kind, int communicator, int root, long sendBytes, long receiveBytes,
      ImmutableLongArray sendBytesPerRank, ImmutableLongArray receiveBytesPerRank, double reductionFlops,
      CallTiming timing) implements TraceCall {
    /** Validates the kind's family and the byte counts. */
    public Collective {
      checkFamily(kind, CallKind.Family.COLLECTIVE);
      checkBytes("sendBytes", sendBytes);
      checkBytes("receiveBytes", receiveBytes);
      checkBytes("sendBytesPerRank", sendBytesPerRank);
      checkBytes("receiveBytesPerRank", receiveBytesPerRank);
      checkArgument(reductionFlops >= 0 && !Double.isInfinite(reductionFlops),
          "reductionFlops must be finite and >= 0, was %s", reductionFlops);
      checkNotNull(timing, "timing");
    }
  }

  /**
   * Creation or release of a communicator.
   *
   * @param kind COMM_SPLIT, COMM_DUP or COMM_FREE
   * @param communicator the parent communicator (the one freed, for COMM_FREE)
   * @param newCommunicator the id the new communicator gets, {@link #COMM_NULL} for COMM_FREE or a split colour of
   *     {@code MPI_UNDEFINED}
   * @param color split colour (0 for DUP and FREE)
   * @param key split key (0 for DUP and FREE)
   * @param timing wall-clock times
   */
  record CommunicatorCall(CallKind kind, int communicator, int newCommunicator, int color, int key,
      CallTiming timing) implements TraceCall {
    /** Validates the kind's family. */
    public CommunicatorCall {
      checkFamily(kind, CallKind.Family.COMMUNICATOR);
      checkNotNull(timing, "timing");
    }
  }

  /**
   * A communicator with a virtual topology. The new communicator holds the old one's first ranks, in order (the
   * process order is kept: no reordering), or is {@link #COMM_NULL} at a rank left out.
   *
   * @param kind CART_CREATE, CART_SUB or GRAPH_CREATE
   * @param communicator the old communicator
   * @param newCommunicator the id the new communicator gets, {@link #COMM_NULL} where the calling rank is left out
   * @param dims CART_CREATE: the grid's extent in each dimension (row-major: the last varies fastest); CART_SUB: 1 for
   *     each dimension kept, 0 for each dropped; GRAPH_CREATE: one entry, the graph's node count
   * @param timing wall-clock times
   */
  record Topology(CallKind kind, int communicator, int newCommunicator, ImmutableIntArray dims, CallTiming timing)
      implements TraceCall {
    /** Validates the kind's family and the dimensions. */
    public Topology {
      checkFamily(kind, CallKind.Family.TOPOLOGY);
      checkNotNull(dims, "dims");
      for (int i = 0; i < dims.length(); i++) {
        int d = dims.get(i);
        checkArgument(kind == CallKind.CART_SUB ? d == 0 || d == 1 : d >= 0,
            "dims[%s] must be %s, was %s", i, kind == CallKind.CART_SUB ? "0 or 1" : ">= 0", d);
      }
      checkArgument(kind != CallKind.GRAPH_CREATE || dims.length() == 1,
          "dims of GRAPH_CREATE must hold the node count alone, was %s", dims);
      checkNotNull(timing, "timing");
    }
  }

  /**
   * A group call, or the creation of a communicator from a group. Groups are per-rank ids as the format stores them,
   * {@link #GROUP_EMPTY} and {@link #GROUP_NULL} the predefined ones.
   *
   * @param kind COMM_GROUP (the group of {@code communicator}), GROUP_INCL and GROUP_EXCL ({@code group} and
   *     {@code ranks}), GROUP_UNION, GROUP_INTERSECTION and GROUP_DIFFERENCE ({@code group} and {@code otherGroup}),
   *     GROUP_FREE ({@code group}), COMM_CREATE ({@code communicator} and {@code group})
   * @param communicator the communicator of COMM_GROUP and COMM_CREATE, else {@link #COMM_NULL}
   * @param group the group the call reads (GROUP_NULL for COMM_GROUP)
   * @param otherGroup the second group of a union, intersection or difference, else GROUP_NULL
   * @param ranks ranks in {@code group} of GROUP_INCL and GROUP_EXCL, else empty
   * @param result the new group's id, or for COMM_CREATE the new communicator's ({@link #COMM_NULL} where the calling
   *     rank is not a member); GROUP_NULL for GROUP_FREE
   * @param timing wall-clock times
   */
  record GroupCall(CallKind kind, int communicator, int group, int otherGroup, ImmutableIntArray ranks, int result,
      CallTiming timing) implements TraceCall {
    /** Validates the kind's family and the ranks. */
    public GroupCall {
      checkFamily(kind, CallKind.Family.GROUP);
      checkNotNull(ranks, "ranks");
      for (int i = 0; i < ranks.length(); i++) {
        checkArgument(ranks.get(i) >= 0, "ranks[%s] must be >= 0, was %s", i, ranks.get(i));
      }
      checkNotNull(timing, "timing");
    }
  }

  /**
   * A call that creates, frees or synchronises a window of one-sided communication. Each field applies to some kinds
   * and holds a fixed value for the others.
   *
   * @param kind WIN_CREATE, WIN_FREE, WIN_FENCE, WIN_LOCK, WIN_UNLOCK, WIN_POST, WIN_START, WIN_COMPLETE, WIN_WAIT,
   *     WIN_TEST or WIN_GET_GROUP
   * @param window the window's per-rank id as the format stores it (for WIN_CREATE the new window's), or
   *     {@link #WIN_NULL}
   * @param communicator the communicator of WIN_CREATE, else {@link #COMM_NULL}
   * @param bytes the window's size in bytes for WIN_CREATE, else 0
   * @param displacementUnit WIN_CREATE's {@code disp_unit} in bytes (a target displacement is counted in these), else 1
   * @param group the group of WIN_POST (its origins) and WIN_START (its targets), a group id as {@link GroupCall}'s
   *     ({@link #GROUP_EMPTY} allowed); the group WIN_GET_GROUP returns; else {@link #GROUP_NULL}
   * @param target the target rank (a rank in the window's communicator) of WIN_LOCK and WIN_UNLOCK
   *     ({@link #PROC_NULL} allowed), else -1
   * @param exclusive for WIN_LOCK: true for {@code MPI_LOCK_EXCLUSIVE}, false for {@code MPI_LOCK_SHARED}; else false
   * @param assertion the {@code MODE_*} bits of WIN_FENCE, WIN_LOCK, WIN_POST and WIN_START, else 0
   * @param completed for WIN_TEST: the flag the call returned (true when the exposure epoch was over); else false
   * @param timing wall-clock times
   */
  record WindowCall(CallKind kind, int window, int communicator, long bytes, int displacementUnit, int group,
      int target, boolean exclusive, int assertion, boolean completed, CallTiming timing) implements TraceCall {
    /** Validates the kind's family, the size, the displacement unit and the assertion bits. */
    public WindowCall {
      checkFamily(kind, CallKind.Family.WINDOW);
      checkArgument(bytes >= 0, "bytes must be >= 0, was %s", bytes);
      checkArgument(displacementUnit >= 1, "displacementUnit must be >= 1, was %s", displacementUnit);
      int modes = MODE_NOCHECK | MODE_NOSTORE | MODE_NOPUT | MODE_NOPRECEDE | MODE_NOSUCCEED;
      checkArgument((assertion & ~modes) == 0, "assertion must hold only the MODE_* bits (0 to %s), was %s", modes,
          assertion);
      checkNotNull(timing, "timing");
    }
  }

  /**
   * A put, get or accumulate: data moved between the calling rank's buffer (the origin) and a target's window.
   *
   * @param kind PUT, GET or ACCUMULATE
   * @param window the window's per-rank id as the format stores it
   * @param target the target rank, a rank in the window's communicator ({@link #PROC_NULL} allowed)
   * @param displacement where in the target's window, as the call gives it: in the window's displacement units
   *     ({@link WindowCall#displacementUnit()} of its WIN_CREATE), from the window's start
   * @param originBytes the origin buffer's size: origin count times the origin datatype's size, or
   *     {@link #UNKNOWN_BYTES}
   * @param targetBytes the target's share: target count times the target datatype's size, or {@link #UNKNOWN_BYTES}
   * @param timing wall-clock times
   */
  record OneSided(CallKind kind, int window, int target, long displacement, long originBytes, long targetBytes,
      CallTiming timing) implements TraceCall {
    /** Validates the kind's family, the displacement and the byte counts. */
    public OneSided {
      checkFamily(kind, CallKind.Family.ONE_SIDED);
      checkArgument(displacement >= 0, "displacement must be >= 0, was %s", displacement);
      checkBytes("originBytes", originBytes);
      checkBytes("targetBytes", targetBytes);
      checkNotNull(timing, "timing");
    }
  }

  /**
   * Local work between MPI calls, as a time-independent trace states it.
   *
   * @param kind COMPUTE (an amount of {@code flops}) or SLEEP (a duration of {@code nanos})
   * @param flops floating-point operations of a COMPUTE, 0 for SLEEP
   * @param nanos duration of a SLEEP in nanoseconds, 0 for COMPUTE
   * @param timing wall-clock times
   */
  record Local(CallKind kind, double flops, long nanos, CallTiming timing) implements TraceCall {
    /** Validates the kind's family and amounts. */
    public Local {
      checkFamily(kind, CallKind.Family.LOCAL);
      checkArgument(flops >= 0 && !Double.isInfinite(flops), "flops must be finite and >= 0, was %s", flops);
      checkArgument(nanos >= 0, "nanos must be >= 0, was %s", nanos);
      checkNotNull(timing, "timing");
    }
  }
}
