package io.github.ariesmodel.traces.dumpi;

import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.RankCoverage;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Streams the calls of one DUMPI {@code .bin} file.
 *
 * <p>File layout (written by {@code dumpi/common/io.c}; integers big-endian):
 * <pre>
 *   0          magic 0xffaadd44554d5049 (8 bytes)
 *   body       cpu time offset (int32), wall time offset (int32), then call records
 *   header-2   label 293, the end of the call stream
 *   header     version (3 x uint8), start time (int64), host name, user name (uint16 length + bytes),
 *              mesh coordinates and sizes (int32 arrays)
 *   footer     magic 0xf007fee7 (8 bytes), calls made per function (291 x uint32), calls not recorded (291 x uint32)
 *   ...        keyval record, PAPI counter labels, datatype size table (int32 count + int32 sizes),
 *              function address table
 *   size-64    index: magic, then the offsets of the size table, address table, counter labels, header, body,
 *              footer and keyval record (int64 each; older files lack the first one to three)
 * </pre>
 * A call record is a 16-bit function label, an 8-bit config mask, then (by mask bit) a 16-bit thread id, CPU times
 * and wall times (each: start seconds uint16 plus the body's offset, start nanoseconds uint32, stop seconds, stop
 * nanoseconds), PAPI counters (uint8 count, then pairs of int64), then the function's fields
 * ({@link DumpiFunction}, {@link DumpiLayout}). Records carry no length, so every record of the stream must be
 * decoded to find the next; an unknown label stops the reader with an error.
 *
 * <p>Wall-clock seconds are stored in 16 bits ({@code put_times} in {@code dumpi/common/iodefs.h} writes
 * {@code (uint16_t)(wall->start.sec - profile->wall_time_offset)}) and wrap every 65,536 s; the reader undoes wraps by
 * assuming that consecutive timestamps of a rank are less than half that, 32,768 s, apart: a step back of more than
 * 32,768 s is a wrap. A step forward of more than 32,768 s cannot be told from a step back of less than 32,768 s across
 * a wrap, and a corrupt seconds field reads as one (one flipped byte made a 0.5 s run 10,496 s long), so it is refused,
 * naming both times. CPU times (stored the same way, from the body's CPU time offset) are kept for a record without
 * wall-clock times ({@link CallTiming#cpu}: libdumpi's {@code timestamps=cpu} setting records only them), with wraps
 * undone the same way on their own; a record with both keeps its wall-clock times and reads past its CPU times, as
 * before stop 75. Thread ids and counters are read past, not kept.
 */
final class DumpiRankReader implements RankTrace {
  static final long HEAD_MAGIC = 0xffaadd44554d5049L;
  static final long FOOT_MAGIC = 0xf007fee7L;
  private static final int INDEX_BYTES = 64;
  /**
   * The most seconds consecutive timestamps of a rank may be apart: half the 16-bit seconds field's 65,536, so that a
   * wrap can be told from a step (derived from the field's width).
   */
  static final int MAX_STEP_SECONDS = 32768;
  /**
   * The most seconds a timestamp may reach: a long's nanoseconds, less the 2 × 10^9 nanoseconds a CPU time may add
   * (derived: (2^63 - 1 - 2 × 10^9) / 10^9).
   */
  static final long MAX_SECONDS = (Long.MAX_VALUE - 2_000_000_000L) / 1_000_000_000L;

  private final Path file;
  private final int rank;
  private final DumpiInput in;
  private final DumpiRecord record = new DumpiRecord();
  private final DumpiDatatypes types;
  private final Map<String, Long> footerCalls = new HashMap<>();
  private final Map<String, Long> footerIgnored = new HashMap<>();
  private final Map<String, Long> recorded = new HashMap<>();
  private final Map<String, Long> unmodelled = new HashMap<>();
  private final Map<CallKind, Long> modelled = RankCoverage.newKindTally();
  private final long streamEnd;
  /** The wall clock's and the CPU time's 16-bit seconds, each with its offset and wraps. */
  private final Seconds wall;
  private final Seconds cpu;
  private long unknownBytes;
  /** The byte offset of the rank's MPI_Finalize record, or -1 before it: no modelled call may follow it. */
  private long finalizedAt = -1;
  private boolean done;

  DumpiRankReader(Path file, int rank) throws IOException {
    this.file = file;
    this.rank = rank;
    this.in = new DumpiInput(file, rank);
    boolean ok = false;
    try {
      long size = in.size();
      if (size < 8 + INDEX_BYTES) {
        throw TraceFormatException.ofFile(file, rank, "only " + size + " bytes: too short for a DUMPI file"
            + " (magic and index alone take " + (8 + INDEX_BYTES) + "); truncated?", null);
      }
      in.context("file magic");
      in.seek(0, size);
      if (in.i64() != HEAD_MAGIC) {
        throw in.error(0, "does not start with DUMPI's magic number: not a DUMPI .bin file");
      }
      long[] index = readIndex(size);
      long sizeTable = index[0];
      long header = index[3];
      long body = index[4];
      long footer = index[5];
      long indexStart = size - INDEX_BYTES;
      checkOffset("body", body, 8, indexStart);
      checkOffset("header", header, body + 8, indexStart);
      record.version = readVersion(header, indexStart);
      if (footer != 0) {
        checkOffset("footer", footer, header, indexStart);
        readFooter(footer, indexStart);
      }
      if (sizeTable != 0) {
        checkOffset("datatype size table", sizeTable, header, indexStart);
      }
      this.types = new DumpiDatatypes(sizeTable == 0 ? new int[0] : readSizes(sizeTable, indexStart));
      this.streamEnd = header;
      in.context("call stream start");
      in.seek(body, streamEnd);
      this.cpu = new Seconds("CPU-time", in.i32() & 0xffff_ffffL, 2_000_000_000L);
      this.wall = new Seconds("wall-clock", in.i32() & 0xffff_ffffL, 1_000_000_000L);
      in.context("");
      ok = true;
    } finally {
      if (!ok) {
        in.close();
      }
    }
  }

  private void checkOffset(String what, long offset, long min, long max) throws TraceFormatException {
    if (offset < min || offset >= max) {
      throw TraceFormatException.atByte(file, rank, in.size() - INDEX_BYTES, "index gives the " + what
          + " at byte " + offset + ", outside " + min + ".." + (max - 1) + ": corrupt or truncated file");
    }
  }

  /** Index entries: size table, address table, counter labels, header, body, footer, keyval (0 if absent). */
  private long[] readIndex(long size) throws IOException {
    in.context("index");
    long at = size - INDEX_BYTES;
    in.seek(at, size);
    long[] index = new long[7];
    int optional = 3;
    long magic = in.i64();
    while (magic != HEAD_MAGIC && optional > 0) {
      // Older files have a shorter index: no size table before 0.6.6, no address or counter tables before late 2009.
      optional--;
      magic = in.i64();
    }
    if (magic != HEAD_MAGIC) {
      throw in.error(at, "no index at the end of the file (missing magic number): truncated or not a DUMPI file");
    }
    for (int i = 3 - optional; i < 7; i++) {
      index[i] = in.i64();
    }
    return index;
  }

  private int readVersion(long header, long limit) throws IOException {
    in.context("header");
    in.seek(header, limit);
    int major = in.u8();
    int minor = in.u8();
    int sub = in.u8();
    return DumpiRecord.version(major, minor, sub);
  }

  private void readFooter(long footer, long limit) throws IOException {
    in.context("footer");
    in.seek(footer, limit);
    long magic = in.i64();
    if (magic != FOOT_MAGIC) {
      throw in.error(footer, "footer does not start with its magic number 0xf007fee7");
    }
    long[] calls = new long[DumpiFunction.FOOTER_SLOTS];
    for (int i = 0; i < calls.length; i++) {
      calls[i] = in.i32() & 0xffff_ffffL;
    }
    for (int i = 0; i < calls.length; i++) {
      long ignored = in.i32() & 0xffff_ffffL;
      DumpiFunction f = DumpiFunction.inFooterSlot(i);
      if (f != null && calls[i] > 0) {
        footerCalls.put(f.mpiName(), calls[i]);
        footerIgnored.put(f.mpiName(), ignored);
      }
    }
  }

  private int[] readSizes(long at, long limit) throws IOException {
    in.context("datatype size table");
    in.seek(at, limit);
    int n = in.count(4);
    int[] sizes = new int[n];
    for (int i = 0; i < n; i++) {
      sizes[i] = in.i32();
    }
    return sizes;
  }

  @Override
  public int rank() {
    return rank;
  }

  /** Entries of the trace's own datatype size table (0 if it has none). */
  int tracedDatatypeEntries() {
    return types.tracedEntries();
  }

  @Override
  public TraceCall read() throws IOException {
    while (!done) {
      long at = in.position();
      if (at == streamEnd) {
        done = true; // no end label, but the stream stops exactly where the header starts
        break;
      }
      in.context("record at byte " + at);
      int label = in.u16();
      if (label == DumpiFunction.END_OF_STREAM) {
        done = true;
        break;
      }
      DumpiFunction f = DumpiFunction.byId(label);
      if (f == null) {
        throw in.error(at, "unknown DUMPI function id " + label + " (known: 0-289, 291, 292; 293 ends the stream)");
      }
      record.start(f, at);
      in.context(f.mpiName() + " record at byte " + at);
      readPrefix();
      DumpiLayout layout = f.layout();
      for (int i = 0; i < layout.size(); i++) {
        if (layout.rootOnly(i) && record.scalars[layout.rankField()] != record.scalars[layout.rootField()]) {
          record.present[i] = false;
          continue;
        }
        layout.code(i).read(in, record, i);
      }
      recorded.merge(f.mpiName(), 1L, Long::sum);
      DumpiMappings.Mapping mapping = DumpiMappings.of(f);
      if (mapping == null) {
        unmodelled.merge(f.mpiName(), 1L, Long::sum);
        continue;
      }
      TraceCall call = mapping.map(record, types, in);
      if (finalizedAt >= 0) {
        // MPI allows no call after MPI_Finalize but a few queries (MPI_Finalized, MPI_Get_version), which are not
        // modelled; libdumpi writes its file out in MPI_Finalize, so this is a damaged or hand-made trace
        throw in.error(at, f.mpiName() + " after the rank's MPI_Finalize (the record at byte " + finalizedAt + ")");
      }
      if (call.kind() == CallKind.FINALIZE) {
        finalizedAt = at;
      }
      modelled.merge(call.kind(), 1L, Long::sum);
      if (TraceCall.hasUnknownBytes(call)) {
        unknownBytes++;
      }
      return call;
    }
    in.context("");
    return null;
  }

  private void readPrefix() throws IOException {
    int mask = in.u8();
    record.mask = mask;
    if ((mask & DumpiRecord.MASK_THREAD) != 0) {
      in.u16();
    }
    record.timing = CallTiming.NONE;
    if ((mask & DumpiRecord.MASK_CPU_TIME) != 0 && (mask & DumpiRecord.MASK_WALL_TIME) != 0) {
      in.skip(12); // the wall-clock times are kept
    } else if ((mask & DumpiRecord.MASK_CPU_TIME) != 0) {
      // (until stop 75 CPU times were read past, and such a trace replayed --compute as-traced as skip, silently)
      long entry = time(cpu);
      long exit = time(cpu);
      checkOrder(entry, exit, "CPU time");
      record.timing = CallTiming.cpu(entry, exit);
    }
    if ((mask & DumpiRecord.MASK_WALL_TIME) != 0) {
      long entry = time(wall);
      long exit = time(wall);
      checkOrder(entry, exit, "");
      record.timing = new CallTiming(entry, exit);
    }
    if ((mask & DumpiRecord.MASK_PERF) != 0) {
      int counters = in.u8();
      in.skip(16L * counters);
    }
  }

  private void checkOrder(long entry, long exit, String clock) throws TraceFormatException {
    if (exit < entry) {
      throw in.error(record.offset, "call exits (" + exit + " ns" + (clock.isEmpty() ? "" : " of " + clock)
          + ") before it enters (" + entry + " ns)");
    }
  }

  /** A clock's stored seconds: its offset, and the wraps of its 16 bits undone. */
  private static final class Seconds {
    final String name;
    final long offset;
    /**
     * Nanoseconds a timestamp may hold, exclusive: 10^9 for the wall clock; 2 × 10^9 for CPU time, which libdumpi
     * takes from {@code getrusage} without {@code CLOCK_PROCESS_CPUTIME_ID} as 1,000 × (user + system
     * microseconds), each below 10^6 (sst-dumpi's {@code dumpi/common/gettime.c}).
     */
    final long nanosBound;
    long wrapBase;
    int last = -1;

    Seconds(String name, long offset, long nanosBound) {
      this.name = name;
      this.offset = offset;
      this.nanosBound = nanosBound;
    }
  }

  private long time(Seconds clock) throws IOException {
    long at = in.position();
    int seconds = in.u16();
    long nanos = in.i32() & 0xffff_ffffL;
    if (nanos >= clock.nanosBound) {
      throw in.error(record.offset, "bad " + clock.name + " nanoseconds " + nanos + " (must be < "
          + (clock.nanosBound == 1_000_000_000L ? "10^9" : "2 x 10^9") + ")");
    }
    if (clock.last >= 0 && seconds > clock.last + MAX_STEP_SECONDS) {
      // (until stop 73 it was taken, and the next timestamp's step back read as a wrap: 65,536 s added to the rest)
      throw in.error(at, clock.name + " seconds jump from " + clock.last + " to " + seconds
          + ", more than " + MAX_STEP_SECONDS + " s forward between consecutive timestamps: DUMPI stores them in 16"
          + " bits, so such a jump cannot be told from a step back across a wrap (corrupt file?)");
    }
    if (clock.last >= 0 && seconds < clock.last - MAX_STEP_SECONDS) {
      clock.wrapBase += 65536;
    }
    clock.last = seconds;
    long total = clock.wrapBase + seconds + clock.offset;
    if (total > MAX_SECONDS) {
      // (until stop 78 the nanoseconds wrapped past 2^63 and the rank's later calls read with negative times: 3 MB of
      // records whose seconds each step 30,000 s forward reach it)
      throw in.error(at, clock.name + " time of " + total + " s, past the " + MAX_SECONDS + " s (2^63 ns, 292 years)"
          + " a time in nanoseconds can hold: its 16-bit seconds wrapped " + clock.wrapBase / 65536 + " times (corrupt"
          + " file?)");
    }
    return total * 1_000_000_000L + nanos;
  }

  @Override
  public RankCoverage coverage() {
    return RankCoverage.of(rank, recorded, modelled, unmodelled, footerCalls, footerIgnored, unknownBytes, done);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
