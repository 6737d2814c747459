package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Random valid SimGrid traces replay with every message delivered exactly once. */
class TraceReplayProperties {

  /** A generated trace: its text, the messages it sends and their bytes. */
  record Script(String text, int messages, long bytes) {}

  /**
   * Every rank isends its messages (random peers, tags 0-3, sizes across the short, eager and rendezvous
   * protocols), then irecvs what is sent to it in the senders' order, then waits for all; ranks' lines are
   * interleaved at random (a shared file).
   */
  static Script script(int ranks, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int m = 1 + rnd.nextInt(24);
    List<List<String>> lines = new ArrayList<>();
    List<List<String>> receives = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      lines.add(new ArrayList<>(List.of(r + " init")));
      receives.add(new ArrayList<>());
    }
    long bytes = 0;
    for (int i = 0; i < m; i++) {
      int src = rnd.nextInt(ranks);
      int dst = rnd.nextInt(ranks);
      int tag = rnd.nextInt(4);
      int size = switch (rnd.nextInt(3)) {
        case 0 -> rnd.nextInt(1025); // short
        case 1 -> 1025 + rnd.nextInt(8192 - 1024); // eager
        default -> 8193 + rnd.nextInt(40_000); // rendezvous
      };
      bytes += size;
      lines.get(src).add(src + " isend " + dst + " " + tag + " " + size);
      receives.get(dst).add(dst + " irecv " + src + " " + tag + " " + size);
    }
    List<List<String>> all = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      List<String> l = lines.get(r);
      l.addAll(receives.get(r));
      l.add(r + " waitall");
      l.add(r + " finalize");
      all.add(l);
    }
    StringBuilder text = new StringBuilder();
    int[] next = new int[ranks];
    int left = all.stream().mapToInt(List::size).sum();
    while (left > 0) {
      int r = rnd.nextInt(ranks);
      if (next[r] < all.get(r).size()) {
        text.append(all.get(r).get(next[r]++)).append('\n');
        left--;
      }
    }
    return new Script(text.toString(), m, bytes);
  }

  @Test
  void everyMessageOfARandomValidTraceIsDeliveredExactlyOnce() throws IOException {
    Path dir = Files.createTempDirectory("replay-props");
    qt().withExamples(15).forAll(integers().between(2, 6), longs().all()).checkAssert((ranks, seed) -> {
      Script s = script(ranks, seed);
      try {
        Path f = dir.resolve("t" + Long.toHexString(seed) + ".txt");
        Files.writeString(f, s.text());
        AriesSystem system = AriesSystem.builder().system("default").seed(seed).build();
        ReplayResult r = TraceReplay.builder(system, SimGridTrace.open(f)).placement(Placement.RANDOM)
            .ranksPerNode(1 + (int) Math.floorMod(seed, 2)).build().run();
        assertThat(r.calls(CallKind.ISEND)).isEqualTo(s.messages());
        assertThat(r.calls(CallKind.IRECV)).isEqualTo(s.messages());
        assertThat(r.messages()).isEqualTo(s.messages());
        assertThat(r.bytes()).isEqualTo(s.bytes());
        assertThat(r.latency().count()).isEqualTo(s.messages());
        assertThat(r.receivesUnmatched()).isZero();
        Files.delete(f);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }
}
