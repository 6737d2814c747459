package io.github.ariesmodel.traces.simgrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.TraceCall;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Random valid traces written as SimGrid lines and read back give exactly the calls they were written from, computed
 * here without the reader: sizes times element sizes from SMPI's datatype table (a few ids, copied by hand), request
 * ids numbered in posting order, waitall completing every request outstanding.
 */
class SimGridRoundTripProperties {
  private static final int RANKS = 3;
  /** Datatype ids and their sizes: double, int, char, short, byte, long double. */
  private static final int[][] TYPES = {{0, 8}, {1, 4}, {2, 1}, {3, 2}, {6, 1}, {14, 16}};
  private static Path dir;

  @BeforeAll
  static void temp() throws IOException {
    dir = Files.createTempDirectory("simgrid-roundtrip");
  }

  @AfterAll
  static void clean() throws IOException {
    Files.deleteIfExists(dir.resolve("t.txt"));
    Files.delete(dir);
  }

  private record Case(List<String> lines, List<TraceCall> expected) {
  }

  private static Case generate(long seed) {
    Random random = new Random(seed);
    List<String> lines = new ArrayList<>();
    List<TraceCall> expected = new ArrayList<>();
    boolean doubles = random.nextBoolean();
    int defaultBytes = doubles ? 8 : 1;
    lines.add(doubles ? "0 init 1" : "0 init");
    expected.add(new TraceCall.Lifecycle(CallKind.INIT, CallTiming.NONE));
    List<Long> outstanding = new ArrayList<>();
    long nextRequest = 1;
    int n = random.nextInt(40);
    for (int i = 0; i < n; i++) {
      int peer = 1 + random.nextInt(RANKS - 1);
      int tag = random.nextInt(100);
      long count = random.nextInt(1_000_000);
      boolean typed = random.nextBoolean();
      int[] type = TYPES[random.nextInt(TYPES.length)];
      String dt = typed ? " " + type[0] : "";
      long bytes = count * (typed ? type[1] : defaultBytes);
      switch (random.nextInt(7)) {
        case 0, 1, 2, 3 -> {
          String[] names = {"send", "isend", "recv", "irecv"};
          CallKind[] kinds = {CallKind.SEND, CallKind.ISEND, CallKind.RECV, CallKind.IRECV};
          int k = random.nextInt(4);
          long request = TraceCall.REQUEST_NULL;
          if (k == 1 || k == 3) {
            request = nextRequest++;
            outstanding.add(request);
          }
          lines.add("0 " + names[k] + " " + peer + " " + tag + " " + count + dt);
          expected.add(new TraceCall.PointToPoint(kinds[k], peer, tag, TraceCall.COMM_WORLD, bytes, request,
              CallTiming.NONE));
        }
        case 4 -> {
          double flops = random.nextInt(1 << 30) * 1e3;
          lines.add("0 compute " + flops);
          expected.add(new TraceCall.Local(CallKind.COMPUTE, flops, 0, CallTiming.NONE));
        }
        case 5 -> {
          int root = random.nextInt(RANKS);
          lines.add("0 bcast " + count + " " + root + dt);
          expected.add(new TraceCall.Collective(CallKind.BCAST, 0, root, bytes, bytes, ImmutableLongArray.of(),
              ImmutableLongArray.of(), 0, CallTiming.NONE));
        }
        default -> {
          lines.add("0 waitall");
          expected.add(new TraceCall.Completion(CallKind.WAITALL, ImmutableLongArray.copyOf(outstanding),
              ImmutableLongArray.copyOf(outstanding), true, CallTiming.NONE));
          outstanding.clear();
        }
      }
      if (random.nextInt(5) == 0) {
        lines.add(random.nextBoolean() ? "" : "# comment");
      }
    }
    lines.add("0 finalize");
    expected.add(new TraceCall.Lifecycle(CallKind.FINALIZE, CallTiming.NONE));
    for (int r = 1; r < RANKS; r++) {
      lines.add(random.nextInt(lines.size()), r + " init");
    }
    return new Case(lines, expected);
  }

  @Test
  void writtenLinesReadBackAsTheCallsTheyCameFrom() {
    qt().withExamples(200).forAll(longs().all()).checkAssert(seed -> {
      Case c = generate(seed);
      try {
        Path file = Files.write(dir.resolve("t.txt"), c.lines());
        SimGridTrace trace = SimGridTrace.open(file);
        assertThat(trace.ranks()).isEqualTo(RANKS);
        List<TraceCall> read = new ArrayList<>();
        try (RankTrace s = trace.open(0)) {
          TraceCall call;
          while ((call = s.read()) != null) {
            read.add(call);
          }
          assertThat(s.coverage().recordedTotal()).isEqualTo(c.expected().size());
        }
        assertThat(read).isEqualTo(c.expected());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }
}
