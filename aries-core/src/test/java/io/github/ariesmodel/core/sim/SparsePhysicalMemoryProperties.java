package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** {@link SparsePhysicalMemory} against a plain {@code byte[]} holding the same memory. */
class SparsePhysicalMemoryProperties {

  /** 80 pages: enough to force the page map to rehash several times. */
  private static final int CAPACITY = 80 * SparsePhysicalMemory.PAGE_BYTES;

  enum Kind { WRITE, READ, WRITE_LONG, READ_LONG, WRITE_INT, READ_INT }

  record Op(Kind kind, long address, int length, long value) {}

  private static Gen<Op> ops() {
    int page = SparsePhysicalMemory.PAGE_BYTES;
    // Addresses near page boundaries half of the time, so multi-byte accesses straddle pages.
    Gen<Long> nearBoundary = integers().between(0, CAPACITY / page).zip(integers().between(-9, 8),
        (p, d) -> (long) Math.max(0, Math.min(CAPACITY - 1, p * page + d)));
    Gen<Long> addresses = longs().between(0, CAPACITY - 1).mix(nearBoundary, 50);
    Gen<Integer> lengths = integers().between(0, 64).mix(integers().between(0, 3 * page), 20);
    return arbitrary().enumValues(Kind.class).zip(addresses, lengths, longs().all(), Op::new);
  }

  @Test
  void agreesWithAByteArrayOnRandomAccessSequences() {
    qt().withExamples(1_000).forAll(lists().of(ops()).ofSizeBetween(1, 60))
        .checkAssert(SparsePhysicalMemoryProperties::replay);
  }

  private static void replay(List<Op> ops) {
    SparsePhysicalMemory mem = new SparsePhysicalMemory(CAPACITY);
    byte[] ref = new byte[CAPACITY];
    for (Op op : ops) {
      int a = (int) op.address();
      switch (op.kind()) {
        case WRITE -> {
          int len = Math.min(op.length(), CAPACITY - a);
          byte[] src = new byte[len + 3];
          for (int i = 0; i < src.length; i++) {
            src[i] = (byte) (op.value() >>> (8 * (i % 8)) ^ i);
          }
          mem.write(a, src, 3, len);
          System.arraycopy(src, 3, ref, a, len);
        }
        case READ -> {
          int len = Math.min(op.length(), CAPACITY - a);
          int pages = mem.materializedPages();
          byte[] dst = new byte[len + 2];
          mem.read(a, dst, 2, len);
          for (int i = 0; i < len; i++) {
            assertThat(dst[2 + i]).as("byte at 0x%x", a + i).isEqualTo(ref[a + i]);
          }
          assertThat(mem.materializedPages()).as("reads materialize nothing").isEqualTo(pages);
        }
        case WRITE_LONG -> {
          int at = Math.min(a, CAPACITY - 8);
          mem.writeLong(at, op.value());
          for (int b = 0; b < 8; b++) {
            ref[at + b] = (byte) (op.value() >>> (8 * b));
          }
        }
        case READ_LONG -> {
          int at = Math.min(a, CAPACITY - 8);
          long expected = 0;
          for (int b = 7; b >= 0; b--) {
            expected = (expected << 8) | (ref[at + b] & 0xFF);
          }
          assertThat(mem.readLong(at)).as("long at 0x%x", at).isEqualTo(expected);
        }
        case WRITE_INT -> {
          int at = Math.min(a, CAPACITY - 4);
          mem.writeInt(at, (int) op.value());
          for (int b = 0; b < 4; b++) {
            ref[at + b] = (byte) (op.value() >>> (8 * b));
          }
        }
        case READ_INT -> {
          int at = Math.min(a, CAPACITY - 4);
          int expected = 0;
          for (int b = 3; b >= 0; b--) {
            expected = (expected << 8) | (ref[at + b] & 0xFF);
          }
          assertThat(mem.readInt(at)).as("int at 0x%x", at).isEqualTo(expected);
        }
      }
    }
    byte[] all = new byte[CAPACITY];
    mem.read(0, all, 0, CAPACITY);
    assertThat(all).isEqualTo(ref);
    assertThat(mem.materializedPages()).isLessThanOrEqualTo(CAPACITY / SparsePhysicalMemory.PAGE_BYTES);
  }

  record Alloc(long bytes, int alignmentShift) {}

  @Test
  void allocationsAreAlignedDisjointInsideCapacityAndFailOnlyWhenTheyCannotFit() {
    long capacity = 1L << 24;
    Gen<Alloc> allocs = longs().between(1, 1L << 20).mix(arbitrary().pick(1L, 4096L, 1L << 21), 20)
        .zip(integers().between(0, 22), Alloc::new);
    qt().withExamples(1_000).forAll(lists().of(allocs).ofSizeBetween(1, 40))
        .checkAssert(list -> {
          SparsePhysicalMemory mem = new SparsePhysicalMemory(capacity);
          long end = SparsePhysicalMemory.FIRST_ALLOCATABLE;
          for (Alloc a : list) {
            long alignment = 1L << a.alignmentShift();
            long start = (end + alignment - 1) / alignment * alignment;
            if (start + a.bytes() > capacity) {
              assertThatThrownBy(() -> mem.allocate(a.bytes(), alignment))
                  .isInstanceOf(IllegalStateException.class)
                  .hasMessageContaining("exhausted")
                  .hasMessageContaining(String.valueOf(a.bytes()));
            } else {
              long got = mem.allocate(a.bytes(), alignment);
              assertThat(got).isEqualTo(start);
              assertThat(got % alignment).isZero();
              end = got + a.bytes();
            }
            assertThat(mem.allocatedBytes()).isEqualTo(end - SparsePhysicalMemory.FIRST_ALLOCATABLE);
          }
        });
  }
}
