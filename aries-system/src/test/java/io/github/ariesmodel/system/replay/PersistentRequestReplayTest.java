package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCall.Completion;
import io.github.ariesmodel.traces.TraceCall.Lifecycle;
import io.github.ariesmodel.traces.TraceCall.Local;
import io.github.ariesmodel.traces.TraceCall.PointToPoint;
import io.github.ariesmodel.traces.TraceCall.RequestCall;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/**
 * Traced persistent requests (MPI_Send_init, MPI_Recv_init, MPI_Start, MPI_Startall, MPI_Request_free) replay as the
 * nonblocking calls their starts make: a ring exchange written with them gives the same replay as the same exchange
 * written with MPI_Isend and MPI_Irecv, and the handles follow MPI's rules (a wait on an inactive request returns at
 * once; a freed active receive completes unobserved; a start of an unknown or active handle is one clear error), and
 * a traced MPI_Cancel takes an unmatched receive back.
 */
class PersistentRequestReplayTest {

  private static final CallTiming T = CallTiming.NONE;
  private static final int WORLD = TraceCall.COMM_WORLD;
  private static final int RANKS = 4;
  private static final long[] SIZES = {8, 4000, 20_000, 300_001};
  private static final int ROUNDS = 3;

  private enum Style { NONBLOCKING, START_EACH, STARTALL }

  /**
   * Four ranks in a ring, three rounds: each rank receives every size from its left neighbour and sends it to its
   * right one, then waits for all; rank r sleeps r µs before each round. Receives use handles 100 + k, sends 200 + k.
   */
  private static List<List<TraceCall>> ring(Style style) {
    List<List<TraceCall>> all = new ArrayList<>();
    for (int r = 0; r < RANKS; r++) {
      int left = (r + RANKS - 1) % RANKS;
      int right = (r + 1) % RANKS;
      List<TraceCall> c = new ArrayList<>();
      c.add(new Lifecycle(CallKind.INIT, T));
      long[] handles = new long[2 * SIZES.length];
      for (int k = 0; k < SIZES.length; k++) {
        handles[2 * k] = 100 + k;
        handles[2 * k + 1] = 200 + k;
        if (style != Style.NONBLOCKING) {
          c.add(new PointToPoint(CallKind.RECV_INIT, left, k, WORLD, SIZES[k], 100 + k, T));
          c.add(new PointToPoint(CallKind.SEND_INIT, right, k, WORLD, SIZES[k], 200 + k, T));
        }
      }
      for (int round = 0; round < ROUNDS; round++) {
        c.add(new Local(CallKind.SLEEP, 0, 1000L * (r + 1), T));
        if (style == Style.STARTALL) {
          c.add(new RequestCall(CallKind.STARTALL, ImmutableLongArray.copyOf(handles), T));
        }
        for (int k = 0; k < SIZES.length; k++) {
          if (style == Style.NONBLOCKING) {
            c.add(new PointToPoint(CallKind.IRECV, left, k, WORLD, SIZES[k], 100 + k, T));
            c.add(new PointToPoint(CallKind.ISEND, right, k, WORLD, SIZES[k], 200 + k, T));
          } else if (style == Style.START_EACH) {
            c.add(new RequestCall(CallKind.START, ImmutableLongArray.of(100 + k), T));
            c.add(new RequestCall(CallKind.START, ImmutableLongArray.of(200 + k), T));
          }
        }
        ImmutableLongArray h = ImmutableLongArray.copyOf(handles);
        c.add(new Completion(CallKind.WAITALL, h, h, true, T));
      }
      if (style != Style.NONBLOCKING) {
        for (long h : handles) {
          c.add(new RequestCall(CallKind.REQUEST_FREE, ImmutableLongArray.of(h), T));
        }
      }
      c.add(new Lifecycle(CallKind.FINALIZE, T));
      all.add(c);
    }
    return all;
  }

  private static ReplayResult replay(List<List<TraceCall>> calls) {
    AriesSystem sys = AriesSystem.builder().system("default").seed(3).build();
    return TraceReplay.builder(sys, SyntheticTrace.of(calls)).compute(ComputeMode.AS_TRACED).build().run();
  }

  @Test
  void persistentRequestsReplayAsTheNonblockingCallsTheirStartsMake() {
    ReplayResult nonblocking = replay(ring(Style.NONBLOCKING));
    ReplayResult each = replay(ring(Style.START_EACH));
    ReplayResult all = replay(ring(Style.STARTALL));
    assertThat(nonblocking.messages()).isEqualTo((long) RANKS * ROUNDS * SIZES.length);
    for (ReplayResult p : List.of(each, all)) {
      assertThat(p.simulatedPs()).isEqualTo(nonblocking.simulatedPs());
      assertThat(p.communicationPs()).isEqualTo(nonblocking.communicationPs());
      assertThat(p.messages()).isEqualTo(nonblocking.messages());
      assertThat(p.bytes()).isEqualTo(nonblocking.bytes());
      assertThat(p.mpiMessages()).isEqualTo(nonblocking.mpiMessages());
      assertThat(p.requestsNotStarted()).isZero();
      assertThat(p.receivesUnmatched()).isZero();
    }
    // a start is noted where the trace makes it: one START a request times the same as its isend
    assertThat(each.latency()).isEqualTo(nonblocking.latency());
    assertThat(each.calls()).containsEntry(CallKind.START, (long) RANKS * ROUNDS * 2 * SIZES.length)
        .containsEntry(CallKind.SEND_INIT, (long) RANKS * SIZES.length)
        .containsEntry(CallKind.RECV_INIT, (long) RANKS * SIZES.length)
        .containsEntry(CallKind.REQUEST_FREE, (long) RANKS * 2 * SIZES.length)
        .doesNotContainKey(CallKind.ISEND);
    assertThat(all.calls()).containsEntry(CallKind.STARTALL, (long) RANKS * ROUNDS);
  }

  /**
   * Rank 1 waits on its persistent receive before starting it (MPI: an inactive request, at once), cancels it (no
   * effect on an inactive request), sends to rank 0, starts the receive and frees it while active; rank 0 sends only
   * after it has rank 1's message. Had the wait waited for a message, the replay would deadlock; the freed receive's
   * message counts as received, and nothing counts as not started or unmatched.
   */
  @Test
  void aWaitOnAnInactiveRequestReturnsAtOnceAndAFreedReceiveStillCompletes() {
    List<List<TraceCall>> calls = List.of(
        List.of(new Lifecycle(CallKind.INIT, T),
            new PointToPoint(CallKind.RECV, 1, 1, WORLD, 8, TraceCall.REQUEST_NULL, T),
            new PointToPoint(CallKind.SEND, 1, 9, WORLD, 64, TraceCall.REQUEST_NULL, T),
            new Lifecycle(CallKind.FINALIZE, T)),
        List.of(new Lifecycle(CallKind.INIT, T),
            new PointToPoint(CallKind.RECV_INIT, 0, 9, WORLD, 64, 5, T),
            new Completion(CallKind.WAIT, ImmutableLongArray.of(5), ImmutableLongArray.of(5), true, T),
            new RequestCall(CallKind.CANCEL, ImmutableLongArray.of(5), T), // inactive: no effect
            new PointToPoint(CallKind.SEND, 0, 1, WORLD, 8, TraceCall.REQUEST_NULL, T),
            new RequestCall(CallKind.START, ImmutableLongArray.of(5), T),
            new RequestCall(CallKind.REQUEST_FREE, ImmutableLongArray.of(5), T),
            new Lifecycle(CallKind.FINALIZE, T)));
    ReplayResult r = replay(calls);
    assertThat(r.requestsNotStarted()).isZero();
    assertThat(r.receivesUnmatched()).isZero();
    assertThat(r.messages()).isEqualTo(2);
    assertThat(r.latency().count()).isEqualTo(2);
  }

  /**
   * A waitsome without a recorded outcome (as a time-independent trace has it) ends every activation it finds
   * complete, not only the one the MPI layer's waitany returned: both receives restart at once after it.
   */
  @Test
  void aWaitsomeEndsEveryActivationItFindsComplete() {
    ImmutableLongArray both = ImmutableLongArray.of(5, 6);
    List<TraceCall> sender = new ArrayList<>(List.of(new Lifecycle(CallKind.INIT, T)));
    for (int i = 0; i < 4; i++) {
      sender.add(new PointToPoint(CallKind.SEND, 1, 1 + i % 2, WORLD, 16, TraceCall.REQUEST_NULL, T));
    }
    sender.add(new Lifecycle(CallKind.FINALIZE, T));
    List<List<TraceCall>> calls = List.of(sender,
        List.of(new Lifecycle(CallKind.INIT, T),
            new PointToPoint(CallKind.RECV_INIT, 0, 1, WORLD, 16, 5, T),
            new PointToPoint(CallKind.RECV_INIT, 0, 2, WORLD, 16, 6, T),
            new RequestCall(CallKind.STARTALL, both, T),
            new Local(CallKind.SLEEP, 0, 20_000, T),
            new Completion(CallKind.WAITSOME, both, ImmutableLongArray.of(), false, T),
            new RequestCall(CallKind.STARTALL, both, T),
            new Completion(CallKind.WAITALL, both, both, true, T),
            new Lifecycle(CallKind.FINALIZE, T)));
    ReplayResult r = replay(calls);
    assertThat(r.messages()).isEqualTo(4);
    assertThat(r.requestsNotStarted()).isZero();
  }

  /**
   * A traced MPI_Cancel takes back a wildcard receive before any message came: the message then goes to the receive
   * posted after it (without the cancel, the stale receive would take it and the later one would wait forever), and
   * the cancelled receive counts neither as received nor as unmatched.
   */
  @Test
  void aCancelledReceiveTakesNoMessage() {
    List<List<TraceCall>> calls = List.of(
        List.of(new Lifecycle(CallKind.INIT, T), new Local(CallKind.SLEEP, 0, 20_000, T),
            new PointToPoint(CallKind.SEND, 1, 5, WORLD, 64, TraceCall.REQUEST_NULL, T),
            new Lifecycle(CallKind.FINALIZE, T)),
        List.of(new Lifecycle(CallKind.INIT, T),
            new PointToPoint(CallKind.IRECV, TraceCall.ANY_SOURCE, 5, WORLD, 64, 3, T),
            new RequestCall(CallKind.CANCEL, ImmutableLongArray.of(3), T),
            new Completion(CallKind.WAIT, ImmutableLongArray.of(3), ImmutableLongArray.of(3), true, T),
            new PointToPoint(CallKind.RECV, 0, 5, WORLD, 64, TraceCall.REQUEST_NULL, T),
            new Lifecycle(CallKind.FINALIZE, T)));
    ReplayResult r = replay(calls);
    assertThat(r.messages()).isEqualTo(1);
    assertThat(r.receivesUnmatched()).isZero();
    assertThat(r.requestsNotStarted()).isZero();
    assertThat(r.calls()).containsEntry(CallKind.CANCEL, 1L);
  }

  /**
   * A traced MPI_Cancel of a rendezvous isend no receive has matched: the MPI layer takes it back (MPICH CH3's send
   * cancellation), the receiver's later receive of that tag gets the next message, and the cancelled send is neither
   * delivered nor reported as a send no receive matched. Until stop 55 the send went on, the receive took it and the
   * second message was left unmatched (the replay failed).
   */
  @Test
  void aCancelledRendezvousSendIsTakenBack() {
    List<List<TraceCall>> calls = List.of(
        List.of(new Lifecycle(CallKind.INIT, T),
            new PointToPoint(CallKind.ISEND, 1, 5, WORLD, 100_000, 3, T),
            new RequestCall(CallKind.CANCEL, ImmutableLongArray.of(3), T),
            new Completion(CallKind.WAIT, ImmutableLongArray.of(3), ImmutableLongArray.of(3), true, T),
            new PointToPoint(CallKind.SEND, 1, 5, WORLD, 64, TraceCall.REQUEST_NULL, T),
            new Lifecycle(CallKind.FINALIZE, T)),
        List.of(new Lifecycle(CallKind.INIT, T), new Local(CallKind.SLEEP, 0, 20_000, T),
            new PointToPoint(CallKind.IPROBE, 0, 9, WORLD, TraceCall.UNKNOWN_BYTES, TraceCall.REQUEST_NULL, T),
            new PointToPoint(CallKind.RECV, 0, 5, WORLD, 64, TraceCall.REQUEST_NULL, T),
            new Lifecycle(CallKind.FINALIZE, T)));
    ReplayResult r = replay(calls);
    assertThat(r.messages()).isEqualTo(1);
    assertThat(r.bytes()).isEqualTo(64);
    assertThat(r.receivesUnmatched()).isZero();
  }

  /**
   * Two ranks that each send the other 20,000 bytes before receiving: with MPI_Bsend (and a buffer attached) the
   * replay runs, as the traced program did; the same trace with standard sends deadlocks in the rendezvous, which is
   * what replaying a Bsend as a standard send (until stop 54) did to such a program.
   */
  @Test
  void bufferedSendsReplayWithTheirAttachedBuffer() {
    List<List<TraceCall>> buffered = new ArrayList<>();
    List<List<TraceCall>> standard = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      for (CallKind send : new CallKind[] {CallKind.BSEND, CallKind.SEND}) {
        List<TraceCall> c = new ArrayList<>();
        c.add(new Lifecycle(CallKind.INIT, T));
        if (send == CallKind.BSEND) {
          c.add(new TraceCall.BufferCall(CallKind.BUFFER_ATTACH, 30_000, T));
        }
        c.add(new PointToPoint(send, 1 - r, 1, WORLD, 20_000, TraceCall.REQUEST_NULL, T));
        c.add(new PointToPoint(CallKind.RECV, 1 - r, 1, WORLD, 20_000, TraceCall.REQUEST_NULL, T));
        if (send == CallKind.BSEND) {
          c.add(new TraceCall.BufferCall(CallKind.BUFFER_DETACH, 30_000, T));
        }
        c.add(new Lifecycle(CallKind.FINALIZE, T));
        (send == CallKind.BSEND ? buffered : standard).add(c);
      }
    }
    ReplayResult r = replay(buffered);
    assertThat(r.messages()).isEqualTo(2);
    assertThat(r.calls()).containsEntry(CallKind.BSEND, 2L).containsEntry(CallKind.BUFFER_ATTACH, 2L)
        .containsEntry(CallKind.BUFFER_DETACH, 2L);
    assertThatThrownBy(() -> replay(standard)).isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("deadlocked");
  }

  /** Rank 0 makes {@code calls} after its init, rank 1 only inits: the replay's refusal, as an assertion. */
  private static AbstractThrowableAssert<?, ? extends Throwable> refusal(TraceCall... calls) {
    List<TraceCall> rank0 = new ArrayList<>(List.of(new Lifecycle(CallKind.INIT, T)));
    rank0.addAll(List.of(calls));
    return assertThatThrownBy(() -> replay(List.of(rank0, List.of(new Lifecycle(CallKind.INIT, T)))))
        .isInstanceOf(TraceReplayException.class);
  }

  @Test
  void aStartOfAnUnknownOrActiveHandleIsOneClearError() {
    refusal(new RequestCall(CallKind.START, ImmutableLongArray.of(9), T), new Lifecycle(CallKind.FINALIZE, T))
        .hasMessageContaining("rank 0")
        .hasMessageContaining("START of requests [9]: request 9 is not a persistent request the trace created (or"
            + " it was freed)");
    refusal(new PointToPoint(CallKind.SEND_INIT, 1, 2, WORLD, 8, 7, T),
        new RequestCall(CallKind.START, ImmutableLongArray.of(7), T),
        new RequestCall(CallKind.START, ImmutableLongArray.of(7), T))
        .hasMessageContaining("request 7 is started again while its last start is active (no wait or test in the"
            + " trace completed it)");
    refusal(new PointToPoint(CallKind.SEND_INIT, 1, 2, WORLD, 8, 7, T),
        new PointToPoint(CallKind.RECV_INIT, 1, 2, WORLD, 8, 7, T))
        .hasMessageContaining("request 7 is reused while it names a persistent request not yet freed");
    refusal(new PointToPoint(CallKind.SEND_INIT, 1, 2, WORLD, 8, 7, T),
        new PointToPoint(CallKind.ISEND, 1, 2, WORLD, 8, 7, T))
        .hasMessageContaining("request 7 is reused while it names a persistent request not yet freed");
  }
}
