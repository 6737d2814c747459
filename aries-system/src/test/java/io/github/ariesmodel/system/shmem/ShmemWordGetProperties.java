package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.nic.Post;
import org.junit.jupiter.api.Test;

/**
 * How a SHMEM get not in whole 4-byte words is read ({@link ShmemJob.WordGet}), against a byte-by-byte reference:
 * every GET it posts is in whole words [S5][S6a] and inside the words that hold the range; the bytes landed in the
 * destination directly and those copied out of the bounce slot cover the range asked exactly once and nothing
 * outside it; what the bounce slot takes fits in it; a GET never reads past the word holding the range's last byte,
 * so never past a registration of whole pages that holds the range.
 */
class ShmemWordGetProperties {

  private static final long HEAP = NetworkAddress.MAX_OFFSET + 1;

  @Test
  void rangesOfEveryOffsetWithinAWordAndLengthsAroundTheSlot() {
    qt().withExamples(4000).forAll(longs().between(0, 1L << 20), integers().between(1, 300))
        .checkAssert((offset, length) -> check(offset, length));
  }

  @Test
  void longRangesUpToARegistrationsEnd() {
    qt().withExamples(1000).forAll(longs().between(0, HEAP - 1), longs().between(1, HEAP))
        .checkAssert((offset, r) -> {
          long length = 1 + (r - 1) % (HEAP - offset);
          if (length <= 1L << 16) { // bytes checked one by one below
            check(offset, length);
          } else {
            checkWords(offset, length);
          }
        });
  }

  @Test
  void rangesAcrossTheLongestGetAtEveryOffsetWithinAWord() {
    qt().withExamples(200).forAll(integers().between(0, 7), longs().between(-9, 9))
        .checkAssert((offset, delta) -> checkWords(offset, Post.MAX_LENGTH + delta));
  }

  /** The GETs of a range: whole words, within the widened range, the right count; no byte checks. */
  private static void checkWords(long offset, long length) {
    ShmemJob.WordGet w = ShmemJob.WordGet.of(offset, length);
    assertThat(ShmemJob.WordGet.inWholeWords(offset, length)).isEqualTo(offset % 4 == 0 && length % 4 == 0);
    assertThat(w.first()).isEqualTo(offset / 4 * 4);
    assertThat(w.end()).isEqualTo((offset + length + 3) / 4 * 4).isLessThanOrEqualTo(HEAP);
    assertThat(w.whole()).isEqualTo(w.end() - w.first() <= ShmemJob.BOUNCE_SLOT_BYTES);
    long posts = 0;
    long read = 0;
    if (w.whole()) {
      posts = 1;
      read = w.end() - w.first();
      assertThat(w.interiorEnd()).isEqualTo(w.interiorStart());
    } else {
      assertThat(w.interiorStart() % 4).isZero();
      assertThat(w.interiorEnd() % 4).isZero();
      assertThat(w.interiorStart()).isGreaterThanOrEqualTo(offset).isLessThan(w.interiorEnd());
      assertThat(w.interiorEnd()).isLessThanOrEqualTo(offset + length);
      assertThat(w.head()).isEqualTo(offset % 4 != 0);
      assertThat(w.tail()).isEqualTo((offset + length) % 4 != 0);
      long done = 0;
      long n = w.interiorEnd() - w.interiorStart();
      while (done < n) {
        long part = TransferSplit.partLength(w.interiorStart(), done, n);
        assertThat(part % 4).isZero();
        assertThat(part).isBetween(4L, Post.MAX_LENGTH);
        done += part;
        posts++;
      }
      posts += (w.head() ? 1 : 0) + (w.tail() ? 1 : 0);
      read = n + (w.head() ? 4 : 0) + (w.tail() ? 4 : 0);
      assertThat(w.head() ? w.interiorStart() - 4 : w.interiorStart()).isEqualTo(w.first());
      assertThat(w.tail() ? w.interiorEnd() + 4 : w.interiorEnd()).isEqualTo(w.end());
    }
    assertThat(w.posts()).isEqualTo(posts);
    assertThat(read).as("bytes the GETs read: the words, each once").isEqualTo(w.end() - w.first());
  }

  /** {@link #checkWords}, and every destination byte against a byte-by-byte reference. */
  private static void check(long offset, long length) {
    checkWords(offset, length);
    ShmemJob.WordGet w = ShmemJob.WordGet.of(offset, length);
    int[] written = new int[(int) length]; // how many times each destination byte is written
    // the interior lands straight in the destination at its own place in the range
    for (long b = w.interiorStart(); b < w.interiorEnd(); b++) {
      written[(int) (b - offset)]++;
    }
    long copied = 0;
    for (int c = 0; c < w.copies(); c++) {
      long from = w.copyFrom(c);
      long to = w.copyTo(c);
      int n = w.copyLength(c);
      assertThat(n).isPositive();
      assertThat(to).isGreaterThanOrEqualTo(0);
      assertThat(to + n).isLessThanOrEqualTo(length);
      // the slot holds the remote word(s) the copy reads: byte k of the slot is remote byte slotBase + k
      long slotBase = w.whole() ? w.first() : from < 4 ? w.first() : w.interiorEnd() - 4;
      assertThat(from + n).isLessThanOrEqualTo(w.whole() ? ShmemJob.BOUNCE_SLOT_BYTES : from < 4 ? 4 : 8);
      for (int k = 0; k < n; k++) {
        long remoteByte = slotBase + from + k;
        assertThat(remoteByte - offset).as("slot byte %s of copy %s", from + k, c).isEqualTo(to + k);
        written[(int) (to + k)]++;
      }
      copied += n;
    }
    assertThat(w.copiedBytes()).isEqualTo(copied);
    for (int i = 0; i < length; i++) {
      assertThat(written[i]).as("destination byte %s of %s at %s", i, length, offset).isEqualTo(1);
    }
  }
}
