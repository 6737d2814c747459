package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The internal buffer allocator against a simple reference: live blocks never overlap, stay inside the heap and are
 * 64-byte aligned, and freeing everything gives the whole heap back as one block. (It once returned overlapping
 * blocks: it read a TreeMap entry after removing it.)
 */
class BufferHeapProperties {

  @Test
  void liveBlocksNeverOverlapAndFreeingEverythingRestoresTheHeap() {
    qt().withExamples(100).forAll(longs().all()).checkAssert(seed -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      long base = 4096;
      long length = 64L * 1024;
      BufferHeap heap = new BufferHeap(base, length);
      List<long[]> live = new ArrayList<>();
      for (int step = 0; step < 200; step++) {
        if (!live.isEmpty() && rnd.nextInt(3) == 0) {
          long[] b = live.remove(rnd.nextInt(live.size()));
          heap.release(b[0], b[1]);
          continue;
        }
        long bytes = rnd.nextInt(4) == 0 ? rnd.nextInt(8000) : rnd.nextInt(300);
        long at = heap.allocate(bytes);
        if (at < 0) {
          continue;
        }
        assertThat(at % BufferHeap.ALIGN).isZero();
        assertThat(at).isGreaterThanOrEqualTo(base);
        assertThat(at + bytes).isLessThanOrEqualTo(base + length);
        for (long[] o : live) {
          long oEnd = o[0] + Math.max(1, o[1]);
          assertThat(at + Math.max(1, bytes) <= o[0] || oEnd <= at)
              .as("block [%s, +%s) overlaps [%s, +%s)", at, bytes, o[0], o[1]).isTrue();
        }
        live.add(new long[] {at, bytes});
      }
      for (long[] b : live) {
        heap.release(b[0], b[1]);
      }
      assertThat(heap.inUse()).isZero();
      assertThat(heap.allocate(length)).isEqualTo(base);
    });
  }
}
