package io.github.ariesmodel.testkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.spi.HostMemory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The contract of core's {@link HostMemory} port, as an abstract JUnit 5 test: extend it, return a fresh memory from
 * {@link #create()}, and the inherited tests check what the port promises:
 *
 * <ul>
 *   <li>read after write: what was written at any address, of any width (bytes, 32-bit and 64-bit words) and any
 *       alignment, including ranges that cross a 4 KB or 2 MB boundary and the last bytes below the capacity, is what
 *       a later read returns, and nothing else changes (a property test against a map of bytes);
 *   <li>words are little-endian: a word written reads back byte by byte lowest byte first, and the reverse;
 *   <li>memory never written reads as zero, anywhere up to the capacity;
 *   <li>reads and writes touch only the array range they are given;
 *   <li>an access outside {@code [0, capacity)} (negative, straddling the end, past the end) is refused with an
 *       {@link IllegalArgumentException} whose message names the address (in decimal or hex), and a refused write
 *       changes nothing;
 *   <li>{@code allocate} returns aligned, disjoint ranges inside the memory that read as zero, counts them in
 *       {@code allocatedBytes}, refuses a zero size or a non-power-of-two alignment with an
 *       {@link IllegalArgumentException}, and throws {@link IllegalStateException} once the memory is exhausted;
 *   <li>{@code free} refuses a size that is not positive; a memory that gives bytes back (answers true) counts them
 *       out of {@code allocatedBytes} (with, perhaps, the bytes an alignment skipped beside them), drops their
 *       contents (they read as zero) and hands them out again only where nothing reserved lies, leaving the other
 *       allocations' contents as they were; one that keeps them (false, the default) changes nothing.
 * </ul>
 *
 * <pre>{@code
 * class MyMemoryContractTest extends HostMemoryContract {
 *   protected HostMemory create() { return new MyMemory(64L << 20); }
 * }
 * }</pre>
 *
 * <p>The port has no atomic operations (the NIC's AMO unit reads, computes and writes through it, single-threaded),
 * so none is checked.
 */
public abstract class HostMemoryContract {

  /** For subclasses. */
  protected HostMemoryContract() {}

  /** @return a fresh memory, nothing written or allocated, of at least 8 MiB */
  protected abstract HostMemory create();

  private static final long PAGE = 4096;
  private static final long HUGE = 2L << 20;

  /** Interesting addresses: around 4 KB and 2 MB boundaries, near 0 and near the capacity. */
  private static List<Long> edges(long capacity) {
    List<Long> bases = List.of(0L, PAGE, 7 * PAGE, HUGE, 3 * HUGE, capacity / 2 & -PAGE, capacity - PAGE, capacity);
    List<Long> out = new ArrayList<>();
    for (long b : bases) {
      for (long d = -9; d <= 9; d++) {
        long a = b + d;
        if (a >= 0 && a < capacity) {
          out.add(a);
        }
      }
    }
    return out;
  }

  @Test
  void capacityIsLargeEnoughForTheContract() {
    assertThat(create().capacity()).as("capacity (the contract needs >= 8 MiB)").isGreaterThanOrEqualTo(8L << 20);
  }

  /**
   * {@code physicalMemory()} (stop 74): null (the memory does not say), or a memory of the same capacity that names
   * itself, one for each memory made: a translator compares it to tell its own memory from another node's.
   */
  @Test
  void physicalMemoryIsNullOrTheSameMemoryOfEachOneMade() {
    HostMemory m = create();
    HostMemory p = m.physicalMemory();
    if (p == null) {
      return;
    }
    assertThat(p.capacity()).as("capacity of physicalMemory()").isEqualTo(m.capacity());
    assertThat(p.physicalMemory()).as("physicalMemory() of physicalMemory()").isSameAs(p);
    assertThat(m.physicalMemory()).as("physicalMemory() asked again").isSameAs(p);
    assertThat(create().physicalMemory()).as("physicalMemory() of another memory made").isNotSameAs(p);
  }

  @Test
  void untouchedMemoryReadsZeroEverywhere() {
    HostMemory m = create();
    long cap = m.capacity();
    for (long a : edges(cap)) {
      int n = (int) Math.min(16, cap - a);
      byte[] dst = new byte[n];
      Arrays.fill(dst, (byte) 0x5A);
      m.read(a, dst, 0, n);
      assertThat(dst).as("bytes at 0x%s", Long.toHexString(a)).containsOnly((byte) 0);
      if (a <= cap - 8) {
        assertThat(m.readLong(a)).as("long at 0x%s", Long.toHexString(a)).isZero();
      }
      if (a <= cap - 4) {
        assertThat(m.readInt(a)).as("int at 0x%s", Long.toHexString(a)).isZero();
      }
    }
  }

  @Test
  void wordsAreLittleEndian() {
    HostMemory m = create();
    for (long a : new long[] {0, PAGE - 3, HUGE - 5, m.capacity() - 8}) {
      m.writeLong(a, 0x0102030405060708L);
      byte[] b = new byte[8];
      m.read(a, b, 0, 8);
      assertThat(b).as("bytes of a long written at 0x%s", Long.toHexString(a))
          .containsExactly(8, 7, 6, 5, 4, 3, 2, 1);
      assertThat(m.readInt(a)).isEqualTo(0x05060708);
      assertThat(m.readInt(a + 4)).isEqualTo(0x01020304);
      m.writeInt(a + 2, 0xA1B2C3D4);
      assertThat(m.readLong(a)).isEqualTo(0x0102A1B2C3D40708L);
      m.write(a, new byte[] {(byte) 0xEF, (byte) 0xCD, (byte) 0xAB, (byte) 0x89}, 0, 4);
      assertThat(m.readLong(a)).isEqualTo(0x0102A1B289ABCDEFL);
    }
  }

  @Test
  void readsAndWritesTouchOnlyTheGivenArrayRange() {
    HostMemory m = create();
    byte[] src = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    m.write(PAGE - 2, src, 3, 4);
    assertThat(src).as("write leaves its source alone").containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    byte[] dst = new byte[10];
    Arrays.fill(dst, (byte) -1);
    m.read(PAGE - 3, dst, 2, 6);
    assertThat(dst).containsExactly(-1, -1, 0, 4, 5, 6, 7, 0, -1, -1);
  }

  /** Random mixes of writes of every width at edge-biased addresses agree with a map of bytes. */
  @Test
  void readAfterWriteAgreesWithAByteMap() {
    long cap = create().capacity();
    List<Long> edges = edges(cap);
    qt().withExamples(100).forAll(longs().all()).checkAssert(seed -> {
      HostMemory m = create();
      Map<Long, Byte> model = new HashMap<>();
      SplittableRandom r = new SplittableRandom(seed);
      for (int step = 0; step < 40; step++) {
        long a = r.nextInt(3) == 0 ? r.nextLong(cap) : edges.get(r.nextInt(edges.size()));
        switch (r.nextInt(4)) {
          case 0 -> {
            if (a <= cap - 8) {
              long v = r.nextLong();
              m.writeLong(a, v);
              for (int b = 0; b < 8; b++) {
                model.put(a + b, (byte) (v >>> (8 * b)));
              }
            }
          }
          case 1 -> {
            if (a <= cap - 4) {
              int v = r.nextInt();
              m.writeInt(a, v);
              for (int b = 0; b < 4; b++) {
                model.put(a + b, (byte) (v >>> (8 * b)));
              }
            }
          }
          default -> {
            // mostly short writes; now and then one that spans more than a 4 KB page
            int n = (int) Math.min(cap - a, r.nextInt(8) == 0 ? r.nextInt(1, 9000) : r.nextInt(1, 100));
            byte[] src = new byte[n + 4];
            r.nextBytes(src);
            m.write(a, src, 2, n);
            for (int i = 0; i < n; i++) {
              model.put(a + i, src[2 + i]);
            }
          }
        }
      }
      for (long a : edges) {
        int n = (int) Math.min(cap - a, 24);
        byte[] got = new byte[n];
        m.read(a, got, 0, n);
        for (int i = 0; i < n; i++) {
          expectByte(a + i, got[i], model);
        }
        if (a <= cap - 8) {
          long expected = 0;
          for (int b = 7; b >= 0; b--) {
            expected = (expected << 8) | (model.getOrDefault(a + b, (byte) 0) & 0xFF);
          }
          assertThat(m.readLong(a)).as("long at 0x%s", Long.toHexString(a)).isEqualTo(expected);
          assertThat(m.readInt(a)).as("int at 0x%s", Long.toHexString(a)).isEqualTo((int) expected);
        }
      }
      for (Map.Entry<Long, Byte> e : model.entrySet()) {
        byte[] one = new byte[1];
        m.read(e.getKey(), one, 0, 1);
        expectByte(e.getKey(), one[0], model);
      }
    });
  }

  /** A plain check (an assertion object per byte would make the property slow). */
  private static void expectByte(long address, byte got, Map<Long, Byte> model) {
    byte expected = model.getOrDefault(address, (byte) 0);
    if (got != expected) {
      fail("byte at 0x" + Long.toHexString(address) + " reads " + got + " but " + expected + " was written there"
          + " (0 if never)");
    }
  }

  @Test
  void accessesOutsideTheMemoryAreRefusedNamingTheAddressAndWriteNothing() {
    HostMemory m = create();
    long cap = m.capacity();
    m.writeLong(cap - 8, -1L);
    m.writeLong(0, -1L);
    byte[] eight = new byte[8];
    long[][] bad = {{-1, 1}, {cap, 1}, {cap - 7, 8}, {cap - 3, 4}, {cap - 1, 2}, {Long.MAX_VALUE - 2, 4},
        {Long.MIN_VALUE, 1}};
    for (long[] b : bad) {
      long a = b[0];
      int n = (int) b[1];
      expectRefused(a, () -> m.read(a, eight, 0, n));
      expectRefused(a, () -> m.write(a, new byte[n], 0, n));
      if (n == 8) {
        expectRefused(a, () -> m.readLong(a));
        expectRefused(a, () -> m.writeLong(a, 0));
      }
      if (n == 4) {
        expectRefused(a, () -> m.readInt(a));
        expectRefused(a, () -> m.writeInt(a, 0));
      }
    }
    expectRefused(cap - 4, () -> m.readLong(cap - 4));
    expectRefused(cap - 4, () -> m.writeLong(cap - 4, 0));
    expectRefused(cap - 2, () -> m.readInt(cap - 2));
    expectRefused(cap - 2, () -> m.writeInt(cap - 2, 0));
    expectRefused(-8, () -> m.writeLong(-8, 0));
    assertThat(m.readLong(cap - 8)).as("the last word after refused writes across the end").isEqualTo(-1L);
    assertThat(m.readLong(0)).as("the first word after refused writes below 0").isEqualTo(-1L);
  }

  private static void expectRefused(long address, ThrowingCallable call) {
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(call);
    assertThat(t).as("access at %s (0x%s)", address, Long.toHexString(address))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(t.getMessage()).as("message of the refusal at %s", address)
        .containsAnyOf(Long.toString(address), Long.toHexString(address));
  }

  @Test
  void allocationsAreAlignedDisjointZeroAndCounted() {
    HostMemory m = create();
    long before = m.allocatedBytes();
    SplittableRandom r = new SplittableRandom(7);
    List<long[]> ranges = new ArrayList<>();
    long requested = 0;
    // alignments up to 2 MB, but small enough that 40 allocations fit in a small memory
    int maxAlignmentShift = Math.min(22, 63 - Long.numberOfLeadingZeros(m.capacity() / 128));
    for (int i = 0; i < 40; i++) {
      long bytes = 1 + r.nextLong(20_000);
      long alignment = 1L << r.nextInt(maxAlignmentShift);
      long a = m.allocate(bytes, alignment);
      assertThat(a % alignment).as("address 0x%s aligned to %s", Long.toHexString(a), alignment).isZero();
      assertThat(a).as("allocation inside the memory").isNotNegative().isLessThanOrEqualTo(m.capacity() - bytes);
      for (long[] o : ranges) {
        assertThat(a + bytes <= o[0] || o[0] + o[1] <= a)
            .as("[0x%s, +%s) overlaps [0x%s, +%s)", Long.toHexString(a), bytes, Long.toHexString(o[0]), o[1])
            .isTrue();
      }
      int probe = (int) Math.min(bytes, 64);
      byte[] head = new byte[probe];
      m.read(a, head, 0, probe);
      assertThat(head).as("a fresh allocation reads as zero").containsOnly((byte) 0);
      m.write(a, new byte[] {(byte) (i + 1)}, 0, 1);
      ranges.add(new long[] {a, bytes});
      requested += bytes;
    }
    assertThat(m.allocatedBytes() - before).as("allocatedBytes counts at least what was asked for")
        .isGreaterThanOrEqualTo(requested);
    for (int i = 0; i < ranges.size(); i++) {
      byte[] one = new byte[1];
      m.read(ranges.get(i)[0], one, 0, 1);
      assertThat(one[0]).as("first byte of allocation %d", i).isEqualTo((byte) (i + 1));
    }
  }

  @Test
  void bytesGivenBackReadZeroAndAreHandedOutAgainOnlyWhereNothingIsReserved() {
    HostMemory m = create();
    assertThatThrownBy(() -> m.free(PAGE, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> m.free(PAGE, -PAGE)).isInstanceOf(IllegalArgumentException.class);
    long[] a = {m.allocate(3 * PAGE, PAGE), 3 * PAGE};
    // not a whole number of pages, nor of 64-byte lines: its last page and line are given back in part
    long[] b = {m.allocate(5 * PAGE + 100, PAGE), 5 * PAGE + 100};
    long[] c = {m.allocate(2 * PAGE, 64), 2 * PAGE};
    fill(m, a, 1);
    fill(m, b, 2);
    fill(m, c, 3);
    // b's first and last bytes written again last, so that a cache in front of the memory holds them (dirty)
    fill(m, new long[] {b[0], 256}, 2);
    fill(m, new long[] {b[0] + b[1] - 256, 256}, 2);
    long before = m.allocatedBytes();
    boolean given = m.free(b[0], b[1]);
    expectFilled(m, a, 1, "the allocation below the one given back");
    expectFilled(m, c, 3, "the allocation above the one given back");
    if (!given) {
      expectFilled(m, b, 2, "an allocation the memory kept (free answered false)");
      assertThat(m.allocatedBytes()).as("allocatedBytes after free answered false").isEqualTo(before);
      return;
    }
    // (an alignment's skipped bytes beside the range may go with it, never a byte of a or c)
    assertThat(before - m.allocatedBytes()).as("allocatedBytes less the bytes given back")
        .isBetween(b[1], c[0] - (a[0] + a[1]));
    expectFilled(m, b, 0, "bytes given back");
    List<long[]> reserved = new ArrayList<>(List.of(a, c));
    SplittableRandom r = new SplittableRandom(11);
    for (int i = 0; i < 12; i++) {
      long bytes = 1 + r.nextLong(3 * PAGE);
      long alignment = 1L << r.nextInt(13);
      long at = m.allocate(bytes, alignment);
      assertThat(at % alignment).as("address 0x%s aligned to %s", Long.toHexString(at), alignment).isZero();
      for (long[] o : reserved) {
        assertThat(at + bytes <= o[0] || o[0] + o[1] <= at)
            .as("[0x%s, +%s) after a free overlaps the reserved [0x%s, +%s)", Long.toHexString(at), bytes,
                Long.toHexString(o[0]), o[1])
            .isTrue();
      }
      long[] got = {at, bytes};
      expectFilled(m, got, 0, "an allocation after a free");
      fill(m, got, 10 + i);
      reserved.add(got);
    }
    expectFilled(m, a, 1, "the allocation below, after new ones");
    expectFilled(m, c, 3, "the allocation above, after new ones");
  }

  private static void fill(HostMemory m, long[] range, int value) {
    byte[] bytes = new byte[(int) range[1]];
    Arrays.fill(bytes, (byte) value);
    m.write(range[0], bytes, 0, bytes.length);
  }

  private static void expectFilled(HostMemory m, long[] range, int value, String what) {
    byte[] bytes = new byte[(int) range[1]];
    m.read(range[0], bytes, 0, bytes.length);
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] != (byte) value) {
        fail(what + ": byte " + i + " of [0x" + Long.toHexString(range[0]) + ", +" + range[1] + ") is " + bytes[i]
            + ", expected " + value);
      }
    }
  }

  @Test
  void allocationMistakesAndExhaustionAreReported() {
    HostMemory m = create();
    assertThatThrownBy(() -> m.allocate(0, 8)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> m.allocate(-4096, 8)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> m.allocate(64, 3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> m.allocate(64, 0)).isInstanceOf(IllegalArgumentException.class);
    long chunk = m.capacity() / 8;
    int granted = 0;
    Throwable failure = null;
    for (int i = 0; i < 9 && failure == null; i++) {
      try {
        m.allocate(chunk, 8);
        granted++;
      } catch (IllegalStateException e) {
        failure = e;
      }
    }
    assertThat(failure).as("the ninth eighth of the memory (after %d granted)", granted)
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> m.allocate(m.capacity() + 1, 1)).isInstanceOf(IllegalStateException.class);
  }
}
