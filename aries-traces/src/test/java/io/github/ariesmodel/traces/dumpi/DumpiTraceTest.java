package io.github.ariesmodel.traces.dumpi;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.RankCoverage;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.SharedTraces;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCoverage;
import io.github.ariesmodel.traces.TraceFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reads the whole AMG2013 trace (27 ranks, recorded with DUMPI on a Cray at NERSC) and checks it against facts
 * established apart from this reader: the footers' own counts, the pairing of sends and receives across ranks, and
 * the first records of rank 0 as decoded by hand from the bytes (with an independent Python script during the format
 * research).
 */
class DumpiTraceTest {
  private static DumpiTrace trace;
  private static final List<List<TraceCall>> CALLS = new ArrayList<>();
  private static final List<RankCoverage> COVERAGE = new ArrayList<>();

  @BeforeAll
  static void readEveryRank() throws IOException {
    trace = DumpiTrace.open(SharedTraces.amg());
    for (int r = 0; r < trace.ranks(); r++) {
      List<TraceCall> calls = new ArrayList<>();
      try (RankTrace stream = trace.open(r)) {
        TraceCall c;
        while ((c = stream.read()) != null) {
          calls.add(c);
        }
        assertThat(stream.read()).as("reading past the end stays at the end").isNull();
        COVERAGE.add(stream.coverage());
      }
      CALLS.add(calls);
    }
  }

  @Test
  void metaFileNamesTwentySevenRanks() {
    assertThat(trace.ranks()).isEqualTo(27);
    assertThat(trace.format()).isEqualTo(TraceFormat.DUMPI);
    assertThat(trace.metadata()).containsEntry("numprocs", "27").containsEntry("hostname", "nid05840");
    assertThat(trace.rankFile(26).getFileName().toString()).isEqualTo("dumpi-2014.03.03.14.55.00-0026.bin");
  }

  @Test
  void everyRankHoldsExactlyTheCallsItsFooterSaysWereRecorded() {
    for (RankCoverage c : COVERAGE) {
      assertThat(c.complete()).isTrue();
      assertThat(c.hasFooter()).isTrue();
      long expectedTotal = 0;
      for (Map.Entry<String, Long> e : c.footerCalls().entrySet()) {
        long expected = e.getValue() - c.footerIgnored().getOrDefault(e.getKey(), 0L);
        assertThat(c.recorded().getOrDefault(e.getKey(), 0L)).as("rank %d %s", c.rank(), e.getKey())
            .isEqualTo(expected);
        expectedTotal += expected;
      }
      assertThat(c.recordedTotal()).as("rank %d records", c.rank()).isEqualTo(expectedTotal);
      assertThat(c.footerMismatches()).isEmpty();
      assertThat(c.modelledTotal() + c.unmodelledTotal()).isEqualTo(c.recordedTotal());
      assertThat(CALLS.get(c.rank())).hasSize((int) c.modelledTotal());
    }
  }

  @Test
  void footersSayNinetyNinePercentOfTheRunWasNotRecorded() throws IOException {
    TraceCoverage c = trace.coverage();
    long made = c.footerCalls().values().stream().mapToLong(Long::longValue).sum();
    long ignored = c.footerIgnored().values().stream().mapToLong(Long::longValue).sum();
    long records = c.recorded().values().stream().mapToLong(Long::longValue).sum();
    assertThat(made).isEqualTo(5_334_545L);
    assertThat(ignored).isEqualTo(5_297_156L);
    assertThat(records).isEqualTo(made - ignored).isEqualTo(37_389L);
    // Whole functions the tracer never recorded: every collective, blocking send/receive, test and probe.
    for (String none : List.of("MPI_Allreduce", "MPI_Bcast", "MPI_Scan", "MPI_Send", "MPI_Recv", "MPI_Iprobe",
        "MPI_Testall", "MPI_Test", "MPI_Wait", "MPI_Finalize")) {
      assertThat(c.footerIgnored().get(none)).as(none).isEqualTo(c.footerCalls().get(none)).isPositive();
      assertThat(c.recorded()).doesNotContainKey(none);
    }
    assertThat(c.footerCalls()).containsEntry("MPI_Isend", 96_786L).containsEntry("MPI_Irecv", 97_518L);
    assertThat(c.recorded()).containsEntry("MPI_Isend", 15_524L).containsEntry("MPI_Irecv", 15_524L)
        .containsEntry("MPI_Waitall", 1_508L).containsEntry("MPI_Init", 27L)
        .containsEntry("MPI_Comm_rank", 2_430L).containsEntry("MPI_Comm_size", 2_376L);
    assertThat(c.unmodelled()).containsOnlyKeys("MPI_Comm_rank", "MPI_Comm_size");
    assertThat(c.modelled()).containsOnlyKeys(CallKind.INIT, CallKind.ISEND, CallKind.IRECV, CallKind.WAITALL);
    assertThat(String.join("\n", c.report())).contains("not recorded: MPI_Allreduce 2241 of 2241")
        .contains("recorded, not modelled: MPI_Comm_rank 2430");
  }

  private record Envelope(int from, int to, int tag, long bytes) {
  }

  @Test
  void everyRecordedSendHasAMatchingRecordedReceive() {
    Map<Envelope, Integer> sent = new HashMap<>();
    Map<Envelope, Integer> received = new HashMap<>();
    long sentBytes = 0;
    for (int r = 0; r < CALLS.size(); r++) {
      for (TraceCall c : CALLS.get(r)) {
        if (c instanceof TraceCall.PointToPoint p) {
          assertThat(p.communicator()).isEqualTo(TraceCall.COMM_WORLD);
          assertThat(p.peer()).isBetween(0, 26).isNotEqualTo(r);
          assertThat(p.bytes() % 8).as("AMG moves doubles").isZero();
          if (p.isSend()) {
            sent.merge(new Envelope(r, p.peer(), p.tag(), p.bytes()), 1, Integer::sum);
            sentBytes += p.bytes();
          } else {
            received.merge(new Envelope(p.peer(), r, p.tag(), p.bytes()), 1, Integer::sum);
          }
        }
      }
    }
    assertThat(received).isEqualTo(sent);
    assertThat(sentBytes).isEqualTo(13_584_368L);
  }

  @Test
  void everyRequestIsPostedBeforeItsWaitallAndCompletedOnce() {
    for (int r = 0; r < CALLS.size(); r++) {
      Set<Long> outstanding = new HashSet<>();
      for (TraceCall c : CALLS.get(r)) {
        if (c instanceof TraceCall.PointToPoint p && p.request() != TraceCall.REQUEST_NULL) {
          assertThat(outstanding.add(p.request())).as("rank %d request %d reused while outstanding", r, p.request())
              .isTrue();
        } else if (c instanceof TraceCall.Completion w) {
          assertThat(w.kind()).isEqualTo(CallKind.WAITALL);
          assertThat(w.completed()).isEqualTo(w.requests());
          for (long q : w.completed().toArray()) {
            assertThat(outstanding.remove(q)).as("rank %d completes %d", r, q).isTrue();
          }
        }
      }
      assertThat(outstanding).as("rank %d ends with requests outstanding", r).isEmpty();
    }
  }

  @Test
  void rankZeroStartsWithTheRecordsDecodedByHand() {
    List<TraceCall> calls = CALLS.get(0);
    assertThat(calls.get(0).kind()).isEqualTo(CallKind.INIT);
    // Bytes of the first Irecv record: label 0x000c, count 1600, datatype 14 (double, 8 bytes in the trace's size
    // table), source 1, tag 0, comm 2 (world), request 2.
    assertThat(calls.get(1)).isEqualTo(new TraceCall.PointToPoint(CallKind.IRECV, 1, 0, TraceCall.COMM_WORLD,
        12_800, 2, calls.get(1).timing()));
    assertThat(calls.get(4)).isEqualTo(new TraceCall.PointToPoint(CallKind.ISEND, 1, 0, TraceCall.COMM_WORLD,
        12_800, 5, calls.get(4).timing()));
    assertThat(((TraceCall.Completion) calls.get(7)).requests().asList()).containsExactly(2L, 3L, 4L, 5L, 6L, 7L);
    // Wall times: the body's offset is 1034919 s; MPI_Init entered 433163805 ns into that second.
    assertThat(calls.get(0).timing().entryNanos()).isEqualTo(1_034_919_433_163_805L);
  }

  @Test
  void eachRanksWallClockNeverRunsBackwards() {
    for (List<TraceCall> calls : CALLS) {
      long last = Long.MIN_VALUE;
      for (TraceCall c : calls) {
        assertThat(c.timing().isRecorded()).isTrue();
        assertThat(c.timing().entryNanos()).isGreaterThanOrEqualTo(last);
        last = c.timing().exitNanos();
      }
    }
  }

  @Test
  void sizeTableComesFromTheTrace() throws IOException {
    try (DumpiRankReader r = (DumpiRankReader) trace.open(0)) {
      assertThat(r.tracedDatatypeEntries()).isEqualTo(28);
    }
  }
}
