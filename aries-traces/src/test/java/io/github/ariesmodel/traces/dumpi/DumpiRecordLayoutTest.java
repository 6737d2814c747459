package io.github.ariesmodel.traces.dumpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.primitives.ImmutableIntArray;
import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.RankCoverage;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCall.Collective;
import io.github.ariesmodel.traces.TraceCall.Completion;
import io.github.ariesmodel.traces.TraceCall.OneSided;
import io.github.ariesmodel.traces.TraceCall.PointToPoint;
import io.github.ariesmodel.traces.TraceCall.WindowCall;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records the AMG trace does not contain (collectives, blocking calls, statuses, counters, communicator creation),
 * written field by field as sst-dumpi's writers put them ({@link DumpiBinBuilder}) and read back.
 */
class DumpiRecordLayoutTest {
  private static final int STATUS_THREAD_WALL = 0x4b; // statuses (0x03), wall times (0x08), thread id (0x40)
  private static final int THREAD_ONLY = 0x40;
  private static final int DOUBLE = 14;
  private static final int INT = 9;
  private static final int WORLD = 2;

  @TempDir
  Path dir;

  private List<TraceCall> readAll(byte[] file, List<RankCoverage> coverage) throws IOException {
    Path p = Files.write(dir.resolve("rank.bin"), file);
    List<TraceCall> calls = new ArrayList<>();
    try (RankTrace t = DumpiTrace.openRankFile(p, 0)) {
      TraceCall c;
      while ((c = t.read()) != null) {
        calls.add(c);
      }
      coverage.add(t.coverage());
    }
    return calls;
  }

  /**
   * DUMPI's wall-clock seconds are 16 bits: a step back of more than 32,768 s between consecutive timestamps is a
   * wrap (65,536 s added), and a step forward of more than 32,768 s, which cannot be told from a step back across a
   * wrap (a corrupt seconds field reads as one), is refused naming the field's byte and both values; until stop 73
   * it was taken, and the next timestamp's step back then added 65,536 s to the rest of the rank's times.
   */
  @Test
  void wallSecondsWrapBackButAForwardJumpOfMoreThanHalfTheFieldIsRefused() throws IOException {
    int threadWall = 0x48; // wall times (0x08), thread id (0x40)
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0);
    // dumpi_write_send: count, datatype, dest, tag, comm; each record is 33 bytes, the first at byte 16
    b.record(0, threadWall, 65000, 0, 65000, 10).i32(1).u16(INT).i32(1).i32(0).u16(WORLD);
    b.record(0, threadWall, 10, 0, 10, 10).i32(1).u16(INT).i32(1).i32(0).u16(WORLD); // wrapped: 65,546 s
    b.record(0, threadWall, 10, 20, 40000, 0).i32(1).u16(INT).i32(1).i32(0).u16(WORLD); // 39,990 s forward
    Path p = Files.write(dir.resolve("rank.bin"), b.build());
    try (RankTrace t = DumpiTrace.openRankFile(p, 0)) {
      assertThat(t.read().timing()).isEqualTo(new CallTiming(65000_000_000_000L, 65000_000_000_010L));
      assertThat(t.read().timing()).isEqualTo(new CallTiming(65546_000_000_000L, 65546_000_000_010L));
      // the third record's stop seconds: 82 + label, mask, thread id (5) + start seconds and nanoseconds (6)
      assertThatThrownBy(t::read).isInstanceOf(TraceFormatException.class)
          .hasMessageEndingWith("byte offset 93: MPI_Send record at byte 82: wall-clock seconds jump from 10 to"
              + " 40000, more than 32768 s forward between consecutive timestamps: DUMPI stores them in 16 bits, so"
              + " such a jump cannot be told from a step back across a wrap (corrupt file?)")
          .hasMessageStartingWith(p.toString());
    }
  }

  /**
   * Undoing 16-bit wraps cannot carry a time past what a long's nanoseconds hold (2^63 ns, 292 years): a rank file
   * whose seconds step 32,767 s forward at every timestamp, wrapping at every record, from the largest wall-clock
   * offset, is refused at the timestamp that would pass it, naming its byte. Until stop 78 the nanoseconds wrapped and
   * the rank's later calls read with negative times.
   */
  @Test
  void wrapsThatWouldCarryATimePastALongsNanosecondsAreRefused() throws IOException {
    int threadWall = 0x48; // wall times (0x08), thread id (0x40)
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, -1); // wall-clock offset 2^32 - 1 s, read as unsigned
    int records = 80_000;
    for (int k = 0; k < records; k++) {
      int entry = (int) ((2L * k * 32767) % 65536);
      int exit = (int) (((2L * k + 1) * 32767) % 65536);
      b.record(52, threadWall, entry, 0, exit, 0).u16(WORLD); // dumpi_write_barrier: comm; 19 bytes
    }
    Path p = Files.write(dir.resolve("rank.bin"), b.build());
    long lastTime = -1;
    try (RankTrace t = DumpiTrace.openRankFile(p, 0)) {
      TraceFormatException refused = null;
      try {
        for (TraceCall c; (c = t.read()) != null; ) {
          assertThat(c.timing().entryNanos()).isGreaterThan(lastTime);
          lastTime = c.timing().exitNanos();
        }
      } catch (TraceFormatException e) {
        refused = e;
      }
      assertThat(refused).isNotNull();
      assertThat(refused.problem()).startsWith("MPI_Barrier record at byte ").contains(": wall-clock time of ")
          .contains(" s, past the 9223372034 s (2^63 ns, 292 years) a time in nanoseconds can hold: its 16-bit seconds"
              + " wrapped ").endsWith(" times (corrupt file?)");
      // each timestamp adds 32,767 s: the last time read is below the bound, the next would pass it
      long maxSeconds = 9_223_372_034L; // (2^63 - 1 - 2 x 10^9) / 10^9
      assertThat(lastTime / 1_000_000_000L).isLessThanOrEqualTo(maxSeconds).isGreaterThan(maxSeconds - 2 * 32767);
    }
  }

  /**
   * A trace recorded with libdumpi's {@code timestamps=cpu} holds CPU times only: they are kept (their own offset and
   * 16-bit wraps, nanoseconds up to getrusage's 2 × 10^9), marked as CPU time. With both clocks the wall clock's are
   * kept, and with neither none. Until stop 75 CPU times were read past, and a replay as traced of such a trace ran
   * with no compute, without a word.
   */
  @Test
  void cpuTimesAreKeptWhenARecordHasNoWallClockTimes() throws IOException {
    int threadCpu = 0x44; // CPU times (0x04), thread id (0x40)
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 100, 0);
    b.cpuRecord(0, threadCpu, 65000, 0, 65000, 1_500_000_000).i32(1).u16(INT).i32(1).i32(0).u16(WORLD);
    b.cpuRecord(0, threadCpu, 10, 0, 10, 10).i32(1).u16(INT).i32(1).i32(0).u16(WORLD); // wrapped: 65,546 s
    b.cpuRecord(0, 0x4c, 3, 0, 3, 10).i32(1).u16(INT).i32(1).i32(0).u16(WORLD); // both: the wall clock's (zero)
    b.cpuRecord(0, 0x40, 3, 0, 3, 10).i32(1).u16(INT).i32(1).i32(0).u16(WORLD); // neither
    Path p = Files.write(dir.resolve("rank.bin"), b.build());
    try (RankTrace t = DumpiTrace.openRankFile(p, 0)) {
      assertThat(t.read().timing()).isEqualTo(CallTiming.cpu(65100_000_000_000L, 65101_500_000_000L));
      assertThat(t.read().timing()).isEqualTo(CallTiming.cpu(65646_000_000_000L, 65646_000_000_010L));
      assertThat(t.read().timing()).isEqualTo(new CallTiming(0, 0));
      assertThat(t.read().timing()).isEqualTo(CallTiming.NONE);
    }
  }

  @Test
  void blockingPointToPointWithStatusesAndTimes() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 1000);
    // dumpi_write_send: count, datatype, dest, tag, comm
    b.record(0, STATUS_THREAD_WALL, 3, 500, 3, 900).i32(10).u16(DOUBLE).i32(4).i32(7).u16(WORLD);
    // dumpi_write_recv: count, datatype, source, tag, comm, status (MPI_ANY_SOURCE is -1, MPI_ANY_TAG -1)
    b.record(1, STATUS_THREAD_WALL, 4, 0, 4, 10).i32(5).u16(INT).i32(-1).i32(-1).u16(WORLD).status(20, 2, 9);
    // dumpi_write_sendrecv: sendcount, sendtype, dest, sendtag, recvcount, recvtype, source, recvtag, comm, status
    b.record(33, STATUS_THREAD_WALL, 5, 0, 5, 0).i32(2).u16(DOUBLE).i32(1).i32(3).i32(4).u16(INT).i32(2).i32(5)
        .u16(WORLD).status(16, 2, 5);
    // dumpi_write_probe: source, tag, comm, status
    b.record(23, STATUS_THREAD_WALL, 5, 0, 5, 0).i32(3).i32(1).u16(WORLD).status(64, 3, 1);
    List<RankCoverage> cov = new ArrayList<>();
    List<TraceCall> calls = readAll(b.sizes(0, 0, 1, 1, 1, 1, 4, 2, 2, 4, 4, 8, 8, 4, 8).build(), cov);
    assertThat(calls).containsExactly(
        new PointToPoint(CallKind.SEND, 4, 7, TraceCall.COMM_WORLD, 80, TraceCall.REQUEST_NULL,
            new CallTiming(1003_000_000_500L, 1003_000_000_900L)),
        new PointToPoint(CallKind.RECV, TraceCall.ANY_SOURCE, TraceCall.ANY_TAG, TraceCall.COMM_WORLD, 20,
            TraceCall.REQUEST_NULL, new CallTiming(1004_000_000_000L, 1004_000_000_010L)),
        new TraceCall.SendReceive(1, 3, 16, 2, 5, 16, TraceCall.COMM_WORLD,
            new CallTiming(1005_000_000_000L, 1005_000_000_000L)),
        new PointToPoint(CallKind.PROBE, 3, 1, TraceCall.COMM_WORLD, 64, TraceCall.REQUEST_NULL,
            new CallTiming(1005_000_000_000L, 1005_000_000_000L)));
    assertThat(cov.get(0).complete()).isTrue();
  }

  /**
   * Under MPICH, libdumpi stores a receive from MPI_PROC_NULL with source -1, as it stores MPI_ANY_SOURCE; the status
   * tells them apart (a PROC_NULL receive's says source -1 and 0 bytes, a wildcard's names the sender). It was read as
   * a wildcard, and the replay waited for a message no one sent.
   */
  @Test
  void aReceiveFromProcNullUnderMpichIsToldFromAWildcardByItsStatus() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0);
    // dumpi_write_recv: count, datatype, source, tag, comm, status: from PROC_NULL, then a wildcard that got 0 bytes
    b.record(1, STATUS_THREAD_WALL, 0, 0, 0, 0).i32(5).u16(INT).i32(-1).i32(4).u16(WORLD).status(0, -1, -1);
    b.record(1, STATUS_THREAD_WALL, 0, 0, 0, 0).i32(5).u16(INT).i32(-1).i32(4).u16(WORLD).status(0, 3, 4);
    // dumpi_write_sendrecv and dumpi_write_sendrecv_replace, receiving from PROC_NULL
    b.record(33, STATUS_THREAD_WALL, 0, 0, 0, 0).i32(2).u16(DOUBLE).i32(1).i32(3).i32(4).u16(INT).i32(-1).i32(5)
        .u16(WORLD).status(0, -1, -1);
    b.record(34, STATUS_THREAD_WALL, 0, 0, 0, 0).i32(2).u16(DOUBLE).i32(1).i32(3).i32(-1).i32(5).u16(WORLD)
        .status(0, -1, -1);
    // dumpi_write_probe from PROC_NULL
    b.record(23, STATUS_THREAD_WALL, 0, 0, 0, 0).i32(-1).i32(1).u16(WORLD).status(0, -1, -1);
    // without a status (statuses not recorded; MPI_Irecv, whose status is on its wait) -1 stays a wildcard
    b.record(1, THREAD_ONLY, 0, 0, 0, 0).i32(5).u16(INT).i32(-1).i32(4).u16(WORLD);
    b.record(12, THREAD_ONLY, 0, 0, 0, 0).i32(5).u16(INT).i32(-1).i32(4).u16(WORLD).i32(7);
    List<TraceCall> calls = readAll(b.build(), new ArrayList<>());
    CallTiming t = new CallTiming(0, 0);
    assertThat(calls).containsExactly(
        new PointToPoint(CallKind.RECV, TraceCall.PROC_NULL, 4, TraceCall.COMM_WORLD, 20, TraceCall.REQUEST_NULL, t),
        new PointToPoint(CallKind.RECV, TraceCall.ANY_SOURCE, 4, TraceCall.COMM_WORLD, 20, TraceCall.REQUEST_NULL, t),
        new TraceCall.SendReceive(1, 3, 16, TraceCall.PROC_NULL, 5, 16, TraceCall.COMM_WORLD, t),
        new TraceCall.SendReceive(1, 3, 16, TraceCall.PROC_NULL, 5, 16, TraceCall.COMM_WORLD, t),
        new PointToPoint(CallKind.PROBE, TraceCall.PROC_NULL, 1, TraceCall.COMM_WORLD, 0, TraceCall.REQUEST_NULL, t),
        new PointToPoint(CallKind.RECV, TraceCall.ANY_SOURCE, 4, TraceCall.COMM_WORLD, 20, TraceCall.REQUEST_NULL,
            CallTiming.NONE),
        new PointToPoint(CallKind.IRECV, TraceCall.ANY_SOURCE, 4, TraceCall.COMM_WORLD, 20, 7, CallTiming.NONE));
  }

  /**
   * MPI_Ssend and MPI_Issend keep their synchronous mode (SSEND, ISSEND), MPI_Bsend and MPI_Ibsend their buffered one
   * (BSEND, IBSEND), and MPI_Buffer_attach and MPI_Buffer_detach give the buffer's size.
   */
  @Test
  void synchronousSendsKeepTheirMode() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 1000);
    // dumpi_write_ssend and dumpi_write_bsend: count, datatype, dest, tag, comm
    b.record(4, THREAD_ONLY, 0, 0, 0, 0).i32(3).u16(INT).i32(1).i32(5).u16(WORLD);
    b.record(3, THREAD_ONLY, 0, 0, 0, 0).i32(2).u16(INT).i32(1).i32(6).u16(WORLD);
    // dumpi_write_issend: count, datatype, dest, tag, comm, request
    b.record(10, THREAD_ONLY, 0, 0, 0, 0).i32(4).u16(INT).i32(1).i32(7).u16(WORLD).i32(11);
    // dumpi_write_ibsend: count, datatype, dest, tag, comm, request; dumpi_write_rsend (a standard send here)
    b.record(9, THREAD_ONLY, 0, 0, 0, 0).i32(5).u16(INT).i32(1).i32(8).u16(WORLD).i32(12);
    b.record(5, THREAD_ONLY, 0, 0, 0, 0).i32(1).u16(INT).i32(1).i32(9).u16(WORLD);
    // dumpi_write_buffer_attach and _detach: size
    b.record(6, THREAD_ONLY, 0, 0, 0, 0).i32(4096);
    b.record(7, THREAD_ONLY, 0, 0, 0, 0).i32(4096);
    List<RankCoverage> cov = new ArrayList<>();
    List<TraceCall> calls = readAll(b.sizes(0, 0, 1, 1, 1, 1, 4, 2, 2, 4, 4, 8, 8, 4, 8).build(), cov);
    List<TraceCall> sends = calls.subList(0, 5);
    assertThat(sends).extracting(c -> ((PointToPoint) c).kind())
        .containsExactly(CallKind.SSEND, CallKind.BSEND, CallKind.ISSEND, CallKind.IBSEND, CallKind.SEND);
    assertThat(sends).extracting(c -> ((PointToPoint) c).bytes()).containsExactly(12L, 8L, 16L, 20L, 4L);
    assertThat(((PointToPoint) calls.get(2)).request()).isEqualTo(11);
    assertThat(((PointToPoint) calls.get(3)).request()).isEqualTo(12);
    assertThat(sends).allMatch(c -> ((PointToPoint) c).isSend());
    assertThat(calls.subList(5, 7)).containsExactly(
        new TraceCall.BufferCall(CallKind.BUFFER_ATTACH, 4096, CallTiming.NONE),
        new TraceCall.BufferCall(CallKind.BUFFER_DETACH, 4096, CallTiming.NONE));
    assertThat(cov.get(0).unmodelled()).isEmpty();
  }

  /**
   * Persistent requests: MPI_Send_init and MPI_Rsend_init create standard sends (SEND_INIT), MPI_Bsend_init a
   * buffered one (BSEND_INIT), MPI_Ssend_init a synchronous one, MPI_Recv_init a receive, each with its handle; MPI_Start, MPI_Startall,
   * MPI_Request_free and MPI_Cancel name the handles (REQUEST_NULL for DUMPI's null request, 1). None is left out of
   * the model.
   */
  @Test
  void persistentRequestsTheirStartsAndTheirRelease() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0);
    // dumpi_write_send_init (and bsend_init, ssend_init, rsend_init): count, datatype, dest, tag, comm, request
    b.record(26, THREAD_ONLY, 0, 0, 0, 0).i32(3).u16(INT).i32(1).i32(5).u16(WORLD).i32(20);
    b.record(27, THREAD_ONLY, 0, 0, 0, 0).i32(1).u16(DOUBLE).i32(2).i32(6).u16(WORLD).i32(21);
    b.record(28, THREAD_ONLY, 0, 0, 0, 0).i32(4).u16(INT).i32(3).i32(7).u16(WORLD).i32(22);
    b.record(29, THREAD_ONLY, 0, 0, 0, 0).i32(0).u16(INT).i32(1).i32(8).u16(WORLD).i32(23);
    // dumpi_write_recv_init: count, datatype, source, tag, comm, request (MPI_ANY_SOURCE and MPI_ANY_TAG are -1)
    b.record(30, THREAD_ONLY, 0, 0, 0, 0).i32(2).u16(DOUBLE).i32(-1).i32(-1).u16(WORLD).i32(24);
    // dumpi_write_start: request; dumpi_write_startall: count, then the request array; dumpi_write_request_free
    b.record(31, THREAD_ONLY, 0, 0, 0, 0).i32(20);
    b.record(32, THREAD_ONLY, 0, 0, 0, 0).i32(3).ints(21, 1, 24);
    b.record(15, THREAD_ONLY, 0, 0, 0, 0).i32(20);
    b.record(24, THREAD_ONLY, 0, 0, 0, 0).i32(24); // dumpi_write_cancel: request
    List<RankCoverage> cov = new ArrayList<>();
    List<TraceCall> calls = readAll(b.sizes(0, 0, 1, 1, 1, 1, 4, 2, 2, 4, 4, 8, 8, 4, 8).build(), cov);
    CallTiming none = CallTiming.NONE;
    assertThat(calls).containsExactly(
        new PointToPoint(CallKind.SEND_INIT, 1, 5, TraceCall.COMM_WORLD, 12, 20, none),
        new PointToPoint(CallKind.BSEND_INIT, 2, 6, TraceCall.COMM_WORLD, 8, 21, none),
        new PointToPoint(CallKind.SSEND_INIT, 3, 7, TraceCall.COMM_WORLD, 16, 22, none),
        new PointToPoint(CallKind.SEND_INIT, 1, 8, TraceCall.COMM_WORLD, 0, 23, none),
        new PointToPoint(CallKind.RECV_INIT, TraceCall.ANY_SOURCE, TraceCall.ANY_TAG, TraceCall.COMM_WORLD, 16, 24,
            none),
        new TraceCall.RequestCall(CallKind.START, ImmutableLongArray.of(20), none),
        new TraceCall.RequestCall(CallKind.STARTALL, ImmutableLongArray.of(21, TraceCall.REQUEST_NULL, 24), none),
        new TraceCall.RequestCall(CallKind.REQUEST_FREE, ImmutableLongArray.of(20), none),
        new TraceCall.RequestCall(CallKind.CANCEL, ImmutableLongArray.of(24), none));
    assertThat(calls.subList(0, 5)).allMatch(c -> ((PointToPoint) c).isPersistentInit());
    assertThat(calls.subList(0, 4)).allMatch(c -> ((PointToPoint) c).isSend());
    assertThat(((PointToPoint) calls.get(4)).isSend()).isFalse();
    assertThat(cov.get(0).unmodelled()).isEmpty();
  }

  /**
   * Topologies and groups: MPI_Cart_create keeps its dims (periods and reorder are read and dropped), MPI_Cart_sub its
   * remain_dims, MPI_Graph_create its node count; group handles read as DUMPI numbers them (2 is MPI_GROUP_EMPTY, 1
   * MPI_GROUP_NULL); MPI_Group_range_incl and _excl become GROUP_INCL and GROUP_EXCL of the ranks their triplets name;
   * a communicator of COMM_NULL (1) is a rank left out.
   */
  @Test
  void topologiesAndGroups() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0);
    // dumpi_write_cart_create: oldcomm, ndim, dims, periods, reorder, newcomm
    b.record(99, THREAD_ONLY, 0, 0, 0, 0).u16(WORLD).i32(2).ints(2, 3).ints(0, 1).i32(1).u16(4);
    // dumpi_write_cart_sub: ndim, oldcomm, remain_dims, newcomm
    b.record(111, THREAD_ONLY, 0, 0, 0, 0).i32(2).u16(4).ints(0, 1).u16(5);
    // dumpi_write_graph_create: numedges, oldcomm, nodes, index, edges, reorder, newcomm (MPI_COMM_NULL here)
    b.record(101, THREAD_ONLY, 0, 0, 0, 0).i32(4).u16(WORLD).i32(3).ints(2, 3, 4).ints(1, 2, 0, 0).i32(0).u16(1);
    // dumpi_write_comm_group: comm, group; group_incl: group, count, ranks, newgroup; group_union: two, newgroup
    b.record(72, THREAD_ONLY, 0, 0, 0, 0).u16(WORLD).u16(3);
    b.record(76, THREAD_ONLY, 0, 0, 0, 0).u16(3).i32(2).ints(3, 1).u16(4);
    b.record(77, THREAD_ONLY, 0, 0, 0, 0).u16(3).i32(1).ints(0).u16(5);
    b.record(73, THREAD_ONLY, 0, 0, 0, 0).u16(4).u16(2).u16(6);
    // dumpi_write_comm_create: oldcomm, group, newcomm; group_free: group
    b.record(85, THREAD_ONLY, 0, 0, 0, 0).u16(WORLD).u16(4).u16(6);
    b.record(80, THREAD_ONLY, 0, 0, 0, 0).u16(4);
    // dumpi_write_group_range_incl and _excl: group, count, the (first, last, stride) triplets, newgroup
    b.record(78, THREAD_ONLY, 0, 0, 0, 0).u16(3).i32(2).i32(2).ints(0, 6, 3).ints(9, 7, -1).u16(7);
    b.record(79, THREAD_ONLY, 0, 0, 0, 0).u16(3).i32(1).i32(1).ints(1, 4, 2).u16(8);
    List<RankCoverage> cov = new ArrayList<>();
    List<TraceCall> calls = readAll(b.build(), cov);
    CallTiming none = CallTiming.NONE;
    ImmutableIntArray empty = ImmutableIntArray.of();
    int nullGroup = TraceCall.GROUP_NULL;
    int nullComm = TraceCall.COMM_NULL;
    assertThat(calls).containsExactly(
        new TraceCall.Topology(CallKind.CART_CREATE, TraceCall.COMM_WORLD, 2, ImmutableIntArray.of(2, 3), none),
        new TraceCall.Topology(CallKind.CART_SUB, 2, 3, ImmutableIntArray.of(0, 1), none),
        new TraceCall.Topology(CallKind.GRAPH_CREATE, TraceCall.COMM_WORLD, nullComm, ImmutableIntArray.of(3), none),
        new TraceCall.GroupCall(CallKind.COMM_GROUP, TraceCall.COMM_WORLD, nullGroup, nullGroup, empty, 3, none),
        new TraceCall.GroupCall(CallKind.GROUP_INCL, nullComm, 3, nullGroup, ImmutableIntArray.of(3, 1), 4, none),
        new TraceCall.GroupCall(CallKind.GROUP_EXCL, nullComm, 3, nullGroup, ImmutableIntArray.of(0), 5, none),
        new TraceCall.GroupCall(CallKind.GROUP_UNION, nullComm, 4, TraceCall.GROUP_EMPTY, empty, 6, none),
        new TraceCall.GroupCall(CallKind.COMM_CREATE, TraceCall.COMM_WORLD, 4, nullGroup, empty, 4, none),
        new TraceCall.GroupCall(CallKind.GROUP_FREE, nullComm, 4, nullGroup, empty, nullGroup, none),
        new TraceCall.GroupCall(CallKind.GROUP_INCL, nullComm, 3, nullGroup, ImmutableIntArray.of(0, 3, 6, 9, 8, 7),
            7, none),
        new TraceCall.GroupCall(CallKind.GROUP_EXCL, nullComm, 3, nullGroup, ImmutableIntArray.of(1, 3), 8, none));
    assertThat(cov.get(0).unmodelled()).isEmpty();
  }

  /**
   * MPI_Cart_sub's remain_dims are C logicals, true when nonzero, stored as the program passed them: -1 is Intel
   * Fortran's .TRUE., which libdumpi's own Fortran wrapper (tof77.c) passes on unchanged, and a C program may pass any
   * nonzero value. Each reads as 1, as the MPI library took it; until stop 78 the record was refused ("bad
   * remain_dims entry -1") and with it the whole trace.
   */
  @Test
  void cartSubTakesAnyNonzeroRemainDimsEntryAsTrue() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0);
    // dumpi_write_cart_sub: ndim, oldcomm, remain_dims, newcomm
    b.record(111, THREAD_ONLY, 0, 0, 0, 0).i32(3).u16(4).ints(-1, 0, -1).u16(5);
    b.record(111, THREAD_ONLY, 0, 0, 0, 0).i32(3).u16(4).ints(0, 2, 1).u16(6);
    List<TraceCall> calls = readAll(b.build(), new ArrayList<>());
    assertThat(calls).containsExactly(
        new TraceCall.Topology(CallKind.CART_SUB, 2, 3, ImmutableIntArray.of(1, 0, 1), CallTiming.NONE),
        new TraceCall.Topology(CallKind.CART_SUB, 2, 4, ImmutableIntArray.of(0, 1, 1), CallTiming.NONE));
  }

  /**
   * One-sided calls, with values as libdumpi stores them (sst-dumpi's {@code dumpi/common/constants.h} and
   * {@code dumpi/libdumpi/mpibindings.h}): windows are 16-bit indices; lock types DUMPI_LOCK_SHARED 1 and
   * DUMPI_LOCK_EXCLUSIVE 2; assertions DUMPI_MODE_NOCHECK 1, NOSTORE 2, NOPUT 4, NOPRECEDE 8, NOSUCCEED 16, and
   * DUMPI_MODE_ERROR (-1, stored as 255), which libdumpi writes for an assertion of 0, read as none; group 2 is
   * MPI_GROUP_EMPTY; a negative target rank is the MPI library's MPI_PROC_NULL. Every value differs from the fields
   * next to it, so a field read from the wrong place shows. None of the thirteen functions is left out of the model.
   */
  @Test
  void oneSidedWindowsAndTheirEpochs() throws IOException {
    final int win = 5;
    final int derived = 28; // a derived datatype the size table below lacks
    final int unsigned = 10;
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 1000);
    // dumpi_write_win_create: size (int), dispunit (int), info, comm, win
    b.record(145, 0x48, 2, 100, 2, 300).i32(4096).i32(8).u16(1).u16(4).u16(win);
    // dumpi_write_win_fence: assertion (8 bits), win; NOPRECEDE | NOSUCCEED
    b.record(146, THREAD_ONLY, 0, 0, 0, 0).u8(8 | 16).u16(win);
    // dumpi_write_put (and get): origincount, origintype, targetrank, targetdisp, targetcount, targettype, win
    b.record(143, THREAD_ONLY, 0, 0, 0, 0).i32(3).u16(DOUBLE).i32(2).i32(7).i32(5).u16(INT).u16(win);
    b.record(143, THREAD_ONLY, 0, 0, 0, 0).i32(4).u16(derived).i32(1).i32(0).i32(2).u16(DOUBLE).u16(win);
    b.record(142, THREAD_ONLY, 0, 0, 0, 0).i32(2).u16(DOUBLE).i32(3).i32(11).i32(3).u16(INT).u16(win);
    // dumpi_write_accumulate: origincount, origintype, targetrank, targetdisp, targetcount, targettype, op, win
    b.record(141, THREAD_ONLY, 0, 0, 0, 0).i32(6).u16(INT).i32(0).i32(9).i32(7).u16(unsigned).u8(3).u16(win);
    // a put to MPI_PROC_NULL (-1 under MPICH)
    b.record(143, THREAD_ONLY, 0, 0, 0, 0).i32(1).u16(INT).i32(-1).i32(0).i32(1).u16(INT).u16(win);
    // dumpi_write_win_fence with assertion 0, which libdumpi stores as DUMPI_MODE_ERROR
    b.record(146, THREAD_ONLY, 0, 0, 0, 0).u8(0xff).u16(win);
    // dumpi_write_win_lock: locktype (8 bits), winrank, assertion, win; dumpi_write_win_unlock: winrank, win
    b.record(149, THREAD_ONLY, 0, 0, 0, 0).u8(2).i32(3).u8(1).u16(win);
    b.record(153, THREAD_ONLY, 0, 0, 0, 0).i32(3).u16(win);
    b.record(149, THREAD_ONLY, 0, 0, 0, 0).u8(1).i32(2).u8(0xff).u16(win);
    b.record(153, THREAD_ONLY, 0, 0, 0, 0).i32(2).u16(win);
    // dumpi_write_win_post and _start: group, assertion, win
    b.record(150, THREAD_ONLY, 0, 0, 0, 0).u16(2).u8(4).u16(win);
    b.record(151, THREAD_ONLY, 0, 0, 0, 0).u16(3).u8(1).u16(win);
    // dumpi_write_win_complete: win; dumpi_write_win_test: win, flag (int); _wait and _free: win
    b.record(144, THREAD_ONLY, 0, 0, 0, 0).u16(win);
    // dumpi_write_win_get_group: win, group
    b.record(148, THREAD_ONLY, 0, 0, 0, 0).u16(win).u16(5);
    b.record(152, THREAD_ONLY, 0, 0, 0, 0).u16(win).i32(0);
    b.record(152, THREAD_ONLY, 0, 0, 0, 0).u16(win).i32(1);
    b.record(154, THREAD_ONLY, 0, 0, 0, 0).u16(win);
    // a closing fence, NOSTORE | NOSUCCEED: with the fence, lock and post above every DUMPI bit is read alone or in
    // a pair that pins it, so two bits swapped in the translation show
    b.record(146, THREAD_ONLY, 0, 0, 0, 0).u8(2 | 16).u16(win);
    b.record(147, 0x48, 9, 0, 9, 50).u16(win);
    List<RankCoverage> cov = new ArrayList<>();
    List<TraceCall> calls = readAll(b.sizes(0, 0, 1, 1, 1, 1, 4, 2, 2, 4, 4, 8, 8, 4, 8).build(), cov);
    CallTiming none = CallTiming.NONE;
    int noComm = TraceCall.COMM_NULL;
    int noGroup = TraceCall.GROUP_NULL;
    assertThat(calls).containsExactly(
        new WindowCall(CallKind.WIN_CREATE, win, 2, 4096, 8, noGroup, -1, false, 0, false,
            new CallTiming(1002_000_000_100L, 1002_000_000_300L)),
        new WindowCall(CallKind.WIN_FENCE, win, noComm, 0, 1, noGroup, -1, false,
            TraceCall.MODE_NOPRECEDE | TraceCall.MODE_NOSUCCEED, false, none),
        new OneSided(CallKind.PUT, win, 2, 7, 24, 20, none),
        new OneSided(CallKind.PUT, win, 1, 0, TraceCall.UNKNOWN_BYTES, 16, none),
        new OneSided(CallKind.GET, win, 3, 11, 16, 12, none),
        new OneSided(CallKind.ACCUMULATE, win, 0, 9, 24, 28, none),
        new OneSided(CallKind.PUT, win, TraceCall.PROC_NULL, 0, 4, 4, none),
        new WindowCall(CallKind.WIN_FENCE, win, noComm, 0, 1, noGroup, -1, false, 0, false, none),
        new WindowCall(CallKind.WIN_LOCK, win, noComm, 0, 1, noGroup, 3, true, TraceCall.MODE_NOCHECK, false, none),
        new WindowCall(CallKind.WIN_UNLOCK, win, noComm, 0, 1, noGroup, 3, false, 0, false, none),
        new WindowCall(CallKind.WIN_LOCK, win, noComm, 0, 1, noGroup, 2, false, 0, false, none),
        new WindowCall(CallKind.WIN_UNLOCK, win, noComm, 0, 1, noGroup, 2, false, 0, false, none),
        new WindowCall(CallKind.WIN_POST, win, noComm, 0, 1, TraceCall.GROUP_EMPTY, -1, false, TraceCall.MODE_NOPUT,
            false, none),
        new WindowCall(CallKind.WIN_START, win, noComm, 0, 1, 3, -1, false, TraceCall.MODE_NOCHECK, false, none),
        new WindowCall(CallKind.WIN_COMPLETE, win, noComm, 0, 1, noGroup, -1, false, 0, false, none),
        new WindowCall(CallKind.WIN_GET_GROUP, win, noComm, 0, 1, 5, -1, false, 0, false, none),
        new WindowCall(CallKind.WIN_TEST, win, noComm, 0, 1, noGroup, -1, false, 0, false, none),
        new WindowCall(CallKind.WIN_TEST, win, noComm, 0, 1, noGroup, -1, false, 0, true, none),
        new WindowCall(CallKind.WIN_WAIT, win, noComm, 0, 1, noGroup, -1, false, 0, false, none),
        new WindowCall(CallKind.WIN_FENCE, win, noComm, 0, 1, noGroup, -1, false,
            TraceCall.MODE_NOSTORE | TraceCall.MODE_NOSUCCEED, false, none),
        new WindowCall(CallKind.WIN_FREE, win, noComm, 0, 1, noGroup, -1, false, 0, false,
            new CallTiming(1009_000_000_000L, 1009_000_000_050L)));
    assertThat(cov.get(0).unmodelled()).isEmpty();
  }

  /**
   * DUMPI_WIN_NULL (0) reads as WIN_NULL; a window's size and a displacement, MPI_Aints DUMPI keeps in an int32, read
   * as the unsigned values they were (a 3 GiB window wraps negative in the int32).
   */
  @Test
  void theNullWindowAndSizesPastTwoGibibytes() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0);
    b.record(145, THREAD_ONLY, 0, 0, 0, 0).i32((int) (3L << 30)).i32(1).u16(1).u16(WORLD).u16(0);
    b.record(142, THREAD_ONLY, 0, 0, 0, 0).i32(1).u16(INT).i32(1).i32((int) (5L << 29)).i32(1).u16(INT).u16(0);
    List<TraceCall> calls = readAll(b.build(), new ArrayList<>());
    assertThat(calls).containsExactly(
        new WindowCall(CallKind.WIN_CREATE, TraceCall.WIN_NULL, TraceCall.COMM_WORLD, 3L << 30, 1,
            TraceCall.GROUP_NULL, -1, false, 0, false, CallTiming.NONE),
        new OneSided(CallKind.GET, TraceCall.WIN_NULL, 1, 5L << 29, 4, 4, CallTiming.NONE));
  }

  /**
   * Values libdumpi never writes are format errors naming the function and the record's offset (16: the first
   * record): a lock type other than shared (1) and exclusive (2), an assertion with a bit DUMPI does not define, a
   * displacement unit below 1.
   */
  @Test
  void badWindowValuesAreFormatErrors() {
    DumpiBinBuilder lock = new DumpiBinBuilder(1, 1, 0, 0);
    lock.record(149, THREAD_ONLY, 0, 0, 0, 0).u8(0).i32(1).u8(1).u16(1);
    assertThatThrownBy(() -> readAll(lock.build(), new ArrayList<>())).isInstanceOf(TraceFormatException.class)
        .hasMessageEndingWith("byte offset 16: MPI_Win_lock record at byte 16: bad lock type 0"
            + " (DUMPI_LOCK_SHARED is 1, DUMPI_LOCK_EXCLUSIVE 2)");
    DumpiBinBuilder assertion = new DumpiBinBuilder(1, 1, 0, 0);
    assertion.record(146, THREAD_ONLY, 0, 0, 0, 0).u8(32 | 8).u16(1);
    assertThatThrownBy(() -> readAll(assertion.build(), new ArrayList<>())).isInstanceOf(TraceFormatException.class)
        .hasMessageEndingWith("byte offset 16: MPI_Win_fence record at byte 16: bad window assertion 40"
            + " (DUMPI_MODE_* bits are 1, 2, 4, 8 and 16, or 255 for DUMPI_MODE_ERROR)");
    DumpiBinBuilder unit = new DumpiBinBuilder(1, 1, 0, 0);
    unit.record(145, THREAD_ONLY, 0, 0, 0, 0).i32(64).i32(0).u16(1).u16(WORLD).u16(1);
    assertThatThrownBy(() -> readAll(unit.build(), new ArrayList<>())).isInstanceOf(TraceFormatException.class)
        .hasMessageEndingWith("byte offset 16: MPI_Win_create record at byte 16: bad window displacement unit 0"
            + " (must be >= 1)");
  }

  @Test
  void rootOnlyFieldsOfGathervAndScatterv() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0);
    // dumpi_write_gatherv: commrank, commsize, sendcount, sendtype, root, comm, [recvcounts, displs if root], recvtype
    b.record(55, THREAD_ONLY, 0, 0, 0, 0).i32(0).i32(3).i32(2).u16(DOUBLE).i32(0).u16(WORLD).ints(2, 3, 4)
        .ints(0, 2, 5).u16(DOUBLE);
    b.record(55, THREAD_ONLY, 0, 0, 0, 0).i32(0).i32(3).i32(2).u16(DOUBLE).i32(1).u16(WORLD).u16(DOUBLE);
    // dumpi_write_scatterv: commrank, commsize, sendtype, recvcount, recvtype, root, comm, [sendcounts, displs]
    b.record(57, THREAD_ONLY, 0, 0, 0, 0).i32(2).i32(3).u16(INT).i32(6).u16(INT).i32(2).u16(WORLD).ints(1, 1, 6)
        .ints(0, 1, 2);
    // dumpi_write_gather: commrank, sendcount, sendtype, root, comm, [recvcount, recvtype if root]
    b.record(54, THREAD_ONLY, 0, 0, 0, 0).i32(1).i32(4).u16(INT).i32(0).u16(WORLD);
    List<TraceCall> calls = readAll(b.build(), new ArrayList<>());
    ImmutableLongArray none = ImmutableLongArray.of();
    assertThat(calls).containsExactly(
        new Collective(CallKind.GATHERV, 0, 0, 16, 0, none, ImmutableLongArray.of(16, 24, 32), 0, CallTiming.NONE),
        new Collective(CallKind.GATHERV, 0, 1, 16, 0, none, none, 0, CallTiming.NONE),
        new Collective(CallKind.SCATTERV, 0, 2, 0, 24, ImmutableLongArray.of(4, 4, 24), none, 0, CallTiming.NONE),
        new Collective(CallKind.GATHER, 0, 0, 16, 0, none, none, 0, CallTiming.NONE));
  }

  @Test
  void wholeBufferAndVectorCollectives() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0);
    b.record(52, THREAD_ONLY, 0, 0, 0, 0).u16(WORLD); // barrier: comm
    b.record(53, THREAD_ONLY, 0, 0, 0, 0).i32(100).u16(DOUBLE).i32(3).u16(WORLD); // bcast: count, type, root, comm
    b.record(65, THREAD_ONLY, 0, 0, 0, 0).i32(1).u16(DOUBLE).u8(3).u16(5); // allreduce: count, type, op, comm
    // alltoallv: commsize, sendcounts, senddispls, sendtype, recvcounts, recvdispls, recvtype, comm
    b.record(61, THREAD_ONLY, 0, 0, 0, 0).i32(2).ints(1, 2).ints(0, 1).u16(INT).ints(3, 4).ints(0, 3).u16(INT)
        .u16(WORLD);
    // reduce_scatter: commsize, recvcounts, datatype, op, comm
    b.record(66, THREAD_ONLY, 0, 0, 0, 0).i32(2).ints(5, 6).u16(INT).u8(3).u16(WORLD);
    List<TraceCall> calls = readAll(b.build(), new ArrayList<>());
    ImmutableLongArray none = ImmutableLongArray.of();
    assertThat(calls).containsExactly(
        new Collective(CallKind.BARRIER, 0, -1, 0, 0, none, none, 0, CallTiming.NONE),
        new Collective(CallKind.BCAST, 0, 3, 800, 800, none, none, 0, CallTiming.NONE),
        new Collective(CallKind.ALLREDUCE, 3, -1, 8, 8, none, none, 0, CallTiming.NONE),
        new Collective(CallKind.ALLTOALLV, 0, -1, 0, 0, ImmutableLongArray.of(4, 8), ImmutableLongArray.of(12, 16), 0,
            CallTiming.NONE),
        new Collective(CallKind.REDUCE_SCATTER, 0, -1, 44, 0, none, ImmutableLongArray.of(20, 24), 0,
            CallTiming.NONE));
  }

  /**
   * A collective's root is stored as the program passed it (DUMPI_INT_FROM_INT), so an intercommunicator's MPI_ROOT
   * and MPI_PROC_NULL are the library's: -3 and -1 under MPICH and Cray MPICH, -4 and -2 under Open MPI. Until stop 78
   * -2 (Open MPI's PROC_NULL) read as ROOT and -3 (MPICH's ROOT) as PROC_NULL.
   */
  @Test
  void aCollectivesRootIsTheLibrarysOwnRootOrProcNull() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0);
    for (int root : new int[] {-3, -1, -4, -2}) {
      b.record(53, THREAD_ONLY, 0, 0, 0, 0).i32(1).u16(DOUBLE).i32(root).u16(4); // bcast: count, type, root, comm
    }
    // reduce: count, datatype, op, root, comm
    b.record(62, THREAD_ONLY, 0, 0, 0, 0).i32(1).u16(DOUBLE).u8(3).i32(-3).u16(4);
    List<TraceCall> calls = readAll(b.build(), new ArrayList<>());
    assertThat(calls).extracting(c -> ((Collective) c).root()).containsExactly(TraceCall.ROOT, TraceCall.PROC_NULL,
        TraceCall.ROOT, TraceCall.PROC_NULL, TraceCall.ROOT);
  }

  @Test
  void completionsKeepTheirOutcome() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0);
    // waitany: count, requests, index, status
    b.record(16, STATUS_THREAD_WALL, 0, 0, 0, 0).i32(3).ints(7, 8, 9).i32(1).status(8, 0, 0);
    // testsome: count, requests, outcount, indices, statuses
    b.record(21, STATUS_THREAD_WALL, 0, 0, 0, 0).i32(2).ints(7, 9).i32(1).ints(1).status(8, 0, 0);
    // test: request, flag, status; flag 0: nothing completed
    b.record(14, STATUS_THREAD_WALL, 0, 0, 0, 0).i32(7).i32(0).status(0, 0, 0);
    // wait on DUMPI_REQUEST_NULL (1): status count 0
    b.record(13, STATUS_THREAD_WALL, 0, 0, 0, 0).i32(1).i32(0);
    List<TraceCall> calls = readAll(b.build(), new ArrayList<>());
    CallTiming zero = new CallTiming(0, 0);
    assertThat(calls).containsExactly(
        new Completion(CallKind.WAITANY, ImmutableLongArray.of(7, 8, 9), ImmutableLongArray.of(8), true, zero),
        new Completion(CallKind.TESTSOME, ImmutableLongArray.of(7, 9), ImmutableLongArray.of(9), true, zero),
        new Completion(CallKind.TEST, ImmutableLongArray.of(7), ImmutableLongArray.of(), true, zero),
        new Completion(CallKind.WAIT, ImmutableLongArray.of(TraceCall.REQUEST_NULL), ImmutableLongArray.of(), true,
            zero));
  }

  @Test
  void unmodelledRecordsAreSkippedAndCounted() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0).footer(46, 3, 2).footer(86, 1, 0).footer(125, 1, 0)
        .footer(171, 1, 0);
    // Type_commit: datatype; Function_enter: int64 address; Comm_split: oldcomm, color, key, newcomm
    b.record(46, THREAD_ONLY, 0, 0, 0, 0).u16(28);
    b.record(291, THREAD_ONLY, 0, 0, 0, 0).i64(0x400000L);
    b.record(86, THREAD_ONLY, 0, 0, 0, 0).u16(WORLD).i32(1).i32(5).u16(4);
    // Init_thread: argc, argv as character arrays, required, provided
    b.record(171, THREAD_ONLY, 0, 0, 0, 0).i32(2).chars("./amg").chars("-n").u8(1).u8(1);
    // Perf counters (mask 0x80): uint8 count then two int64 per counter; Finalize has no fields.
    b.record(125, THREAD_ONLY | 0x80, 0, 0, 0, 0).u8(1).i64(5).i64(6);
    List<RankCoverage> cov = new ArrayList<>();
    List<TraceCall> calls = readAll(b.build(), cov);
    assertThat(calls).containsExactly(
        new TraceCall.CommunicatorCall(CallKind.COMM_SPLIT, TraceCall.COMM_WORLD, 2, 1, 5, CallTiming.NONE),
        new TraceCall.Lifecycle(CallKind.INIT, CallTiming.NONE),
        new TraceCall.Lifecycle(CallKind.FINALIZE, CallTiming.NONE));
    RankCoverage c = cov.get(0);
    assertThat(c.unmodelled()).containsOnlyKeys("MPI_Type_commit", "Function_enter");
    assertThat(c.footerMismatches()).isEmpty(); // Type_commit: 3 calls, 2 ignored, 1 record
  }

  @Test
  void aRecordDisagreeingWithItsFooterIsReported() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0).footer(52, 2, 0);
    b.record(52, THREAD_ONLY, 0, 0, 0, 0).u16(WORLD);
    List<RankCoverage> cov = new ArrayList<>();
    readAll(b.build(), cov);
    assertThat(cov.get(0).footerMismatches()).containsExactly(java.util.Map.entry("MPI_Barrier", 1L));
  }

  @Test
  void oldStatusesWithoutTagsAreReadBefore063() throws IOException {
    DumpiBinBuilder b = new DumpiBinBuilder(0, 6, 2, 0);
    // Before 0.6.3 a status is bytes, source, cancelled, error: no tag.
    b.record(23, 0x43, 0, 0, 0, 0).i32(3).i32(1).u16(WORLD).i32(1).i32(64).i32(3).u8(0).u8(0);
    b.record(52, THREAD_ONLY, 0, 0, 0, 0).u16(WORLD);
    List<TraceCall> calls = readAll(b.build(), new ArrayList<>());
    assertThat(calls).hasSize(2);
    assertThat(((PointToPoint) calls.get(0)).bytes()).isEqualTo(64);
  }

  /**
   * MPI_Reduce_scatter's receive counts, each of which fits a long in bytes but whose sum does not (3 × (2^31 - 1)
   * elements of a derived type of 2^31 - 1 bytes): a format error at the record, where it was "sendBytes must be
   * >= 0" with no file.
   */
  @Test
  void reduceScatterCountsWhoseSumOverflowsAreAFormatError() {
    int[] sizes = new int[29];
    sizes[28] = Integer.MAX_VALUE;
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0).sizes(sizes);
    // dumpi_write_reduce_scatter: commsize, recvcounts, datatype, op, comm
    b.record(66, THREAD_ONLY, 0, 0, 0, 0).i32(3).ints(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE)
        .u16(28).u8(1).u16(WORLD);
    assertThatThrownBy(() -> readAll(b.build(), new ArrayList<>())).isInstanceOf(TraceFormatException.class)
        .hasMessageEndingWith("byte offset 16: MPI_Reduce_scatter record at byte 16: receive counts add up to more"
            + " than 9223372036854775807 bytes");
  }

  /** A call the model replays after MPI_Finalize is a format error at its record (libdumpi records none). */
  @Test
  void aCallAfterFinalizeIsAFormatError() {
    DumpiBinBuilder b = new DumpiBinBuilder(1, 1, 0, 0);
    b.record(125, THREAD_ONLY, 0, 0, 0, 0); // dumpi_write_finalize: no fields
    b.record(52, THREAD_ONLY, 0, 0, 0, 0).u16(WORLD); // dumpi_write_barrier: comm
    assertThatThrownBy(() -> readAll(b.build(), new ArrayList<>())).isInstanceOf(TraceFormatException.class)
        .hasMessageEndingWith("byte offset 21: MPI_Barrier record at byte 21: MPI_Barrier after the rank's"
            + " MPI_Finalize (the record at byte 16)");
  }
}
