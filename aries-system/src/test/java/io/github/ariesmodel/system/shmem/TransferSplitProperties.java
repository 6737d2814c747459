package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.nic.Post;
import org.junit.jupiter.api.Test;

/**
 * The cut of a long SHMEM transfer into NIC transactions, on the real limit (the BTE's 32-bit {@code xfer_len},
 * {@link Post#MAX_LENGTH}): checked against a plain walk over the parts. The parts cover the transfer exactly, none
 * is longer than one transaction, a transfer that fits is one part, and the parts carry the packets the whole would
 * (the NIC's packets are the 64-byte lines of the remote address a transaction touches).
 */
class TransferSplitProperties {

  private static final long LIMIT = Post.MAX_LENGTH;
  private static final long HEAP = NetworkAddress.MAX_OFFSET + 1; // a symmetric object's most bytes: 2^40

  @Test
  void anyTransferWithinARegistration() {
    qt().withExamples(2000).forAll(longs().between(0, HEAP - 1), longs().between(0, HEAP))
        .checkAssert((offset, r) -> check(offset, r % (HEAP - offset + 1)));
  }

  @Test
  void transfersAroundTheLimitAtEveryLineOffset() {
    // the edges: just below, at and just above one transaction, and two, at each of the 64 offsets within a line
    qt().withExamples(3000).forAll(integers().between(0, 127), longs().between(-130, 130), integers().between(1, 3))
        .checkAssert((lineOffset, delta, k) -> check(lineOffset, Math.max(0, k * LIMIT + delta)));
  }

  @Test
  void theLongestTransfersOfARegistration() {
    qt().withExamples(500).forAll(longs().between(0, 1L << 34))
        .checkAssert(offset -> check(offset, HEAP - offset));
  }

  private static void check(long offset, long length) {
    long done = 0;
    long parts = 0;
    long packets = 0;
    do {
      long n = TransferSplit.partLength(offset, done, length);
      long start = offset + done;
      assertThat(n).as("part %s of %s at %s", parts, length, offset).isBetween(length == 0 ? 0L : 1L, LIMIT);
      if (done + n < length) {
        // an inner cut: on a 64-byte line of the remote address, as late as one transaction reaches
        assertThat((start + n) % 64).as("cut after part %s of %s at %s", parts, length, offset).isZero();
        assertThat(start + n + 64).isGreaterThan(start + LIMIT);
      }
      if (offset % 4 == 0 && length % 4 == 0) {
        assertThat(start % 4).isZero(); // a GET the BTE could take whole, it takes part by part [S6a]
        assertThat(n % 4).isZero();
      }
      packets += lines(start, n);
      done += n;
      parts++;
    } while (done < length);
    assertThat(done).isEqualTo(length);
    assertThat(TransferSplit.parts(offset, length)).isEqualTo(parts);
    assertThat(ShmemJob.nicTransactions(offset, length)).isEqualTo(parts);
    assertThat(packets).as("packets of the parts against the whole's").isEqualTo(lines(offset, length));
    if (length <= LIMIT) {
      assertThat(parts).isEqualTo(1);
    } else {
      assertThat(parts).isBetween(2L, 257L);
    }
  }

  /** The packets of one transaction as the NIC cuts them: the 64-byte lines it touches, one for zero bytes. */
  private static long lines(long start, long length) {
    return length == 0 ? 1 : ((start + length - 1) >>> 6) - (start >>> 6) + 1;
  }
}
