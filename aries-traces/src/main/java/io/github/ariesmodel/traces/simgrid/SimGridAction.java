package io.github.ariesmodel.traces.simgrid;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceFormatException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The actions of SimGrid's time-independent traces, each with its own argument parser.
 *
 * <p>Names and arguments follow the parsers registered by {@code smpi_replay_init} in SimGrid's
 * {@code src/smpi/internals/smpi_replay.cpp} (square brackets: optional; {@code n} is the number of ranks; sizes are
 * in elements of the datatype, {@code dt} an SMPI datatype id, see {@link SimGridDatatypes}):
 * <pre>
 *   init [any]                           finalize
 *   send|isend|recv|irecv peer tag size [dt]   (a negative receive size means "whatever arrives"; a receive's
 *                                               tag may be -444, SMPI's MPI_ANY_TAG, as may a wait's or test's)
 *   test|wait source destination tag     waitall [count]   (the count SMPI's tracer writes is ignored)
 *   sendRecv sendcount dst recvcount src [dt] [dt]   (tags are 0)
 *   compute flops                        sleep seconds
 *   barrier                              bcast size [root] [dt]
 *   reduce size flops [root] [dt]        allreduce size flops [dt]
 *   alltoall sendcount recvcount [dt] [dt]
 *   alltoallv sendbuf sendcounts(n) recvbuf recvcounts(n) [dt] [dt]
 *   gather|scatter sendcount recvcount [root] [dt] [dt]       allgather sendcount recvcount [dt] [dt]
 *   gatherv sendcount recvcounts(n) [root] [dt] [dt]          scatterv sendcounts(n) recvcount [root] [dt] [dt]
 *   allgatherv sendcount recvcounts(n) [dt dt] [displs(n)]    reducescatter recvcounts(n) flops [dt]
 *   scan|exscan size flops [dt]
 *   comm_size, comm_split, comm_dup, location file line: read and skipped (SMPI's replay does nothing with them)
 * </pre>
 * Every collective is on {@code MPI_COMM_WORLD}, as in SMPI's replay.
 */
enum SimGridAction {
  INIT("init") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(0, 1);
      s.defaultBytes = l.size() > 2 ? SimGridDatatypes.DEFAULT_BYTES_INIT_WITH_ARGUMENT
          : SimGridDatatypes.DEFAULT_BYTES_BARE_INIT;
      return new TraceCall.Lifecycle(CallKind.INIT, CallTiming.NONE);
    }
  },
  FINALIZE("finalize") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(0, 0);
      return new TraceCall.Lifecycle(CallKind.FINALIZE, CallTiming.NONE);
    }
  },
  COMM_SIZE("comm_size") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) {
      return null;
    }
  },
  COMM_SPLIT("comm_split") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) {
      return null;
    }
  },
  COMM_DUP("comm_dup") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) {
      return null;
    }
  },
  LOCATION("location") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(2, 0);
      return null;
    }
  },
  SEND("send") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      return pointToPoint(l, s, CallKind.SEND);
    }
  },
  ISEND("isend") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      return pointToPoint(l, s, CallKind.ISEND);
    }
  },
  RECV("recv") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      return pointToPoint(l, s, CallKind.RECV);
    }
  },
  IRECV("irecv") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      return pointToPoint(l, s, CallKind.IRECV);
    }
  },
  TEST("test") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(3, 0);
      long request = s.peek(rank(l, 2, s, "source"), rank(l, 3, s, "destination"), receiveTag(l, 4));
      return new TraceCall.Completion(CallKind.TEST, ImmutableLongArray.of(request), ImmutableLongArray.of(), false,
          CallTiming.NONE);
    }
  },
  WAIT("wait") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(3, 0);
      long request = s.complete(rank(l, 2, s, "source"), rank(l, 3, s, "destination"), receiveTag(l, 4));
      // SMPI ignores a wait with nothing outstanding (a test may have completed it): it completes nothing.
      return new TraceCall.Completion(CallKind.WAIT, ImmutableLongArray.of(request),
          request == TraceCall.REQUEST_NULL ? ImmutableLongArray.of() : ImmutableLongArray.of(request), true,
          CallTiming.NONE);
    }
  },
  WAITALL("waitall") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      // SMPI's tracer writes "waitall <count>" (PMPI_Waitall's CpuTIData("waitall", count) in
      // src/smpi/bindings/smpi_pmpi_request.cpp) and its replay reads no argument, checking only a minimum
      // (CHECK_ACTION_PARAMS in src/smpi/include/smpi_replay.hpp): the count is checked and ignored.
      l.arguments(0, 1);
      if (l.size() > 2) {
        l.count(2, "request count", false);
      }
      ImmutableLongArray all = s.completeAll();
      return new TraceCall.Completion(CallKind.WAITALL, all, all, true, CallTiming.NONE);
    }
  },
  SEND_RECV("sendRecv") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(4, 2);
      long sendCount = l.count(2, "send count", false);
      int dst = rank(l, 3, s, "destination");
      long recvCount = l.count(4, "receive count", false);
      int src = rank(l, 5, s, "source");
      return new TraceCall.SendReceive(dst, 0, bytes(sendCount, l.datatype(6, s.defaultBytes)), src, 0,
          bytes(recvCount, l.datatype(7, s.defaultBytes)), TraceCall.COMM_WORLD, CallTiming.NONE);
    }
  },
  COMPUTE("compute") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(1, 0);
      return new TraceCall.Local(CallKind.COMPUTE, l.amount(2, "flops"), 0, CallTiming.NONE);
    }
  },
  SLEEP("sleep") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(1, 0);
      double seconds = l.amount(2, "seconds");
      if (seconds > MAX_SLEEP_SECONDS) {
        // (it said "sleep of 1.0E12 s is too long", with no bound)
        throw l.error("seconds must be at most " + MAX_SLEEP_SECONDS + " (9.2e9 s: its nanoseconds must fit a 64-bit"
            + " count), was " + TraceFormatException.echo(l.token(2)));
      }
      return new TraceCall.Local(CallKind.SLEEP, 0, Math.round(seconds * 1e9), CallTiming.NONE);
    }
  },
  BARRIER("barrier") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(0, 0);
      return collective(CallKind.BARRIER, -1, 0, 0, ImmutableLongArray.of(), ImmutableLongArray.of(), 0);
    }
  },
  BCAST("bcast") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(1, 2);
      long bytes = bytes(l.count(2, "size", false), l.datatype(4, s.defaultBytes));
      return collective(CallKind.BCAST, root(l, 3, s), bytes, bytes, ImmutableLongArray.of(),
          ImmutableLongArray.of(), 0);
    }
  },
  REDUCE("reduce") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(2, 2);
      long bytes = bytes(l.count(2, "size", false), l.datatype(5, s.defaultBytes));
      return collective(CallKind.REDUCE, root(l, 4, s), bytes, bytes, ImmutableLongArray.of(),
          ImmutableLongArray.of(), l.amount(3, "flops"));
    }
  },
  ALLREDUCE("allreduce") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      return reduction(l, s, CallKind.ALLREDUCE);
    }
  },
  SCAN("scan") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      return reduction(l, s, CallKind.SCAN);
    }
  },
  EXSCAN("exscan") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      return reduction(l, s, CallKind.EXSCAN);
    }
  },
  ALLTOALL("alltoall") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(2, 2);
      return collective(CallKind.ALLTOALL, -1,
          bytes(l.count(2, "send count", false), l.datatype(4, s.defaultBytes)),
          bytes(l.count(3, "receive count", false), l.datatype(5, s.defaultBytes)), ImmutableLongArray.of(),
          ImmutableLongArray.of(), 0);
    }
  },
  ALLTOALLV("alltoallv") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      int n = s.ranks;
      l.arguments(2 * n + 2, 2);
      int sendType = l.datatype(4 + 2 * n, s.defaultBytes);
      int recvType = l.datatype(5 + 2 * n, s.defaultBytes);
      l.count(2, "send buffer size", false);
      l.count(3 + n, "receive buffer size", false);
      return collective(CallKind.ALLTOALLV, -1, 0, 0, counts(l, 3, n, sendType, "send count"),
          counts(l, 4 + n, n, recvType, "receive count"), 0);
    }
  },
  GATHER("gather") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(2, 3);
      return collective(CallKind.GATHER, root(l, 4, s), bytes(l.count(2, "send count", false), l.datatype(5,
          s.defaultBytes)), bytes(l.count(3, "receive count", false), l.datatype(6, s.defaultBytes)),
          ImmutableLongArray.of(), ImmutableLongArray.of(), 0);
    }
  },
  SCATTER("scatter") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(2, 3);
      return collective(CallKind.SCATTER, root(l, 4, s), bytes(l.count(2, "send count", false), l.datatype(5,
          s.defaultBytes)), bytes(l.count(3, "receive count", false), l.datatype(6, s.defaultBytes)),
          ImmutableLongArray.of(), ImmutableLongArray.of(), 0);
    }
  },
  ALLGATHER("allgather") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      l.arguments(2, 2);
      return collective(CallKind.ALLGATHER, -1,
          bytes(l.count(2, "send count", false), l.datatype(4, s.defaultBytes)),
          bytes(l.count(3, "receive count", false), l.datatype(5, s.defaultBytes)), ImmutableLongArray.of(),
          ImmutableLongArray.of(), 0);
    }
  },
  GATHERV("gatherv") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      int n = s.ranks;
      l.arguments(n + 1, 3);
      int sendType = l.datatype(4 + n, s.defaultBytes);
      int recvType = l.datatype(5 + n, s.defaultBytes);
      return collective(CallKind.GATHERV, root(l, 3 + n, s), bytes(l.count(2, "send count", false), sendType), 0,
          ImmutableLongArray.of(), counts(l, 3, n, recvType, "receive count"), 0);
    }
  },
  SCATTERV("scatterv") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      int n = s.ranks;
      l.arguments(n + 1, 3);
      int sendType = l.datatype(4 + n, s.defaultBytes);
      int recvType = l.datatype(5 + n, s.defaultBytes);
      return collective(CallKind.SCATTERV, root(l, 3 + n, s), 0,
          bytes(l.count(2 + n, "receive count", false), recvType),
          counts(l, 2, n, sendType, "send count"), ImmutableLongArray.of(), 0);
    }
  },
  ALLGATHERV("allgatherv") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      int n = s.ranks;
      int given = l.size() - 2;
      // the send count and n receive counts, then 1 or 2 datatypes, n displacements, or 2 datatypes and n
      // displacements: any other count leaves tokens unread (3 to n - 1 extra ones were taken as displacements)
      TreeSet<Integer> counts = new TreeSet<>(List.of(n + 1, n + 2, n + 3, 2 * n + 1, 2 * n + 3));
      if (!counts.contains(given)) {
        StringBuilder b = new StringBuilder();
        for (int c : counts) {
          b.append(b.length() == 0 ? "" : c == counts.last() ? " or " : ", ").append(c);
        }
        throw l.error("action 'allgatherv' takes " + b + " arguments for " + n + " ranks, found " + given
            + " (the send count and " + n + " receive counts, then 1 or 2 datatypes, " + n + " displacements, or 2"
            + " datatypes and " + n + " displacements)");
      }
      int sendType;
      int recvType;
      if (given > n + 3) {
        // displacements, with or without datatypes (without them: the default type); they are not used
        boolean typed = given == 2 * n + 3;
        sendType = typed ? l.datatype(3 + n, s.defaultBytes) : s.defaultBytes;
        recvType = typed ? l.datatype(4 + n, s.defaultBytes) : s.defaultBytes;
      } else {
        sendType = l.datatype(3 + n, s.defaultBytes);
        recvType = l.datatype(4 + n, s.defaultBytes);
      }
      return collective(CallKind.ALLGATHERV, -1, bytes(l.count(2, "send count", false), sendType), 0,
          ImmutableLongArray.of(), counts(l, 3, n, recvType, "receive count"), 0);
    }
  },
  REDUCE_SCATTER("reducescatter") {
    @Override
    TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException {
      int n = s.ranks;
      l.arguments(n + 1, 1);
      int type = l.datatype(3 + n, s.defaultBytes);
      ImmutableLongArray perRank = counts(l, 2, n, type, "receive count");
      long total = 0;
      for (int i = 0; i < n && total != TraceCall.UNKNOWN_BYTES; i++) {
        if (perRank.get(i) == TraceCall.UNKNOWN_BYTES) {
          total = TraceCall.UNKNOWN_BYTES; // (a datatype SMPI could not name: the sum is unknown too)
          continue;
        }
        try {
          total = Math.addExact(total, perRank.get(i));
        } catch (ArithmeticException e) {
          throw l.error("receive counts add up to more than " + Long.MAX_VALUE + " bytes");
        }
      }
      return collective(CallKind.REDUCE_SCATTER, -1, total, 0, ImmutableLongArray.of(), perRank,
          l.amount(2 + n, "flops"));
    }
  },
  ;

  /**
   * The longest sleep read, in seconds: 9.2e9 (derived: its nanoseconds, kept as a long, stay below
   * {@code Long.MAX_VALUE}, 9.22e18; a replay refuses a sleep past its clock's end, about 9.2e6 s, itself).
   */
  static final long MAX_SLEEP_SECONDS = 9_200_000_000L;

  /** SMPI's {@code MPI_ANY_TAG} ({@code include/smpi/smpi.h}). */
  static final int SMPI_ANY_TAG = -444;

  private static final Map<String, SimGridAction> BY_NAME = new HashMap<>();

  static {
    for (SimGridAction a : values()) {
      BY_NAME.put(a.traceName, a);
    }
  }

  private final String traceName;

  SimGridAction(String traceName) {
    this.traceName = traceName;
  }

  /** The action's name in traces. */
  String traceName() {
    return traceName;
  }

  /** The action with this name, or null. */
  static SimGridAction named(String name) {
    return BY_NAME.get(name);
  }

  /**
   * Parses a line of this action.
   *
   * @return the call, or null for actions the model skips
   */
  abstract TraceCall parse(SimGridLine l, SimGridRankState s) throws TraceFormatException;

  /** SMPI's {@code MPI_UNDEFINED} ({@code include/smpi/smpi.h}). */
  static final int SMPI_UNDEFINED = -333;

  static int rank(SimGridLine l, int i, SimGridRankState s, String what) throws TraceFormatException {
    if (!what.equals("root") && l.token(i).equals(Integer.toString(SMPI_UNDEFINED))) {
      // SMPI's tracer writes a peer as MPI_COMM_WORLD->group()->rank(comm->group()->actor(peer)): MPI_ANY_SOURCE and
      // MPI_PROC_NULL name no actor (-1), whose rank is MPI_UNDEFINED (src/smpi/bindings/smpi_pmpi_request.cpp,
      // src/smpi/mpi/smpi_group.cpp); SMPI's replay looks for the actor of rank -333, finds none and matches nothing
      throw l.error(what + " must be in 0.." + (s.ranks - 1) + ", was " + SMPI_UNDEFINED + ", SMPI's MPI_UNDEFINED,"
          + " which its tracer writes for MPI_ANY_SOURCE or MPI_PROC_NULL (the trace cannot tell which, and SMPI's"
          + " replay matches no message to it)");
    }
    return l.integer(i, what, 0, s.ranks - 1);
  }

  static int tag(SimGridLine l, int i) throws TraceFormatException {
    return l.integer(i, "tag", 0, Integer.MAX_VALUE);
  }

  /**
   * The tag of a receive, or of the request a {@code wait} or {@code test} names: a tag or SMPI's
   * {@code MPI_ANY_TAG}, which is {@value #SMPI_ANY_TAG} ({@code include/smpi/smpi.h}) and is read as
   * {@link TraceCall#ANY_TAG}. SMPI's tracer writes the request's own tag on a wait ({@code WaitTIData} with
   * {@code req->tag()}, which stays {@code MPI_ANY_TAG} after the match), so a wildcard receive's wait names it
   * the same way and finds it.
   */
  static int receiveTag(SimGridLine l, int i) throws TraceFormatException {
    String range = "0.." + Integer.MAX_VALUE + " or " + SMPI_ANY_TAG + " (MPI_ANY_TAG)";
    int tag = l.integer(i, "tag", Integer.MIN_VALUE, Integer.MAX_VALUE, range); // (the range is checked below)
    if (tag == SMPI_ANY_TAG) {
      return TraceCall.ANY_TAG;
    }
    if (tag < 0) {
      throw l.error("tag must be in " + range + ", was " + tag);
    }
    return tag;
  }

  static int root(SimGridLine l, int i, SimGridRankState s) throws TraceFormatException {
    return i < l.size() ? rank(l, i, s, "root") : 0;
  }

  static TraceCall pointToPoint(SimGridLine l, SimGridRankState s, CallKind kind) throws TraceFormatException {
    l.arguments(3, 1);
    int peer = rank(l, 2, s, kind == CallKind.SEND || kind == CallKind.ISEND ? "destination" : "source");
    boolean receive = kind == CallKind.RECV || kind == CallKind.IRECV;
    int tag = receive ? receiveTag(l, 3) : tag(l, 3);
    long count = l.count(4, "size", receive);
    long bytes = count < 0 ? TraceCall.UNKNOWN_BYTES : bytes(count, l.datatype(5, s.defaultBytes));
    long request = TraceCall.REQUEST_NULL;
    if (kind == CallKind.ISEND) {
      request = s.post(s.rank, peer, tag);
    } else if (kind == CallKind.IRECV) {
      request = s.post(peer, s.rank, tag);
    }
    return new TraceCall.PointToPoint(kind, peer, tag, TraceCall.COMM_WORLD, bytes, request, CallTiming.NONE);
  }

  static TraceCall reduction(SimGridLine l, SimGridRankState s, CallKind kind) throws TraceFormatException {
    l.arguments(2, 1);
    long bytes = bytes(l.count(2, "size", false), l.datatype(4, s.defaultBytes));
    return collective(kind, -1, bytes, bytes, ImmutableLongArray.of(), ImmutableLongArray.of(),
        l.amount(3, "flops"));
  }

  /**
   * Bytes of {@code count} elements of {@code elementBytes} each, or {@link TraceCall#UNKNOWN_BYTES} when the element
   * size is {@link SimGridLine#UNKNOWN_ELEMENT} (SMPI's datatype id -1: a datatype it could not name) and the count is
   * not 0.
   */
  static long bytes(long count, int elementBytes) {
    if (elementBytes == SimGridLine.UNKNOWN_ELEMENT) {
      return count == 0 ? 0 : TraceCall.UNKNOWN_BYTES;
    }
    return count * elementBytes;
  }

  static ImmutableLongArray counts(SimGridLine l, int from, int n, int elementBytes, String what)
      throws TraceFormatException {
    ImmutableLongArray.Builder b = ImmutableLongArray.builder(n);
    for (int i = 0; i < n; i++) {
      b.add(bytes(l.perRankCount(from + i, what), elementBytes));
    }
    return b.build();
  }

  static TraceCall collective(CallKind kind, int root, long sendBytes, long receiveBytes, ImmutableLongArray sendPer,
      ImmutableLongArray receivePer, double flops) {
    return new TraceCall.Collective(kind, TraceCall.COMM_WORLD, root, sendBytes, receiveBytes, sendPer, receivePer,
        flops, CallTiming.NONE);
  }
}
