package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A block given back twice, or never handed out, is refused and changes nothing. Until stop 77 the second release of
 * a block was taken: it put a free block of its own size over the larger free block already holding it (the rest of
 * that block was lost to every later allocation) and took its bytes off the bytes in use again, below zero.
 */
class BufferHeapReleaseTest {

  private static final long BASE = 4096;
  private static final long LENGTH = 64L * 1024;

  @Test
  void aBlockReleasedTwiceIsRefusedAndTheHeapKeepsAllItsSpace() {
    BufferHeap heap = new BufferHeap(BASE, LENGTH);
    long a = heap.allocate(100);
    long b = heap.allocate(100);
    heap.release(a, 100);
    heap.release(b, 100);

    assertThatThrownBy(() -> heap.release(a, 100))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("internal buffer space [4096, +128) released twice or never allocated: it overlaps the free"
            + " block [4096, +65536)");
    assertThat(heap.inUse()).isZero();
    assertThat(heap.allocate(LENGTH)).as("the whole heap is still one free block").isEqualTo(BASE);
  }

  @Test
  void aBlockNeverHandedOutOrOutsideTheHeapIsRefused() {
    BufferHeap heap = new BufferHeap(BASE, LENGTH);
    long a = heap.allocate(64);
    assertThatThrownBy(() -> heap.release(a + 64, 64))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("released twice or never allocated");
    assertThatThrownBy(() -> heap.release(BASE + LENGTH, 64))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("internal buffer space [69632, +64) released outside the heap [4096, +65536)");
    assertThat(heap.inUse()).isEqualTo(64);
    heap.release(a, 64);
    assertThat(heap.allocate(LENGTH)).isEqualTo(BASE);
  }
}
