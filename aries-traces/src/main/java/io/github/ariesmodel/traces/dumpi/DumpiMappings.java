package io.github.ariesmodel.traces.dumpi;

import com.google.common.primitives.ImmutableIntArray;
import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;

/**
 * How each modelled DUMPI function becomes a {@link TraceCall}: one small mapping object per function, built once,
 * holding the indices of the fields it reads. Functions without a mapping are left out of the model (and counted).
 *
 * <p>Value conventions of DUMPI ({@code dumpi/common/constants.h}, {@code dumpi/libdumpi/mpibindings.h}):
 * communicators 2 and 3 are world and self, 0 and 1 error and null, 4 on the application's; requests 0 and 1 are
 * error and null; {@code MPI_ANY_SOURCE} and {@code MPI_ANY_TAG} are stored as -1 and a source's or destination's
 * {@code MPI_ROOT} as -2 (a collective's root is stored as passed: see {@link #root}), but
 * {@code MPI_PROC_NULL} is stored as the MPI library's own value (-1 in MPICH and Cray MPICH, -2 in Open MPI). So a
 * negative destination is read as {@link TraceCall#PROC_NULL}, a source of -1 as {@link TraceCall#ANY_SOURCE} and any
 * other negative source as PROC_NULL. Under MPICH a receive from PROC_NULL also has source -1; where the record
 * carries the call's status (MPI_Recv, MPI_Sendrecv, MPI_Sendrecv_replace, MPI_Probe, MPI_Iprobe) the status tells
 * them apart (see {@link #receiveSource}); an MPI_Irecv's status is on its wait, and such a receive stays a wildcard.
 *
 * <p>One-sided calls (sst-dumpi's {@code dumpi/common/constants.h}, {@code dumpi/common/types.h},
 * {@code dumpi/libdumpi/mpibindings.h} and {@code mpibindings-maps.c}, read at commit a4c8bf5): an {@code MPI_Win} is
 * stored as a 16-bit index, {@code DUMPI_WIN_NULL} = 0 and the application's from {@code DUMPI_FIRST_USER_WIN} = 1;
 * the lock type as 8 bits, {@code DUMPI_LOCK_SHARED} = 1 and {@code DUMPI_LOCK_EXCLUSIVE} = 2
 * ({@code DUMPI_LOCKTYPE_ERROR} = 0); an assertion as 8 bits, {@code DUMPI_MODE_NOCHECK} = 1, {@code _NOSTORE} = 2,
 * {@code _NOPUT} = 4, {@code _NOPRECEDE} = 8, {@code _NOSUCCEED} = 16, {@code DUMPI_MODE_NONE} = 0 and
 * {@code DUMPI_MODE_ERROR} = -1 (255 as stored). libdumpi's {@code dumpi_win_assert_from_int} converts an MPI
 * assertion with a {@code switch} over the single {@code MPI_MODE_*} values, so an assertion of 0 or of several bits
 * is stored as DUMPI_MODE_ERROR: that is read as no assertion (nothing else can be told from it). Reading none is
 * correct for that rank, not against other ranks that kept an assertion which must agree with its own
 * ({@code NOCHECK}, {@code NOPRECEDE}, {@code NOSUCCEED}, MPI 3.1 §11.5.5): the replay leaves those three out
 * (docs/replay.md). The window's size and a target displacement are {@code MPI_Aint}s stored as int32
 * ({@code DUMPI_INT_FROM_MPI_AINT}); both are non-negative in MPI, so they are read as unsigned (exact below 4 GiB).
 */
final class DumpiMappings {
  /** Turns a decoded record into a call. */
  interface Mapping {
    TraceCall map(DumpiRecord r, DumpiDatatypes types, DumpiInput in) throws IOException;
  }

  private static final Map<DumpiFunction, Mapping> MAPPINGS = new EnumMap<>(DumpiFunction.class);

  static {
    for (DumpiFunction f : new DumpiFunction[] {DumpiFunction.INIT, DumpiFunction.INIT_THREAD}) {
      MAPPINGS.put(f, (r, t, in) -> new TraceCall.Lifecycle(CallKind.INIT, r.timing));
    }
    MAPPINGS.put(DumpiFunction.FINALIZE, (r, t, in) -> new TraceCall.Lifecycle(CallKind.FINALIZE, r.timing));
    for (DumpiFunction f : new DumpiFunction[] {DumpiFunction.SEND, DumpiFunction.RSEND}) {
      MAPPINGS.put(f, pointToPoint(CallKind.SEND, f, "dest"));
    }
    for (DumpiFunction f : new DumpiFunction[] {DumpiFunction.ISEND, DumpiFunction.IRSEND}) {
      MAPPINGS.put(f, pointToPoint(CallKind.ISEND, f, "dest"));
    }
    MAPPINGS.put(DumpiFunction.BSEND, pointToPoint(CallKind.BSEND, DumpiFunction.BSEND, "dest"));
    MAPPINGS.put(DumpiFunction.IBSEND, pointToPoint(CallKind.IBSEND, DumpiFunction.IBSEND, "dest"));
    MAPPINGS.put(DumpiFunction.BUFFER_ATTACH, buffer(CallKind.BUFFER_ATTACH, DumpiFunction.BUFFER_ATTACH));
    MAPPINGS.put(DumpiFunction.BUFFER_DETACH, buffer(CallKind.BUFFER_DETACH, DumpiFunction.BUFFER_DETACH));
    MAPPINGS.put(DumpiFunction.SSEND, pointToPoint(CallKind.SSEND, DumpiFunction.SSEND, "dest"));
    MAPPINGS.put(DumpiFunction.ISSEND, pointToPoint(CallKind.ISSEND, DumpiFunction.ISSEND, "dest"));
    MAPPINGS.put(DumpiFunction.RECV, pointToPoint(CallKind.RECV, DumpiFunction.RECV, "source"));
    MAPPINGS.put(DumpiFunction.IRECV, pointToPoint(CallKind.IRECV, DumpiFunction.IRECV, "source"));
    for (DumpiFunction f : new DumpiFunction[] {DumpiFunction.SEND_INIT, DumpiFunction.RSEND_INIT}) {
      MAPPINGS.put(f, pointToPoint(CallKind.SEND_INIT, f, "dest"));
    }
    MAPPINGS.put(DumpiFunction.BSEND_INIT, pointToPoint(CallKind.BSEND_INIT, DumpiFunction.BSEND_INIT, "dest"));
    MAPPINGS.put(DumpiFunction.SSEND_INIT, pointToPoint(CallKind.SSEND_INIT, DumpiFunction.SSEND_INIT, "dest"));
    MAPPINGS.put(DumpiFunction.RECV_INIT, pointToPoint(CallKind.RECV_INIT, DumpiFunction.RECV_INIT, "source"));
    MAPPINGS.put(DumpiFunction.START, requestCall(CallKind.START, DumpiFunction.START));
    MAPPINGS.put(DumpiFunction.STARTALL, requestCall(CallKind.STARTALL, DumpiFunction.STARTALL));
    MAPPINGS.put(DumpiFunction.REQUEST_FREE, requestCall(CallKind.REQUEST_FREE, DumpiFunction.REQUEST_FREE));
    MAPPINGS.put(DumpiFunction.CANCEL, requestCall(CallKind.CANCEL, DumpiFunction.CANCEL));
    MAPPINGS.put(DumpiFunction.PROBE, probe(CallKind.PROBE, DumpiFunction.PROBE));
    MAPPINGS.put(DumpiFunction.IPROBE, probe(CallKind.IPROBE, DumpiFunction.IPROBE));
    MAPPINGS.put(DumpiFunction.SENDRECV, sendRecv());
    MAPPINGS.put(DumpiFunction.SENDRECV_REPLACE, sendRecvReplace());
    MAPPINGS.put(DumpiFunction.WAIT, single(CallKind.WAIT, DumpiFunction.WAIT, false));
    MAPPINGS.put(DumpiFunction.TEST, single(CallKind.TEST, DumpiFunction.TEST, true));
    MAPPINGS.put(DumpiFunction.WAITALL, all(CallKind.WAITALL, DumpiFunction.WAITALL, false));
    MAPPINGS.put(DumpiFunction.TESTALL, all(CallKind.TESTALL, DumpiFunction.TESTALL, true));
    MAPPINGS.put(DumpiFunction.WAITANY, any(CallKind.WAITANY, DumpiFunction.WAITANY, false));
    MAPPINGS.put(DumpiFunction.TESTANY, any(CallKind.TESTANY, DumpiFunction.TESTANY, true));
    MAPPINGS.put(DumpiFunction.WAITSOME, some(CallKind.WAITSOME, DumpiFunction.WAITSOME));
    MAPPINGS.put(DumpiFunction.TESTSOME, some(CallKind.TESTSOME, DumpiFunction.TESTSOME));
    MAPPINGS.put(DumpiFunction.BARRIER, barrier());
    MAPPINGS.put(DumpiFunction.BCAST, whole(CallKind.BCAST, DumpiFunction.BCAST, true));
    MAPPINGS.put(DumpiFunction.REDUCE, whole(CallKind.REDUCE, DumpiFunction.REDUCE, true));
    MAPPINGS.put(DumpiFunction.ALLREDUCE, whole(CallKind.ALLREDUCE, DumpiFunction.ALLREDUCE, false));
    MAPPINGS.put(DumpiFunction.SCAN, whole(CallKind.SCAN, DumpiFunction.SCAN, false));
    MAPPINGS.put(DumpiFunction.EXSCAN, whole(CallKind.EXSCAN, DumpiFunction.EXSCAN, false));
    MAPPINGS.put(DumpiFunction.GATHER, gather());
    MAPPINGS.put(DumpiFunction.GATHERV, gatherv());
    MAPPINGS.put(DumpiFunction.SCATTER, scatter());
    MAPPINGS.put(DumpiFunction.SCATTERV, scatterv());
    MAPPINGS.put(DumpiFunction.ALLGATHER, perPeer(CallKind.ALLGATHER, DumpiFunction.ALLGATHER));
    MAPPINGS.put(DumpiFunction.ALLTOALL, perPeer(CallKind.ALLTOALL, DumpiFunction.ALLTOALL));
    MAPPINGS.put(DumpiFunction.ALLGATHERV, allgatherv());
    MAPPINGS.put(DumpiFunction.ALLTOALLV, alltoallv());
    MAPPINGS.put(DumpiFunction.ALLTOALLW, alltoallw());
    MAPPINGS.put(DumpiFunction.REDUCE_SCATTER, reduceScatter());
    MAPPINGS.put(DumpiFunction.COMM_DUP, commDup());
    MAPPINGS.put(DumpiFunction.COMM_SPLIT, commSplit());
    MAPPINGS.put(DumpiFunction.COMM_FREE, commFree());
    MAPPINGS.put(DumpiFunction.CART_CREATE, topology(CallKind.CART_CREATE, DumpiFunction.CART_CREATE, "arr0"));
    MAPPINGS.put(DumpiFunction.CART_SUB, topology(CallKind.CART_SUB, DumpiFunction.CART_SUB, "arr0"));
    MAPPINGS.put(DumpiFunction.GRAPH_CREATE, topology(CallKind.GRAPH_CREATE, DumpiFunction.GRAPH_CREATE, "nodes"));
    MAPPINGS.put(DumpiFunction.COMM_GROUP, commGroup());
    MAPPINGS.put(DumpiFunction.GROUP_INCL, groupRanks(CallKind.GROUP_INCL, DumpiFunction.GROUP_INCL));
    MAPPINGS.put(DumpiFunction.GROUP_EXCL, groupRanks(CallKind.GROUP_EXCL, DumpiFunction.GROUP_EXCL));
    MAPPINGS.put(DumpiFunction.GROUP_RANGE_INCL, groupRanges(CallKind.GROUP_INCL, DumpiFunction.GROUP_RANGE_INCL));
    MAPPINGS.put(DumpiFunction.GROUP_RANGE_EXCL, groupRanges(CallKind.GROUP_EXCL, DumpiFunction.GROUP_RANGE_EXCL));
    MAPPINGS.put(DumpiFunction.GROUP_UNION, groupPair(CallKind.GROUP_UNION, DumpiFunction.GROUP_UNION));
    MAPPINGS.put(DumpiFunction.GROUP_INTERSECTION,
        groupPair(CallKind.GROUP_INTERSECTION, DumpiFunction.GROUP_INTERSECTION));
    MAPPINGS.put(DumpiFunction.GROUP_DIFFERENCE, groupPair(CallKind.GROUP_DIFFERENCE, DumpiFunction.GROUP_DIFFERENCE));
    MAPPINGS.put(DumpiFunction.GROUP_FREE, groupFree());
    MAPPINGS.put(DumpiFunction.COMM_CREATE, commCreate());
    MAPPINGS.put(DumpiFunction.WIN_CREATE, winCreate());
    MAPPINGS.put(DumpiFunction.WIN_FREE, winOnly(CallKind.WIN_FREE, DumpiFunction.WIN_FREE));
    MAPPINGS.put(DumpiFunction.WIN_FENCE, winFence());
    MAPPINGS.put(DumpiFunction.WIN_LOCK, winLock());
    MAPPINGS.put(DumpiFunction.WIN_UNLOCK, winUnlock());
    MAPPINGS.put(DumpiFunction.WIN_POST, winGroup(CallKind.WIN_POST, DumpiFunction.WIN_POST));
    MAPPINGS.put(DumpiFunction.WIN_START, winGroup(CallKind.WIN_START, DumpiFunction.WIN_START));
    MAPPINGS.put(DumpiFunction.WIN_COMPLETE, winOnly(CallKind.WIN_COMPLETE, DumpiFunction.WIN_COMPLETE));
    MAPPINGS.put(DumpiFunction.WIN_WAIT, winOnly(CallKind.WIN_WAIT, DumpiFunction.WIN_WAIT));
    MAPPINGS.put(DumpiFunction.WIN_TEST, winTest());
    MAPPINGS.put(DumpiFunction.WIN_GET_GROUP, winGetGroup());
    MAPPINGS.put(DumpiFunction.PUT, oneSided(CallKind.PUT, DumpiFunction.PUT));
    MAPPINGS.put(DumpiFunction.GET, oneSided(CallKind.GET, DumpiFunction.GET));
    MAPPINGS.put(DumpiFunction.ACCUMULATE, oneSided(CallKind.ACCUMULATE, DumpiFunction.ACCUMULATE));
  }

  private DumpiMappings() {
  }

  /** The mapping of a function, or null if the model leaves it out. */
  static Mapping of(DumpiFunction f) {
    return MAPPINGS.get(f);
  }

  static int comm(long raw) {
    if (raw == 2) {
      return TraceCall.COMM_WORLD;
    }
    if (raw == 3) {
      return TraceCall.COMM_SELF;
    }
    return raw >= 4 ? (int) raw - 2 : TraceCall.COMM_NULL;
  }

  /** DUMPI's group index: 0 error, 1 MPI_GROUP_NULL, 2 MPI_GROUP_EMPTY, 3 on the application's. */
  static int group(long raw) {
    if (raw == 2) {
      return TraceCall.GROUP_EMPTY;
    }
    return raw >= 3 ? (int) raw : TraceCall.GROUP_NULL;
  }

  static long request(long raw) {
    long handle = raw & 0xffff_ffffL;
    return handle <= 1 ? TraceCall.REQUEST_NULL : handle;
  }

  static int dest(long raw) {
    return raw >= 0 ? (int) raw : TraceCall.PROC_NULL;
  }

  static int source(long raw) {
    if (raw >= 0) {
      return (int) raw;
    }
    return raw == -1 ? TraceCall.ANY_SOURCE : TraceCall.PROC_NULL;
  }

  /**
   * The source of a receive or probe whose record may carry its status. A completed receive from
   * {@code MPI_PROC_NULL} has status source {@code MPI_PROC_NULL} and no bytes (MPI 3.1, section 3.11), which
   * libdumpi stores as -1 under MPICH ({@code DUMPI_SOURCE_FROM_INT} in {@code dumpi/libdumpi/mpibindings.h}); a
   * wildcard's status names the sender, a rank. So a source of -1 whose status says -1 and 0 bytes is PROC_NULL.
   */
  static int receiveSource(DumpiRecord r, long raw) {
    if (raw == -1 && r.statusCount > 0 && r.firstStatusSource == -1 && r.firstStatusBytes == 0) {
      return TraceCall.PROC_NULL;
    }
    return source(raw);
  }

  /**
   * A collective's root. libdumpi stores it as the program passed it ({@code DUMPI_INT_FROM_INT} in every collective
   * binding of {@code dumpi/libdumpi/mpibindings2.c}, not {@code DUMPI_SOURCE_FROM_INT}, the only conversion that
   * writes {@code MPI_ROOT} as DUMPI's -2), so an intercommunicator's {@code MPI_ROOT} and {@code MPI_PROC_NULL} are
   * the library's own values: -3 and -1 in MPICH and Cray MPICH ({@code src/include/mpi.h.in}), -4 and -2 in Open MPI
   * ({@code ompi/include/mpi.h.in}). The four are distinct, so -3 and -4 read as {@link TraceCall#ROOT}, other
   * negative roots as {@link TraceCall#PROC_NULL} (until stop 78 -2 read as ROOT and MPICH's -3 as PROC_NULL).
   */
  static int root(long raw) {
    if (raw >= 0) {
      return (int) raw;
    }
    return raw == -3 || raw == -4 ? TraceCall.ROOT : TraceCall.PROC_NULL;
  }

  private static int tag(DumpiRecord r, DumpiInput in, int field) throws TraceFormatException {
    long raw = r.scalars[field];
    if (raw < -1) {
      throw in.error(r.offset, "bad tag " + raw + " (tags are >= 0, or -1 for MPI_ANY_TAG)");
    }
    return (int) raw;
  }

  private static long bytes(DumpiRecord r, DumpiDatatypes types, DumpiInput in, long count, int type)
      throws TraceFormatException {
    if (count < 0) {
      throw in.error(r.offset, "negative element count " + count);
    }
    return types.bytes(count, type);
  }

  private static long fieldBytes(DumpiRecord r, DumpiDatatypes types, DumpiInput in, int countField, int typeField)
      throws TraceFormatException {
    return bytes(r, types, in, r.scalars[countField], r.intAt(typeField));
  }

  private static ImmutableLongArray perRank(DumpiRecord r, DumpiDatatypes types, DumpiInput in, int countsField,
      int typeField) throws TraceFormatException {
    if (!r.present[countsField]) {
      return ImmutableLongArray.of();
    }
    int n = r.lengths[countsField];
    int[] counts = r.arrays[countsField];
    ImmutableLongArray.Builder b = ImmutableLongArray.builder(n);
    for (int i = 0; i < n; i++) {
      b.add(bytes(r, types, in, (long) counts[i], r.intAt(typeField)));
    }
    return b.build();
  }

  private static Mapping pointToPoint(CallKind kind, DumpiFunction f, String peerField) {
    DumpiLayout l = f.layout();
    int count = l.field("count");
    int type = l.field("datatype");
    int peer = l.field(peerField);
    int tag = l.field("tag");
    int comm = l.field("comm");
    boolean blocking = kind == CallKind.SEND || kind == CallKind.BSEND || kind == CallKind.SSEND
        || kind == CallKind.RECV;
    int request = blocking ? -1 : l.field("request");
    boolean send = !peerField.equals("source");
    return (r, t, in) -> new TraceCall.PointToPoint(kind,
        send ? dest(r.scalars[peer]) : receiveSource(r, r.scalars[peer]), tag(r, in, tag), comm(r.scalars[comm]),
        fieldBytes(r, t, in, count, type), request < 0 ? TraceCall.REQUEST_NULL : request(r.scalars[request]),
        r.timing);
  }

  private static Mapping probe(CallKind kind, DumpiFunction f) {
    DumpiLayout l = f.layout();
    int source = l.field("source");
    int tag = l.field("tag");
    int comm = l.field("comm");
    int flag = kind == CallKind.IPROBE ? l.field("flag") : -1;
    return (r, t, in) -> {
      boolean found = flag < 0 || r.scalars[flag] != 0;
      long bytes = found && r.statusCount > 0 && r.firstStatusBytes >= 0 ? r.firstStatusBytes
          : TraceCall.UNKNOWN_BYTES;
      return new TraceCall.PointToPoint(kind, found ? receiveSource(r, r.scalars[source]) : source(r.scalars[source]),
          tag(r, in, tag), comm(r.scalars[comm]), bytes, TraceCall.REQUEST_NULL, r.timing);
    };
  }

  private static Mapping sendRecv() {
    DumpiLayout l = DumpiFunction.SENDRECV.layout();
    int sendCount = l.field("sendcount");
    int sendType = l.field("sendtype");
    int dest = l.field("dest");
    int sendTag = l.field("sendtag");
    int recvCount = l.field("recvcount");
    int recvType = l.field("recvtype");
    int source = l.field("source");
    int recvTag = l.field("recvtag");
    int comm = l.field("comm");
    return (r, t, in) -> new TraceCall.SendReceive(dest(r.scalars[dest]), tag(r, in, sendTag),
        fieldBytes(r, t, in, sendCount, sendType), receiveSource(r, r.scalars[source]), tag(r, in, recvTag),
        fieldBytes(r, t, in, recvCount, recvType), comm(r.scalars[comm]), r.timing);
  }

  private static Mapping sendRecvReplace() {
    DumpiLayout l = DumpiFunction.SENDRECV_REPLACE.layout();
    int count = l.field("count");
    int type = l.field("datatype");
    int dest = l.field("dest");
    int sendTag = l.field("sendtag");
    int source = l.field("source");
    int recvTag = l.field("recvtag");
    int comm = l.field("comm");
    return (r, t, in) -> {
      long bytes = fieldBytes(r, t, in, count, type);
      return new TraceCall.SendReceive(dest(r.scalars[dest]), tag(r, in, sendTag), bytes,
          receiveSource(r, r.scalars[source]), tag(r, in, recvTag), bytes, comm(r.scalars[comm]), r.timing);
    };
  }

  private static ImmutableLongArray requests(DumpiRecord r, int field) {
    ImmutableLongArray.Builder b = ImmutableLongArray.builder(r.lengths[field]);
    for (int i = 0; i < r.lengths[field]; i++) {
      b.add(request(r.arrays[field][i]));
    }
    return b.build();
  }

  private static ImmutableLongArray nonNull(ImmutableLongArray requests) {
    ImmutableLongArray.Builder b = ImmutableLongArray.builder(requests.length());
    requests.forEach(q -> {
      if (q != TraceCall.REQUEST_NULL) {
        b.add(q);
      }
    });
    return b.build();
  }

  private static Mapping single(CallKind kind, DumpiFunction f, boolean tested) {
    int request = f.layout().field("request");
    int flag = tested ? f.layout().field("flag") : -1;
    return (r, t, in) -> {
      ImmutableLongArray requests = ImmutableLongArray.of(request(r.scalars[request]));
      boolean done = flag < 0 || r.scalars[flag] != 0;
      return new TraceCall.Completion(kind, requests, done ? nonNull(requests) : ImmutableLongArray.of(), true,
          r.timing);
    };
  }

  private static Mapping all(CallKind kind, DumpiFunction f, boolean tested) {
    int list = f.layout().field("requests");
    int flag = tested ? f.layout().field("flag") : -1;
    return (r, t, in) -> {
      ImmutableLongArray requests = requests(r, list);
      boolean done = flag < 0 || r.scalars[flag] != 0;
      return new TraceCall.Completion(kind, requests, done ? nonNull(requests) : ImmutableLongArray.of(), true,
          r.timing);
    };
  }

  private static Mapping any(CallKind kind, DumpiFunction f, boolean tested) {
    int list = f.layout().field("requests");
    int index = f.layout().field("index");
    int flag = tested ? f.layout().field("flag") : -1;
    return (r, t, in) -> {
      ImmutableLongArray requests = requests(r, list);
      long i = r.scalars[index];
      boolean done = (flag < 0 || r.scalars[flag] != 0) && i >= 0 && i < requests.length();
      return new TraceCall.Completion(kind, requests,
          done ? nonNull(ImmutableLongArray.of(requests.get((int) i))) : ImmutableLongArray.of(), true, r.timing);
    };
  }

  private static Mapping some(CallKind kind, DumpiFunction f) {
    int list = f.layout().field("requests");
    int indices = f.layout().field("indices");
    return (r, t, in) -> {
      ImmutableLongArray requests = requests(r, list);
      ImmutableLongArray.Builder done = ImmutableLongArray.builder();
      for (int k = 0; k < r.lengths[indices]; k++) {
        int i = r.arrays[indices][k];
        if (i < 0 || i >= requests.length()) {
          throw in.error(r.offset, "completed index " + i + " outside the " + requests.length() + " requests");
        }
        done.add(requests.get(i));
      }
      return new TraceCall.Completion(kind, requests, nonNull(done.build()), true, r.timing);
    };
  }

  /** MPI_Start, MPI_Request_free and MPI_Cancel name one request, MPI_Startall a list (count, then the handles). */
  private static Mapping requestCall(CallKind kind, DumpiFunction f) {
    DumpiLayout l = f.layout();
    int one = kind == CallKind.STARTALL ? -1 : l.field("request");
    int list = kind == CallKind.STARTALL ? l.field("requests") : -1;
    return (r, t, in) -> new TraceCall.RequestCall(kind,
        one >= 0 ? ImmutableLongArray.of(request(r.scalars[one])) : requests(r, list), r.timing);
  }

  /** MPI_Buffer_attach and MPI_Buffer_detach: the buffer's size in bytes. */
  private static Mapping buffer(CallKind kind, DumpiFunction f) {
    int size = f.layout().field("size");
    return (r, t, in) -> {
      long bytes = r.scalars[size];
      if (bytes < 0) {
        throw in.error(r.offset, "negative buffer size " + bytes);
      }
      return new TraceCall.BufferCall(kind, bytes, r.timing);
    };
  }

  private static Mapping barrier() {
    int comm = DumpiFunction.BARRIER.layout().field("comm");
    return (r, t, in) -> new TraceCall.Collective(CallKind.BARRIER, comm(r.scalars[comm]), -1, 0, 0,
        ImmutableLongArray.of(), ImmutableLongArray.of(), 0, r.timing);
  }

  private static Mapping whole(CallKind kind, DumpiFunction f, boolean rooted) {
    DumpiLayout l = f.layout();
    int count = l.field("count");
    int type = l.field("datatype");
    int comm = l.field("comm");
    int root = rooted ? l.field("root") : -1;
    return (r, t, in) -> {
      long bytes = fieldBytes(r, t, in, count, type);
      return new TraceCall.Collective(kind, comm(r.scalars[comm]), root < 0 ? -1 : root(r.scalars[root]), bytes,
          bytes, ImmutableLongArray.of(), ImmutableLongArray.of(), 0, r.timing);
    };
  }

  private static Mapping gather() {
    DumpiLayout l = DumpiFunction.GATHER.layout();
    int sendCount = l.field("sendcount");
    int sendType = l.field("sendtype");
    int recvCount = l.field("recvcount");
    int recvType = l.field("recvtype");
    int root = l.field("root");
    int comm = l.field("comm");
    return (r, t, in) -> new TraceCall.Collective(CallKind.GATHER, comm(r.scalars[comm]), root(r.scalars[root]),
        fieldBytes(r, t, in, sendCount, sendType), r.present[recvCount] ? fieldBytes(r, t, in, recvCount, recvType) : 0,
        ImmutableLongArray.of(), ImmutableLongArray.of(), 0, r.timing);
  }

  private static Mapping gatherv() {
    DumpiLayout l = DumpiFunction.GATHERV.layout();
    int sendCount = l.field("sendcount");
    int sendType = l.field("sendtype");
    int recvCounts = l.field("recvcounts");
    int recvType = l.field("recvtype");
    int root = l.field("root");
    int comm = l.field("comm");
    return (r, t, in) -> new TraceCall.Collective(CallKind.GATHERV, comm(r.scalars[comm]), root(r.scalars[root]),
        fieldBytes(r, t, in, sendCount, sendType), 0, ImmutableLongArray.of(),
        perRank(r, t, in, recvCounts, recvType), 0, r.timing);
  }

  private static Mapping scatter() {
    DumpiLayout l = DumpiFunction.SCATTER.layout();
    int sendCount = l.field("sendcount");
    int sendType = l.field("sendtype");
    int recvCount = l.field("recvcount");
    int recvType = l.field("recvtype");
    int root = l.field("root");
    int comm = l.field("comm");
    return (r, t, in) -> new TraceCall.Collective(CallKind.SCATTER, comm(r.scalars[comm]), root(r.scalars[root]),
        r.present[sendCount] ? fieldBytes(r, t, in, sendCount, sendType) : 0, fieldBytes(r, t, in, recvCount, recvType),
        ImmutableLongArray.of(), ImmutableLongArray.of(), 0, r.timing);
  }

  private static Mapping scatterv() {
    DumpiLayout l = DumpiFunction.SCATTERV.layout();
    int sendCounts = l.field("sendcounts");
    int sendType = l.field("sendtype");
    int recvCount = l.field("recvcount");
    int recvType = l.field("recvtype");
    int root = l.field("root");
    int comm = l.field("comm");
    return (r, t, in) -> new TraceCall.Collective(CallKind.SCATTERV, comm(r.scalars[comm]), root(r.scalars[root]),
        0, fieldBytes(r, t, in, recvCount, recvType), perRank(r, t, in, sendCounts, sendType),
        ImmutableLongArray.of(), 0, r.timing);
  }

  private static Mapping perPeer(CallKind kind, DumpiFunction f) {
    DumpiLayout l = f.layout();
    int sendCount = l.field("sendcount");
    int sendType = l.field("sendtype");
    int recvCount = l.field("recvcount");
    int recvType = l.field("recvtype");
    int comm = l.field("comm");
    return (r, t, in) -> new TraceCall.Collective(kind, comm(r.scalars[comm]), -1,
        fieldBytes(r, t, in, sendCount, sendType), fieldBytes(r, t, in, recvCount, recvType), ImmutableLongArray.of(),
        ImmutableLongArray.of(), 0, r.timing);
  }

  private static Mapping allgatherv() {
    DumpiLayout l = DumpiFunction.ALLGATHERV.layout();
    int sendCount = l.field("sendcount");
    int sendType = l.field("sendtype");
    int recvCounts = l.field("recvcounts");
    int recvType = l.field("recvtype");
    int comm = l.field("comm");
    return (r, t, in) -> new TraceCall.Collective(CallKind.ALLGATHERV, comm(r.scalars[comm]), -1,
        fieldBytes(r, t, in, sendCount, sendType), 0, ImmutableLongArray.of(),
        perRank(r, t, in, recvCounts, recvType), 0, r.timing);
  }

  private static Mapping alltoallv() {
    DumpiLayout l = DumpiFunction.ALLTOALLV.layout();
    int sendCounts = l.field("sendcounts");
    int sendType = l.field("sendtype");
    int recvCounts = l.field("recvcounts");
    int recvType = l.field("recvtype");
    int comm = l.field("comm");
    return (r, t, in) -> new TraceCall.Collective(CallKind.ALLTOALLV, comm(r.scalars[comm]), -1, 0, 0,
        perRank(r, t, in, sendCounts, sendType), perRank(r, t, in, recvCounts, recvType), 0, r.timing);
  }

  private static ImmutableLongArray perRankTyped(DumpiRecord r, DumpiDatatypes t, DumpiInput in, int counts,
      int typeArray) throws TraceFormatException {
    int n = r.lengths[counts];
    if (r.lengths[typeArray] != n) {
      throw in.error(r.offset, n + " counts but " + r.lengths[typeArray] + " datatypes");
    }
    ImmutableLongArray.Builder b = ImmutableLongArray.builder(n);
    for (int i = 0; i < n; i++) {
      b.add(bytes(r, t, in, (long) r.arrays[counts][i], r.arrays[typeArray][i]));
    }
    return b.build();
  }

  private static Mapping alltoallw() {
    DumpiLayout l = DumpiFunction.ALLTOALLW.layout();
    int sendCounts = l.field("sendcounts");
    int sendTypes = l.field("sendtypes");
    int recvCounts = l.field("recvcounts");
    int recvTypes = l.field("recvtypes");
    int comm = l.field("comm");
    return (r, t, in) -> new TraceCall.Collective(CallKind.ALLTOALLV, comm(r.scalars[comm]), -1, 0, 0,
        perRankTyped(r, t, in, sendCounts, sendTypes), perRankTyped(r, t, in, recvCounts, recvTypes), 0, r.timing);
  }

  private static Mapping reduceScatter() {
    DumpiLayout l = DumpiFunction.REDUCE_SCATTER.layout();
    int recvCounts = l.field("recvcounts");
    int type = l.field("datatype");
    int comm = l.field("comm");
    return (r, t, in) -> {
      ImmutableLongArray perRank = perRank(r, t, in, recvCounts, type);
      long total = 0;
      for (int i = 0; i < perRank.length(); i++) {
        if (perRank.get(i) < 0) {
          total = TraceCall.UNKNOWN_BYTES;
          break;
        }
        try {
          total = Math.addExact(total, perRank.get(i));
        } catch (ArithmeticException e) {
          throw in.error(r.offset, "receive counts add up to more than " + Long.MAX_VALUE + " bytes");
        }
      }
      return new TraceCall.Collective(CallKind.REDUCE_SCATTER, comm(r.scalars[comm]), -1, total, 0,
          ImmutableLongArray.of(), perRank, 0, r.timing);
    };
  }

  private static Mapping commDup() {
    int old = DumpiFunction.COMM_DUP.layout().field("oldcomm");
    int created = DumpiFunction.COMM_DUP.layout().field("newcomm");
    return (r, t, in) -> new TraceCall.CommunicatorCall(CallKind.COMM_DUP, comm(r.scalars[old]),
        comm(r.scalars[created]), 0, 0, r.timing);
  }

  private static Mapping commSplit() {
    DumpiLayout l = DumpiFunction.COMM_SPLIT.layout();
    int old = l.field("oldcomm");
    int color = l.field("color");
    int key = l.field("key");
    int created = l.field("newcomm");
    return (r, t, in) -> new TraceCall.CommunicatorCall(CallKind.COMM_SPLIT, comm(r.scalars[old]),
        comm(r.scalars[created]), r.intAt(color), r.intAt(key), r.timing);
  }

  /**
   * MPI_Cart_create (its dims array; periods and reorder are not needed: the process order is kept), MPI_Cart_sub
   * (its remain_dims flags) and MPI_Graph_create (its node count).
   *
   * <p>A remain_dims entry is a C logical, true when nonzero, and libdumpi stores it as the program passed it
   * ({@code DUMPI_INT_FROM_INT_ARRAY_1} in {@code dumpi/libdumpi/mpibindings.h}); its own Fortran wrapper
   * ({@code mpi_cart_sub} in {@code dumpi/libdumpi/tof77.c}) copies a Fortran LOGICAL unchanged, and Intel Fortran's
   * .TRUE. is -1 (all bits set, its "Logical Data Representations"). So any nonzero entry is read as 1, as the MPI
   * library took it (until stop 78 anything but 0 and 1 was refused as "bad remain_dims entry").
   */
  private static Mapping topology(CallKind kind, DumpiFunction f, String dimsField) {
    DumpiLayout l = f.layout();
    int old = l.field("oldcomm");
    int created = l.field("newcomm");
    int dims = l.field(dimsField);
    boolean array = kind != CallKind.GRAPH_CREATE;
    return (r, t, in) -> {
      ImmutableIntArray d;
      if (array) {
        ImmutableIntArray.Builder b = ImmutableIntArray.builder(r.lengths[dims]);
        for (int i = 0; i < r.lengths[dims]; i++) {
          int v = r.arrays[dims][i];
          if (kind == CallKind.CART_SUB) {
            v = v != 0 ? 1 : 0;
          } else if (v < 0) {
            throw in.error(r.offset, "bad dims entry " + v);
          }
          b.add(v);
        }
        d = b.build();
      } else {
        if (r.intAt(dims) < 0) {
          throw in.error(r.offset, "negative graph node count " + r.intAt(dims));
        }
        d = ImmutableIntArray.of(r.intAt(dims));
      }
      return new TraceCall.Topology(kind, comm(r.scalars[old]), comm(r.scalars[created]), d, r.timing);
    };
  }

  private static Mapping commGroup() {
    DumpiLayout l = DumpiFunction.COMM_GROUP.layout();
    int comm = l.field("comm");
    int group = l.field("group");
    return (r, t, in) -> new TraceCall.GroupCall(CallKind.COMM_GROUP, comm(r.scalars[comm]), TraceCall.GROUP_NULL,
        TraceCall.GROUP_NULL, ImmutableIntArray.of(), group(r.scalars[group]), r.timing);
  }

  private static Mapping groupRanks(CallKind kind, DumpiFunction f) {
    DumpiLayout l = f.layout();
    int group = l.field("group");
    int ranks = l.field("arr0");
    int created = l.field("newgroup");
    return (r, t, in) -> {
      ImmutableIntArray.Builder b = ImmutableIntArray.builder(r.lengths[ranks]);
      for (int i = 0; i < r.lengths[ranks]; i++) {
        if (r.arrays[ranks][i] < 0) {
          throw in.error(r.offset, "negative group rank " + r.arrays[ranks][i]);
        }
        b.add(r.arrays[ranks][i]);
      }
      return new TraceCall.GroupCall(kind, TraceCall.COMM_NULL, group(r.scalars[group]), TraceCall.GROUP_NULL,
          b.build(), group(r.scalars[created]), r.timing);
    };
  }

  /** Most ranks a group range may name: more than any job the model runs. */
  static final int MAX_RANGE_RANKS = 1 << 24;

  /**
   * MPI_Group_range_incl and _excl as GROUP_INCL and GROUP_EXCL of the ranks their (first, last, stride) triplets
   * name, in order (MPI: first, first + stride, ... while not past last).
   */
  private static Mapping groupRanges(CallKind kind, DumpiFunction f) {
    DumpiLayout l = f.layout();
    int group = l.field("group");
    int ranges = l.field("arr0");
    int created = l.field("newgroup");
    return (r, t, in) -> {
      int rows = r.intAt(ranges);
      if (r.lengths[ranges] != 3 * rows) {
        throw in.error(r.offset, "group ranges must be triplets (first, last, stride), found " + r.lengths[ranges]
            + " numbers in " + rows + " ranges");
      }
      ImmutableIntArray.Builder b = ImmutableIntArray.builder();
      long named = 0;
      for (int i = 0; i < rows; i++) {
        int first = r.arrays[ranges][3 * i];
        int last = r.arrays[ranges][3 * i + 1];
        int stride = r.arrays[ranges][3 * i + 2];
        if (first < 0 || last < 0 || stride == 0) {
          throw in.error(r.offset, "bad group range (" + first + ", " + last + ", " + stride + ")");
        }
        for (long k = first; stride > 0 ? k <= last : k >= last; k += stride) {
          if (++named > MAX_RANGE_RANKS) {
            throw in.error(r.offset, "group ranges name more than " + MAX_RANGE_RANKS + " ranks");
          }
          b.add((int) k);
        }
      }
      return new TraceCall.GroupCall(kind, TraceCall.COMM_NULL, group(r.scalars[group]), TraceCall.GROUP_NULL,
          b.build(), group(r.scalars[created]), r.timing);
    };
  }

  private static Mapping groupPair(CallKind kind, DumpiFunction f) {
    DumpiLayout l = f.layout();
    int first = l.field("group1");
    int second = l.field("group2");
    int created = l.field("newgroup");
    return (r, t, in) -> new TraceCall.GroupCall(kind, TraceCall.COMM_NULL, group(r.scalars[first]),
        group(r.scalars[second]), ImmutableIntArray.of(), group(r.scalars[created]), r.timing);
  }

  private static Mapping groupFree() {
    int group = DumpiFunction.GROUP_FREE.layout().field("group");
    return (r, t, in) -> new TraceCall.GroupCall(CallKind.GROUP_FREE, TraceCall.COMM_NULL, group(r.scalars[group]),
        TraceCall.GROUP_NULL, ImmutableIntArray.of(), TraceCall.GROUP_NULL, r.timing);
  }

  private static Mapping commCreate() {
    DumpiLayout l = DumpiFunction.COMM_CREATE.layout();
    int old = l.field("oldcomm");
    int group = l.field("group");
    int created = l.field("newcomm");
    return (r, t, in) -> new TraceCall.GroupCall(CallKind.COMM_CREATE, comm(r.scalars[old]), group(r.scalars[group]),
        TraceCall.GROUP_NULL, ImmutableIntArray.of(), comm(r.scalars[created]), r.timing);
  }

  private static Mapping commFree() {
    int comm = DumpiFunction.COMM_FREE.layout().field("comm");
    return (r, t, in) -> new TraceCall.CommunicatorCall(CallKind.COMM_FREE, comm(r.scalars[comm]),
        TraceCall.COMM_NULL, 0, 0, r.timing);
  }

  /** DUMPI's window index: {@code DUMPI_WIN_NULL} (0) is the null window, the application's count from 1. */
  static int win(long raw) {
    return raw == 0 ? TraceCall.WIN_NULL : (int) raw;
  }

  /** {@code DUMPI_MODE_ERROR} (-1) as the 8-bit field stores it. */
  static final int DUMPI_MODE_ERROR = 0xff;

  /** DUMPI's assertion bits ({@code DUMPI_MODE_NOCHECK} ... {@code _NOSUCCEED}: 1, 2, 4, 8, 16), in that order. */
  private static final int[] DUMPI_MODES = {1, 2, 4, 8, 16};
  /** The model's bit for each of {@link #DUMPI_MODES}. */
  private static final int[] MODEL_MODES = {TraceCall.MODE_NOCHECK, TraceCall.MODE_NOSTORE, TraceCall.MODE_NOPUT,
      TraceCall.MODE_NOPRECEDE, TraceCall.MODE_NOSUCCEED};

  /** An assertion as the model's MODE_* bits: DUMPI_MODE_ERROR is none (see the class comment), other bits an error. */
  private static int assertion(DumpiRecord r, DumpiInput in, int field) throws TraceFormatException {
    int raw = r.intAt(field);
    if (raw == DUMPI_MODE_ERROR) {
      return 0;
    }
    int modes = 0;
    for (int i = 0; i < DUMPI_MODES.length; i++) {
      if ((raw & DUMPI_MODES[i]) != 0) {
        modes |= MODEL_MODES[i];
        raw &= ~DUMPI_MODES[i];
      }
    }
    if (raw != 0) {
      throw in.error(r.offset, "bad window assertion " + r.intAt(field)
          + " (DUMPI_MODE_* bits are 1, 2, 4, 8 and 16, or 255 for DUMPI_MODE_ERROR)");
    }
    return modes;
  }

  /** An MPI_Aint DUMPI stored as int32, read as the non-negative value it was (exact below 2^32). */
  private static long aint(DumpiRecord r, int field) {
    return r.scalars[field] & 0xffff_ffffL;
  }

  private static TraceCall.WindowCall window(CallKind kind, int window, DumpiRecord r) {
    return new TraceCall.WindowCall(kind, window, TraceCall.COMM_NULL, 0, 1, TraceCall.GROUP_NULL, -1, false, 0, false,
        r.timing);
  }

  /** MPI_Win_create: size (bytes), disp_unit, info (not modelled), comm, the new window. */
  private static Mapping winCreate() {
    DumpiLayout l = DumpiFunction.WIN_CREATE.layout();
    int size = l.field("size");
    int unit = l.field("dispunit");
    int comm = l.field("comm");
    int win = l.field("win");
    return (r, t, in) -> {
      if (r.intAt(unit) < 1) {
        throw in.error(r.offset, "bad window displacement unit " + r.intAt(unit) + " (must be >= 1)");
      }
      return new TraceCall.WindowCall(CallKind.WIN_CREATE, win(r.scalars[win]), comm(r.scalars[comm]), aint(r, size),
          r.intAt(unit), TraceCall.GROUP_NULL, -1, false, 0, false, r.timing);
    };
  }

  /** MPI_Win_free, MPI_Win_complete and MPI_Win_wait name the window alone. */
  private static Mapping winOnly(CallKind kind, DumpiFunction f) {
    int win = f.layout().field("win");
    return (r, t, in) -> window(kind, win(r.scalars[win]), r);
  }

  private static Mapping winFence() {
    DumpiLayout l = DumpiFunction.WIN_FENCE.layout();
    int assertion = l.field("assertion");
    int win = l.field("win");
    return (r, t, in) -> new TraceCall.WindowCall(CallKind.WIN_FENCE, win(r.scalars[win]), TraceCall.COMM_NULL, 0, 1,
        TraceCall.GROUP_NULL, -1, false, assertion(r, in, assertion), false, r.timing);
  }

  /** MPI_Win_lock: lock type (DUMPI_LOCK_SHARED 1, DUMPI_LOCK_EXCLUSIVE 2), target rank, assertion, window. */
  private static Mapping winLock() {
    DumpiLayout l = DumpiFunction.WIN_LOCK.layout();
    int type = l.field("locktype");
    int rank = l.field("winrank");
    int assertion = l.field("assertion");
    int win = l.field("win");
    return (r, t, in) -> {
      int lock = r.intAt(type);
      if (lock != 1 && lock != 2) {
        throw in.error(r.offset, "bad lock type " + lock + " (DUMPI_LOCK_SHARED is 1, DUMPI_LOCK_EXCLUSIVE 2)");
      }
      return new TraceCall.WindowCall(CallKind.WIN_LOCK, win(r.scalars[win]), TraceCall.COMM_NULL, 0, 1,
          TraceCall.GROUP_NULL, dest(r.scalars[rank]), lock == 2, assertion(r, in, assertion), false, r.timing);
    };
  }

  private static Mapping winUnlock() {
    DumpiLayout l = DumpiFunction.WIN_UNLOCK.layout();
    int rank = l.field("winrank");
    int win = l.field("win");
    return (r, t, in) -> new TraceCall.WindowCall(CallKind.WIN_UNLOCK, win(r.scalars[win]), TraceCall.COMM_NULL, 0, 1,
        TraceCall.GROUP_NULL, dest(r.scalars[rank]), false, 0, false, r.timing);
  }

  /** MPI_Win_post and MPI_Win_start: group, assertion, window. */
  private static Mapping winGroup(CallKind kind, DumpiFunction f) {
    DumpiLayout l = f.layout();
    int group = l.field("group");
    int assertion = l.field("assertion");
    int win = l.field("win");
    return (r, t, in) -> new TraceCall.WindowCall(kind, win(r.scalars[win]), TraceCall.COMM_NULL, 0, 1,
        group(r.scalars[group]), -1, false, assertion(r, in, assertion), false, r.timing);
  }

  /** MPI_Win_get_group: window, then the group it returns. */
  private static Mapping winGetGroup() {
    DumpiLayout l = DumpiFunction.WIN_GET_GROUP.layout();
    int win = l.field("win");
    int group = l.field("group");
    return (r, t, in) -> new TraceCall.WindowCall(CallKind.WIN_GET_GROUP, win(r.scalars[win]), TraceCall.COMM_NULL,
        0, 1, group(r.scalars[group]), -1, false, 0, false, r.timing);
  }

  /** MPI_Win_test: window, then the flag it returned (an int). */
  private static Mapping winTest() {
    DumpiLayout l = DumpiFunction.WIN_TEST.layout();
    int win = l.field("win");
    int flag = l.field("flag");
    return (r, t, in) -> new TraceCall.WindowCall(CallKind.WIN_TEST, win(r.scalars[win]), TraceCall.COMM_NULL, 0, 1,
        TraceCall.GROUP_NULL, -1, false, 0, r.scalars[flag] != 0, r.timing);
  }

  /**
   * MPI_Put, MPI_Get and MPI_Accumulate: origin count and type, target rank, displacement, target count and type,
   * (Accumulate's op, not modelled), window. A negative target rank is the MPI library's MPI_PROC_NULL.
   */
  private static Mapping oneSided(CallKind kind, DumpiFunction f) {
    DumpiLayout l = f.layout();
    int originCount = l.field("origincount");
    int originType = l.field("origintype");
    int rank = l.field("targetrank");
    int disp = l.field("targetdisp");
    int targetCount = l.field("targetcount");
    int targetType = l.field("targettype");
    int win = l.field("win");
    return (r, t, in) -> new TraceCall.OneSided(kind, win(r.scalars[win]), dest(r.scalars[rank]), aint(r, disp),
        fieldBytes(r, t, in, originCount, originType), fieldBytes(r, t, in, targetCount, targetType), r.timing);
  }
}
