package io.github.ariesmodel.traces.simgrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.RankCoverage;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.SharedTraces;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCall.Collective;
import io.github.ariesmodel.traces.TraceCall.Completion;
import io.github.ariesmodel.traces.TraceCall.PointToPoint;
import io.github.ariesmodel.traces.TraceFormat;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reads every SimGrid example trace (SimGrid's {@code examples/smpi/replay}, copied into the test resources) and
 * checks the calls against counts taken from the files by a different method (a regular expression over the whole
 * text) and against values worked out by hand from the lines.
 */
class SimGridTraceTest {
  private static final Pattern ACTION_LINE = Pattern.compile("(?m)^[ \\t]*(\\d+)[ \\t]+([A-Za-z_]+)");

  @TempDir
  Path dir;

  private static List<TraceCall> read(Trace t, int rank) throws IOException {
    List<TraceCall> calls = new ArrayList<>();
    try (RankTrace s = t.open(rank)) {
      TraceCall c;
      while ((c = s.read()) != null) {
        calls.add(c);
      }
    }
    return calls;
  }

  private static Map<Integer, Integer> linesPerRank(Path file) throws IOException {
    Map<Integer, Integer> counts = new TreeMap<>();
    Matcher m = ACTION_LINE.matcher(Files.readString(file, StandardCharsets.ISO_8859_1));
    while (m.find()) {
      counts.merge(Integer.parseInt(m.group(1)), 1, Integer::sum);
    }
    return counts;
  }

  /**
   * A UTF-8 byte-order mark at the start of a shared trace, of a rank's own file and of an index is not part of the
   * first line (editors on Windows write one; link lists and YAML files accept it): until stop 73 each was refused,
   * "found '\u00ef\u00bb\u00bf0'", and the index's first entry named no file.
   */
  @Test
  void aByteOrderMarkAtTheStartOfATraceARankFileOrAnIndexIsSkipped() throws IOException {
    byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
    Path shared = dir.resolve("shared.txt");
    Files.write(shared, bom);
    Files.writeString(shared, "0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n0 finalize\n1 finalize\n",
        java.nio.file.StandardOpenOption.APPEND);
    SimGridTrace t = SimGridTrace.open(shared);
    assertThat(t.isShared()).isTrue();
    assertThat(t.ranks()).isEqualTo(2);
    assertThat(read(t, 0)).extracting(TraceCall::kind).containsExactly(CallKind.INIT, CallKind.SEND, CallKind.FINALIZE);
    assertThat(read(t, 1)).extracting(TraceCall::kind).containsExactly(CallKind.INIT, CallKind.RECV, CallKind.FINALIZE);
    Path r0 = dir.resolve("r0.txt");
    Files.write(r0, bom);
    Files.writeString(r0, "0 init\n0 send 1 0 8\n0 finalize\n", java.nio.file.StandardOpenOption.APPEND);
    Files.writeString(dir.resolve("r1.txt"), "1 init\n1 recv 0 0 8\n1 finalize\n");
    Path index = dir.resolve("index.idx");
    Files.write(index, bom);
    Files.writeString(index, "r0.txt\nr1.txt\n", java.nio.file.StandardOpenOption.APPEND);
    SimGridTrace own = SimGridTrace.open(index);
    assertThat(own.isShared()).isFalse();
    assertThat(own.ranks()).isEqualTo(2);
    assertThat(read(own, 0)).extracting(TraceCall::kind)
        .containsExactly(CallKind.INIT, CallKind.SEND, CallKind.FINALIZE);
    // a mark anywhere else is the line's: refused as any stray bytes before a rank are
    Path inside = Files.writeString(dir.resolve("inside.txt"), "0 init\n\ufeff0 finalize\n", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> read(SimGridTrace.open(inside), 0)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("line 2");
  }

  @ParameterizedTest
  @ValueSource(strings = {"actions_allgatherv.txt", "actions_allreduce.txt", "actions_alltoall.txt",
      "actions_alltoallv.txt", "actions_barrier.txt", "actions_bcast.txt", "actions_gather.txt",
      "actions_reducescatter.txt", "actions_waitall.txt", "actions_with_isend.txt"})
  void everyLineOfEverySharedExampleIsReadOnce(String name) throws IOException {
    Path file = SharedTraces.simgridExamples().resolve(name);
    SimGridTrace t = SimGridTrace.open(file);
    Map<Integer, Integer> expected = linesPerRank(file);
    assertThat(t.isShared()).isTrue();
    assertThat(t.ranks()).isEqualTo(expected.size());
    assertThat(TraceFormat.detect(file)).isEqualTo(TraceFormat.SIMGRID);
    for (int r = 0; r < t.ranks(); r++) {
      try (RankTrace s = t.open(r)) {
        int calls = 0;
        while (s.read() != null) {
          calls++;
        }
        RankCoverage c = s.coverage();
        assertThat(c.recordedTotal()).as("%s rank %d", name, r).isEqualTo(expected.get(r).longValue());
        assertThat(c.unmodelledTotal()).isZero();
        assertThat(calls).isEqualTo(expected.get(r));
        assertThat(c.hasFooter()).isFalse();
      }
    }
  }

  /**
   * An index is read as SMPI reads {@code smpirun -replay}'s file ({@code smpi_read_replay}): a line whole is a file
   * name, spaces and all, and only empty lines are skipped. A name with a space was split into words and the index
   * read as actions: "a line must start with its rank ..., found 'my'" (until stop 70).
   */
  @Test
  void indexEntriesAreWholeLinesSpacesIncludedAndEmptyLinesAreSkipped() throws IOException {
    Path run = Files.createDirectories(dir.resolve("my run"));
    Files.copy(SharedTraces.simgridExamples().resolve("actions0.txt"), run.resolve("rank 0.txt"));
    Files.copy(SharedTraces.simgridExamples().resolve("actions1.txt"), run.resolve("rank 1.txt"));
    // (SMPI writes tracing/filename + "_files/" + a prefix + "_rank-N.txt": a trace file name with a space gives these)
    Path index = Files.writeString(dir.resolve("index"), "\nmy run/rank 0.txt\n\n" + run.resolve("rank 1.txt") + "\n\n");
    SimGridTrace t = SimGridTrace.open(index);
    assertThat(t.isShared()).isFalse();
    assertThat(t.ranks()).isEqualTo(2);
    assertThat(read(t, 0)).hasSize(5).startsWith(new TraceCall.Lifecycle(CallKind.INIT, CallTiming.NONE));
    assertThat(read(t, 1)).hasSize(7);
  }

  /**
   * An index of one entry is a shared trace of every rank, as SMPI gives a one-line list to rank 0 as the trace all
   * ranks share ({@code smpi_deployment_smpirun}; SimGrid's own test lists {@code actions_bcast.txt} in a one-line
   * file so). It was read as rank 0's own file and refused at rank 1's first line (until stop 70).
   */
  @Test
  void anIndexOfOneEntryIsASharedTraceOfEveryRank() throws IOException {
    Path shared = Files.copy(SharedTraces.simgridExamples().resolve("actions_bcast.txt"), dir.resolve("bcast.txt"));
    Path index = Files.writeString(dir.resolve("one_trace"), "bcast.txt\n");
    SimGridTrace t = SimGridTrace.open(index);
    SimGridTrace direct = SimGridTrace.open(shared);
    assertThat(t.isShared()).isTrue();
    assertThat(t.source()).isEqualTo(index);
    assertThat(t.ranks()).isEqualTo(direct.ranks()).isEqualTo(linesPerRank(shared).size()).isGreaterThan(1);
    for (int r = 0; r < t.ranks(); r++) {
      assertThat(read(t, r)).as("rank %s", r).isEqualTo(read(direct, r));
    }
  }

  /** What SMPI would open, this reader opens: a name whose trailing space and carriage return are the file's own. */
  @Test
  void anEntryWithWhiteSpaceOrACarriageReturnNamesTheFileThatHasThem() throws IOException {
    Files.copy(SharedTraces.simgridExamples().resolve("actions0.txt"), dir.resolve(" r0.txt\r"));
    Files.copy(SharedTraces.simgridExamples().resolve("actions1.txt"), dir.resolve("r1.txt "));
    Path index = Files.writeString(dir.resolve("index"), " r0.txt\r\nr1.txt \n");
    SimGridTrace t = SimGridTrace.open(index);
    assertThat(t.ranks()).isEqualTo(2);
    assertThat(read(t, 1)).hasSize(7);
  }

  @Test
  void perRankFilesOfTheFirstExampleReadAsTwoRanks() throws IOException {
    // absolute entries, by copies in a temporary folder
    Path rank0 = Files.copy(SharedTraces.simgridExamples().resolve("actions0.txt"), dir.resolve("actions0.txt"));
    Path rank1 = Files.copy(SharedTraces.simgridExamples().resolve("actions1.txt"), dir.resolve("actions1.txt"));
    Path index = Files.writeString(dir.resolve("split_traces"), rank0.toAbsolutePath() + "\n"
        + rank1.toAbsolutePath() + "\n");
    SimGridTrace t = SimGridTrace.open(index);
    assertThat(t.isShared()).isFalse();
    assertThat(t.ranks()).isEqualTo(2);
    CallTiming none = CallTiming.NONE;
    // "0 send 1 0 1e6" with a bare init: the default type is MPI_BYTE, so 10^6 bytes.
    assertThat(read(t, 0)).containsExactly(
        new TraceCall.Lifecycle(CallKind.INIT, none),
        new PointToPoint(CallKind.SEND, 1, 0, TraceCall.COMM_WORLD, 1_000_000, TraceCall.REQUEST_NULL, none),
        new PointToPoint(CallKind.RECV, 1, 1, TraceCall.COMM_WORLD, 1_000_000, TraceCall.REQUEST_NULL, none),
        new PointToPoint(CallKind.SEND, 1, 2, TraceCall.COMM_WORLD, 1_000_000, TraceCall.REQUEST_NULL, none),
        new TraceCall.Lifecycle(CallKind.FINALIZE, none));
    // "1 wait 0 1 2" waits for the receive from 0 with tag 2: the second request rank 1 posted.
    assertThat(read(t, 1)).containsExactly(
        new TraceCall.Lifecycle(CallKind.INIT, none),
        new PointToPoint(CallKind.RECV, 0, 0, TraceCall.COMM_WORLD, 1_000_000, TraceCall.REQUEST_NULL, none),
        new TraceCall.Local(CallKind.COMPUTE, 1e9, 0, none),
        new PointToPoint(CallKind.ISEND, 0, 1, TraceCall.COMM_WORLD, 1_000_000, 1, none),
        new PointToPoint(CallKind.IRECV, 0, 2, TraceCall.COMM_WORLD, 1_000_000, 2, none),
        new Completion(CallKind.WAIT, ImmutableLongArray.of(2), ImmutableLongArray.of(2), true, none),
        new TraceCall.Lifecycle(CallKind.FINALIZE, none));
  }

  @Test
  void indexEntriesAreFoundFromTheWorkingDirectoryAsSmpiWritesThemElseFromTheIndexFolder() throws IOException {
    // SMPI writes "<tracing/filename>_files/<prefix>_rank-N.txt", relative to the traced run's working directory
    // (simgrid src/instr/instr_config.cpp); they were looked for only beside the index
    Path run = Files.createDirectories(dir.resolve("run/traces/app.txt_files"));
    Files.writeString(run.resolve("1_rank-0.txt"), "0 init\n0 send 1 0 8\n0 finalize\n");
    Files.writeString(run.resolve("1_rank-1.txt"), "1 init\n1 recv 0 0 8\n1 finalize\n");
    Path workingDir = Path.of("").toAbsolutePath();
    Path fromWorkingDir = workingDir.relativize(run);
    // the index lies deeper than the working directory, so that the entries read from the index's folder climb
    // to a folder that does not exist (from a folder as deep as the working directory they would reach the same
    // files: the test would then prove nothing, and it did so on a machine whose checkout was that deep)
    Path indexDir = dir.resolve("elsewhere");
    for (int i = 0; i <= workingDir.getNameCount(); i++) {
      indexDir = indexDir.resolve("d" + i);
    }
    Path index = Files.writeString(Files.createDirectories(indexDir).resolve("app.txt"),
        fromWorkingDir.resolve("1_rank-0.txt") + "\n" + fromWorkingDir.resolve("1_rank-1.txt") + "\n");
    assertThat(indexDir.resolve(fromWorkingDir)).doesNotExist();
    SimGridTrace t = SimGridTrace.open(index);
    assertThat(t.ranks()).isEqualTo(2);
    assertThat(read(t, 1).get(1)).isEqualTo(new PointToPoint(CallKind.RECV, 0, 0, TraceCall.COMM_WORLD, 8,
        TraceCall.REQUEST_NULL, CallTiming.NONE));
    // names beside the index, as SimGrid's split_traces example lists them, still read
    Path beside = Files.writeString(dir.resolve("run/traces/app.txt_files/index"), "1_rank-0.txt\n1_rank-1.txt\n");
    assertThat(read(SimGridTrace.open(beside), 0)).hasSize(3);
  }

  @Test
  void indexEntriesAreUtf8FileNames() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        io.github.ariesmodel.traces.FileNames.charset().equals(StandardCharsets.UTF_8), "the JVM names files in UTF-8 (sun.jnu.encoding, from a UTF-8 locale)");
    // the index's lines were decoded one char a byte, as action lines are: wörk/ was looked for as wÃ¶rk/
    Path folder = Files.createDirectories(dir.resolve("wörk"));
    Files.writeString(folder.resolve("r0.txt"), "0 init\n0 send 1 0 8\n0 finalize\n");
    Files.writeString(folder.resolve("r1.txt"), "1 init\n1 recv 0 0 8\n1 finalize\n");
    Path index = Files.writeString(dir.resolve("index"), "wörk/r0.txt\nwörk/r1.txt\n", StandardCharsets.UTF_8);
    SimGridTrace t = SimGridTrace.open(index);
    assertThat(t.ranks()).isEqualTo(2);
    assertThat(read(t, 1)).hasSize(3);
    // an entry that is not UTF-8 (ISO-8859-1's ö) names no file: refused, naming its line
    Path latin1 = Files.write(dir.resolve("latin1"), "w\u00f6rk/r0.txt\n".getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> SimGridTrace.open(latin1)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("line 1").hasMessageContaining("is not text in the file names' charset UTF-8");
  }

  @Test
  void testLeavesItsRequestForTheLaterWait() throws IOException {
    List<TraceCall> rank1 = read(SimGridTrace.open(SharedTraces.simgridExamples().resolve("actions_with_isend.txt")),
        1);
    assertThat(rank1.get(1)).isEqualTo(new PointToPoint(CallKind.IRECV, 0, 0, 0, 1_000_000, 1, CallTiming.NONE));
    assertThat(rank1.get(3)).isEqualTo(new Completion(CallKind.TEST, ImmutableLongArray.of(1),
        ImmutableLongArray.of(), false, CallTiming.NONE));
    assertThat(rank1.get(5)).isEqualTo(new Completion(CallKind.WAIT, ImmutableLongArray.of(1),
        ImmutableLongArray.of(1), true, CallTiming.NONE));
  }

  @Test
  void waitallCompletesEveryOutstandingRequest() throws IOException {
    Trace t = SimGridTrace.open(SharedTraces.simgridExamples().resolve("actions_waitall.txt"));
    List<TraceCall> rank0 = read(t, 0);
    assertThat(rank0.get(3)).isEqualTo(new Completion(CallKind.WAITALL, ImmutableLongArray.of(1, 2),
        ImmutableLongArray.of(1, 2), true, CallTiming.NONE));
    assertThat(((PointToPoint) rank0.get(2)).bytes()).isEqualTo(3000);
  }

  @Test
  void waitallWithTheCountSmpisTracerWritesCompletesEveryOutstandingRequest() throws IOException {
    // PMPI_Waitall traces "waitall <count>" (simgrid src/smpi/bindings/smpi_pmpi_request.cpp); it was refused
    Path file = Files.writeString(dir.resolve("waitall_n.txt"), "0 init\n1 init\n0 isend 1 0 10\n"
        + "1 irecv 0 0 10\n0 isend 1 1 10\n1 irecv 0 1 10\n0 waitall 2\n1 waitall 2\n0 finalize\n1 finalize\n");
    Trace t = SimGridTrace.open(file);
    for (int r = 0; r < 2; r++) {
      assertThat(read(t, r).get(3)).isEqualTo(new Completion(CallKind.WAITALL, ImmutableLongArray.of(1, 2),
          ImmutableLongArray.of(1, 2), true, CallTiming.NONE));
    }
  }

  @Test
  void smpisAnyTagOnAReceiveIsTheWildcardAndItsWaitFindsTheRequest() throws IOException {
    // MPI_ANY_TAG is -444 in SMPI (simgrid include/smpi/smpi.h); the wait line repeats the request's tag
    Path file = Files.writeString(dir.resolve("anytag.txt"), "0 init\n1 init\n0 isend 1 7 10\n"
        + "1 irecv 0 -444 10\n1 test 0 1 -444\n1 wait 0 1 -444\n0 wait 0 1 7\n0 send 1 3 10\n1 recv 0 -444 10\n"
        + "0 finalize\n1 finalize\n");
    List<TraceCall> rank1 = read(SimGridTrace.open(file), 1);
    CallTiming none = CallTiming.NONE;
    assertThat(rank1.subList(1, 5)).containsExactly(
        new PointToPoint(CallKind.IRECV, 0, TraceCall.ANY_TAG, TraceCall.COMM_WORLD, 10, 1, none),
        new Completion(CallKind.TEST, ImmutableLongArray.of(1), ImmutableLongArray.of(), false, none),
        new Completion(CallKind.WAIT, ImmutableLongArray.of(1), ImmutableLongArray.of(1), true, none),
        new PointToPoint(CallKind.RECV, 0, TraceCall.ANY_TAG, TraceCall.COMM_WORLD, 10, TraceCall.REQUEST_NULL,
            none));
  }

  @Test
  void alltoallvCarriesPerRankCounts() throws IOException {
    List<TraceCall> rank0 = read(SimGridTrace.open(SharedTraces.simgridExamples().resolve("actions_alltoallv.txt")),
        0);
    // "0 alltoallv 100 1 40 30 1000 1 80 100": send buffer 100, sends 1 40 30, receive buffer 1000, receives 1 80 100.
    Collective c = (Collective) rank0.get(1);
    assertThat(c.kind()).isEqualTo(CallKind.ALLTOALLV);
    assertThat(c.sendBytesPerRank().asList()).containsExactly(1L, 40L, 30L);
    assertThat(c.receiveBytesPerRank().asList()).containsExactly(1L, 80L, 100L);
  }

  @Test
  void vectorCollectivesUseTheirDatatypeArguments() throws IOException {
    // "3 allgatherv 204020 275427 275427 275427 204020 0 0": datatypes 0 are MPI_DOUBLE, 8 bytes.
    Collective all = (Collective) read(
        SimGridTrace.open(SharedTraces.simgridExamples().resolve("actions_allgatherv.txt")), 3).get(1);
    assertThat(all.sendBytes()).isEqualTo(204_020L * 8);
    assertThat(all.receiveBytesPerRank().asList()).containsExactly(275_427L * 8, 275_427L * 8, 275_427L * 8,
        204_020L * 8);
    // "2 reducescatter 275427 275427 275427 204020 12501522 0"
    Collective rs = (Collective) read(
        SimGridTrace.open(SharedTraces.simgridExamples().resolve("actions_reducescatter.txt")), 2).get(1);
    assertThat(rs.reductionFlops()).isEqualTo(12_501_522.0);
    assertThat(rs.receiveBytesPerRank().asList()).containsExactly(275_427L * 8, 275_427L * 8, 275_427L * 8,
        204_020L * 8);
    // "1 gather 68 68 0 0 0"
    Collective g = (Collective) read(
        SimGridTrace.open(SharedTraces.simgridExamples().resolve("actions_gather.txt")), 1).get(1);
    assertThat(g).isEqualTo(new Collective(CallKind.GATHER, 0, 0, 68 * 8, 68 * 8, ImmutableLongArray.of(),
        ImmutableLongArray.of(), 0, CallTiming.NONE));
  }

  @Test
  void reductionsKeepTheirFlopsAndTheDefaultByteType() throws IOException {
    List<TraceCall> rank2 = read(SimGridTrace.open(SharedTraces.simgridExamples().resolve("actions_bcast.txt")), 2);
    assertThat(rank2.get(1)).isEqualTo(new Collective(CallKind.BCAST, 0, 0, 50_000, 50_000,
        ImmutableLongArray.of(), ImmutableLongArray.of(), 0, CallTiming.NONE));
    assertThat(rank2.get(5)).isEqualTo(new Collective(CallKind.REDUCE, 0, 0, 50_000, 50_000,
        ImmutableLongArray.of(), ImmutableLongArray.of(), 5e8, CallTiming.NONE));
    assertThat(rank2.get(2)).isEqualTo(new TraceCall.Local(CallKind.COMPUTE, 5e8, 0, CallTiming.NONE));
  }

  @Test
  void initWithAnArgumentMakesDoublesTheDefaultAndDatatypeIdsSetSizes() throws IOException {
    // From SimGrid's actions_bcast_reduce_datatypes.txt: rank 0's lines, plus a sleep and a skipped comm_size.
    Path file = Files.writeString(dir.resolve("datatypes.txt"), String.join("\n",
        "1 init 1", "0 init 1", "# a comment", "0 bcast 5e4 1 0", "0 bcast 5e4 0 3", "0 reduce 5e4 5e8 0 4",
        "0 allreduce 10 1",
        "0 comm_size 1", "0 sleep 0.25", "0 finalize", "1 finalize", ""));
    Trace t = SimGridTrace.open(file);
    List<TraceCall> calls = read(t, 0);
    assertThat(((Collective) calls.get(1)).root()).isEqualTo(1);
    assertThat(((Collective) calls.get(1)).sendBytes()).isEqualTo(400_000); // MPI_DOUBLE, id 0
    assertThat(((Collective) calls.get(2)).sendBytes()).isEqualTo(100_000); // MPI_SHORT, id 3
    assertThat(((Collective) calls.get(3)).sendBytes()).isEqualTo(400_000); // MPI_LONG, id 4
    assertThat(((Collective) calls.get(4)).sendBytes()).isEqualTo(80); // default after "init 1": double
    assertThat(calls.get(5)).isEqualTo(new TraceCall.Local(CallKind.SLEEP, 0, 250_000_000, CallTiming.NONE));
    assertThat(t.coverage().unmodelled()).containsExactly(Map.entry("comm_size", 1L));
  }
}
