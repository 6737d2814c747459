package io.github.ariesmodel.traces.simgrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCall.Collective;
import io.github.ariesmodel.traces.TraceCall.PointToPoint;
import io.github.ariesmodel.traces.TraceCall.SendReceive;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Lines as SMPI's tracer writes them (simgrid/simgrid commit 12a63c78cd: {@code TIData::print} in
 * {@code src/instr/instr_private.hpp}, the {@code *TIData} each {@code PMPI_*} binding passes), read as SMPI's replay
 * reads them ({@code src/smpi/internals/smpi_replay.cpp}); the expected values are worked out by hand.
 */
class SimGridSmpiFormTest {
  private static final long UNKNOWN = TraceCall.UNKNOWN_BYTES;

  @TempDir
  Path dir;

  /** Rank 0's calls of a four-rank trace whose other ranks only init. */
  private List<TraceCall> rank0(String... lines) throws IOException {
    Path file = Files.writeString(dir.resolve("t.txt"), "0 init\n1 init\n2 init\n3 init\n"
        + String.join("\n", lines) + "\n");
    Trace t = SimGridTrace.open(file);
    List<TraceCall> calls = new ArrayList<>();
    try (RankTrace s = t.open(0)) {
      for (TraceCall c; (c = s.read()) != null; ) {
        calls.add(c);
      }
      unknownBytesCalls = s.coverage().unknownBytesCalls();
    }
    return calls.subList(1, calls.size());
  }

  private long unknownBytesCalls;

  /**
   * SMPI writes a derived datatype (and any other it did not predefine) as id -1, the default id its Datatype
   * constructor leaves ({@code src/smpi/include/smpi_datatype.hpp}); its calls cannot take MPI_DATATYPE_NULL. So -1 is
   * a datatype of unknown size: such counts are UNKNOWN_BYTES, and counted as such, not 0 bytes (a replay refused a
   * receive of one such element of an 80-byte send with MPI_ERR_TRUNCATE).
   */
  @Test
  void smpisIdMinusOneIsADatatypeOfUnknownSize() throws IOException {
    List<TraceCall> calls = rank0(
        "0 send 1 0 10 -1", // MPI_Send of 10 elements of an MPI_Type_vector
        "0 recv 1 0 1 -1",
        "0 isend 1 0 0 -1", // no elements: 0 bytes whatever their size
        "0 sendRecv 10 1 10 2 -1 0",
        "0 bcast 5 0 -1",
        "0 gatherv 10 1 2 3 4 0 -1 0",
        "0 reducescatter 1 2 3 4 0 -1",
        "0 send 1 0 10 0"); // MPI_DOUBLE, as before
    assertThat(calls.get(0)).isEqualTo(new PointToPoint(CallKind.SEND, 1, 0, 0, UNKNOWN, TraceCall.REQUEST_NULL,
        CallTiming.NONE));
    assertThat(((PointToPoint) calls.get(1)).bytes()).isEqualTo(UNKNOWN);
    assertThat(((PointToPoint) calls.get(2)).bytes()).isZero();
    assertThat(calls.get(3)).isEqualTo(new SendReceive(1, 0, UNKNOWN, 2, 0, 80, 0, CallTiming.NONE));
    assertThat(calls.get(4)).isEqualTo(new Collective(CallKind.BCAST, 0, 0, UNKNOWN, UNKNOWN,
        ImmutableLongArray.of(), ImmutableLongArray.of(), 0, CallTiming.NONE));
    assertThat(calls.get(5)).isEqualTo(new Collective(CallKind.GATHERV, 0, 0, UNKNOWN, 0, ImmutableLongArray.of(),
        ImmutableLongArray.of(8, 16, 24, 32), 0, CallTiming.NONE));
    assertThat(calls.get(6)).isEqualTo(new Collective(CallKind.REDUCE_SCATTER, 0, -1, UNKNOWN, 0,
        ImmutableLongArray.of(), ImmutableLongArray.of(UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN), 0, CallTiming.NONE));
    assertThat(((PointToPoint) calls.get(7)).bytes()).isEqualTo(80);
    assertThat(unknownBytesCalls).isEqualTo(6);
  }

  /**
   * SMPI's replay reads a v-collective's per-rank counts with std::stoi (the leading int), its other counts as doubles:
   * "1e3" among the per-rank counts is 1 to it, and read as 1,000 it gave another message size than SMPI's replay.
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "0 gatherv 10 1e3 1 1 1 0 0 0|receive count must be a whole number of elements up to 2147483647, as SMPI's"
          + " replay reads a per-rank count with std::stoi, which reads '1e3' as 1",
      "0 scatterv 1 1 1 2.5e1 10 0 0 0|send count must be a whole number of elements up to 2147483647, as SMPI's"
          + " replay reads a per-rank count with std::stoi, which reads '2.5e1' as 2",
      "0 alltoallv 4 1 1 1 1 4 1 1 .5 1|receive count must be a whole number of elements up to 2147483647, as SMPI's"
          + " replay reads a per-rank count with std::stoi, which finds no int in '.5'",
      "0 reducescatter 1 1 1 3000000000 0 0|receive count must be a whole number of elements up to 2147483647, as"
          + " SMPI's replay reads a per-rank count with std::stoi, which finds no int in '3000000000'",
  })
  void perRankCountsThatStdStoiReadsOtherwiseAreRefused(String line, String problem) throws IOException {
    assertThatThrownBy(() -> rank0(line)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(", rank 0, line 5: " + problem);
  }

  @Test
  void perRankCountsStdStoiReadsTheSameAreRead() throws IOException {
    // "1.9" is 1 both ways (stoi stops at the point, parse_integer truncates); "+2" is 2; 2e1 as a single count is 20
    List<TraceCall> calls = rank0("0 gatherv 2e1 1.9 +2 3 4 0 6 6");
    assertThat(calls.get(0)).isEqualTo(new Collective(CallKind.GATHERV, 0, 0, 20, 0, ImmutableLongArray.of(),
        ImmutableLongArray.of(1, 2, 3, 4), 0, CallTiming.NONE));
  }

  /**
   * SimGrid's replay matches a line's rank as text ({@code src/xbt/xbt_replay.cpp}) and looks a datatype id up as text
   * ({@code Datatype::decode}): "00" or "+1" is no rank's line to it (skipped), "+0" no datatype (it dereferences the
   * map's end). They were read as rank 0 or 1 and as MPI_DOUBLE.
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "00 send 1 0 10|line 5: rank must be written '0', as SimGrid's replay names rank 0 (it compares the text: '00' is"
          + " no rank's line to it), was '00' in '00 send 1 0 10'",
      "+1 recv 0 0 10|line 5: rank must be written '1', as SimGrid's replay names rank 1 (it compares the text: '+1' is"
          + " no rank's line to it), was '+1' in '+1 recv 0 0 10'",
      "0 send 1 0 10 +0|rank 0, line 5: datatype must be an SMPI datatype id written as SMPI writes it, '0' (its replay"
          + " looks the text up), was '+0'",
      "0 bcast 10 0 05|rank 0, line 5: datatype must be an SMPI datatype id written as SMPI writes it, '5' (its replay"
          + " looks the text up), was '05'",
      "0 recv 1 0 10 -01|rank 0, line 5: datatype must be an SMPI datatype id written as SMPI writes it, '-1' (its"
          + " replay looks the text up), was '-01'",
  })
  void ranksAndDatatypesMustBeWrittenAsSimGridMatchesThem(String line, String problem) throws IOException {
    assertThatThrownBy(() -> rank0(line)).isInstanceOf(TraceFormatException.class).hasMessageContaining(problem);
  }

  /**
   * SimGrid reads a count or an amount with strtod and refuses text left after it ({@code xbt_str_parse_double}):
   * Java's parseDouble took "10f" and "1D" (as 10 and 1).
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "0 send 1 0 10f|size must be a number, was '10f'",
      "0 compute 1D|flops must be a number, was '1D'",
      "0 sleep 0x10|seconds must be a number, was '0x10'",
      "0 compute inf|flops must be finite, was 'inf'",
      "0 compute -Infinity|flops must be finite, was '-Infinity'",
      "0 bcast 1e400|size must be finite, was '1e400'",
  })
  void numbersAreWhatStrtodReadsWhole(String line, String problem) throws IOException {
    assertThatThrownBy(() -> rank0(line)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("rank 0, line 5: " + problem);
  }

  @Test
  void decimalFormsStrtodReadsAreRead() throws IOException {
    List<TraceCall> calls = rank0("0 compute 1.5e3", "0 compute .5", "0 compute 2.", "0 send 1 0 +1E+2");
    assertThat(calls.subList(0, 3)).containsExactly(new TraceCall.Local(CallKind.COMPUTE, 1500, 0, CallTiming.NONE),
        new TraceCall.Local(CallKind.COMPUTE, 0.5, 0, CallTiming.NONE),
        new TraceCall.Local(CallKind.COMPUTE, 2, 0, CallTiming.NONE));
    assertThat(((PointToPoint) calls.get(3)).bytes()).isEqualTo(100);
  }

  /**
   * SMPI's tracer writes a receive from MPI_ANY_SOURCE, and a call with MPI_PROC_NULL, with peer -333 (MPI_UNDEFINED,
   * the rank of no process); it was refused as any other rank out of range, without saying what it is.
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "0 irecv -333 0 10 0|source must be in 0..3, was -333, SMPI's MPI_UNDEFINED, which its tracer writes for"
          + " MPI_ANY_SOURCE or MPI_PROC_NULL",
      "0 isend -333 0 10 0|destination must be in 0..3, was -333, SMPI's MPI_UNDEFINED",
      "0 wait -333 0 -444|source must be in 0..3, was -333, SMPI's MPI_UNDEFINED",
      "0 send -334 0 10 0|destination must be in 0..3, was -334 in",
  })
  void smpisUndefinedPeerIsNamed(String line, String problem) throws IOException {
    assertThatThrownBy(() -> rank0(line)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("rank 0, line 5: " + problem);
  }
}
