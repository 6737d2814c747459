package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * {@link BucketHeap} against a sorted list: entries come out in (time, sequence) order whether they fit the packed
 * key (a time inside the bucket, a small sequence) or turn the heap wide (a time before or after the bucket, a
 * sequence too large for the offset bits), and pushes between pops keep that order.
 */
class BucketHeapProperties {

  /** One operation: a push of (time offset from the bucket start, sequence), or a pop when {@code pop}. */
  record Op(boolean pop, long offset, long seq) {}

  private static Gen<Op> ops(int widthLog2) {
    long width = 1L << widthLog2;
    long seqLimit = widthLog2 == 0 ? Long.MAX_VALUE : 1L << (63 - widthLog2);
    Gen<Long> inside = longs().between(0, width - 1);
    Gen<Long> offsets = inside.mix(longs().between(-5_000, width + 5_000), 10);
    Gen<Long> small = longs().between(0, 1_000_000);
    // around the largest sequence that fits the packed key (at width 1 every sequence fits: up to Long.MAX_VALUE)
    long high = Math.min(seqLimit, Long.MAX_VALUE - 1_000);
    Gen<Long> seqs = small.mix(longs().between(high - 1_000, high + 1_000), 10);
    Gen<Op> push = offsets.zip(seqs, (o, s) -> new Op(false, o, s));
    Gen<Op> pop = longs().between(0, 0).map(x -> new Op(true, 0, 0));
    return push.mix(pop, 35);
  }

  private record Entry(long time, long seq, long arg) {}

  private static void check(int widthLog2, long base, List<Op> ops) {
    BucketHeap heap = new BucketHeap(widthLog2, 2);
    heap.startBucket(base);
    List<Entry> model = new ArrayList<>();
    Comparator<Entry> order = Comparator.comparingLong(Entry::time).thenComparingLong(Entry::seq);
    long nextArg = 0;
    for (Op op : ops) {
      if (op.pop()) {
        if (model.isEmpty()) {
          assertThat(heap.isEmpty()).isTrue();
          heap.startBucket(base);
          continue;
        }
        model.sort(order);
        Entry e = model.remove(0);
        assertThat(heap.minTime()).isEqualTo(e.time());
        assertThat(heap.minSeq()).isEqualTo(e.seq());
        assertThat(heap.minSlot()).isEqualTo((int) e.arg());
        heap.pop();
      } else {
        // sequences are unique in the loop: skip a repeated one
        long seq = op.seq();
        if (model.stream().anyMatch(m -> m.seq() == seq)) {
          continue;
        }
        long time = base + op.offset();
        long arg = nextArg++;
        heap.push(time, seq, (int) arg);
        model.add(new Entry(time, seq, arg));
      }
      assertThat(heap.size()).isEqualTo(model.size());
    }
    model.sort(order);
    for (Entry e : model) {
      assertThat(heap.minTime()).isEqualTo(e.time());
      assertThat(heap.minSeq()).isEqualTo(e.seq());
      heap.pop();
    }
    assertThat(heap.isEmpty()).isTrue();
  }

  @Test
  void defaultWidthPopsInTimeSequenceOrder() {
    qt().withExamples(300)
        .forAll(longs().between(0, 1L << 40), lists().of(ops(6)).ofSizeBetween(0, 200))
        .checkAssert((b, ops) -> check(6, b << 6, ops));
  }

  @Test
  void everyWidthPopsInTimeSequenceOrder() {
    for (int w : new int[] {0, 1, 3, 20, 40}) {
      qt().withExamples(100)
          .forAll(longs().between(0, 1L << 20), lists().of(ops(w)).ofSizeBetween(0, 150))
          .checkAssert((b, ops) -> check(w, (b << w) + (1L << 61), ops));
    }
  }
}
