package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.nic.Post;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.SystemStatistics;
import org.junit.jupiter.api.Test;

/**
 * Puts and gets longer than one NIC transaction (the BTE's 32-bit {@code xfer_len}): their cut, the ledger that makes
 * their parts one operation, and that transfers which fit are posted exactly as before.
 *
 * <p>No test here runs a transfer past the limit end to end: the NIC model simulates every 64-byte packet, and a
 * 128 MiB putmem took 37 s of wall time on the machine that wrote these tests (16 MiB: 6.4 s), so one of 4 GiB would
 * take about 20 minutes and 4 GiB of Java heap for the pages it writes (measured, scaled linearly).
 */
class ShmemLargeTransferTest {

  private static final long LIMIT = Post.MAX_LENGTH;

  @Test
  void aTransferThatFitsIsOneTransactionAndOneJustPastTheLimitIsTwoCutOnALine() {
    assertThat(ShmemJob.nicTransactions(0, LIMIT)).isEqualTo(1);
    assertThat(TransferSplit.partLength(0, 0, LIMIT)).isEqualTo(LIMIT);
    assertThat(ShmemJob.nicTransactions(0, LIMIT + 1)).isEqualTo(2);
    assertThat(TransferSplit.partLength(0, 0, LIMIT + 1)).isEqualTo((1L << 32) - 64);
    assertThat(TransferSplit.partLength(0, (1L << 32) - 64, LIMIT + 1)).isEqualTo(64);
    // three bytes into a line, the first part ends on the last line boundary one transaction reaches
    assertThat(TransferSplit.partLength(3, 0, LIMIT + 1)).isEqualTo((1L << 32) - 3);
    assertThat(TransferSplit.partLength(3, (1L << 32) - 3, LIMIT + 1)).isEqualTo(3);
    assertThat(ShmemJob.nicTransactions(0, 0)).isEqualTo(1);
    assertThat(ShmemJob.nicTransactions(0, 1L << 40)).isEqualTo(257);
  }

  @Test
  void nicTransactionsRefusesARangeNoObjectHolds() {
    assertThat(catchThrowable(() -> ShmemJob.nicTransactions(-1, 8))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("remoteOffset must be in [0, 2^40 - 1] but was -1");
    assertThat(catchThrowable(() -> ShmemJob.nicTransactions(16, (1L << 40) - 15)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("length must be in [0, 2^40 - remoteOffset] = [0, 1099511627760] but was 1099511627761");
  }

  @Test
  void aSplitTransferIsOneOperationThatFaultsOnceAndClosesWithItsLastPart() {
    SplitTransfers ledger = new SplitTransfers();
    assertThat(ledger.isEmpty()).isTrue();
    SplitTransfers.Transfer t = ledger.open(10, 3);
    SplitTransfers.Transfer u = ledger.open(13, 2);
    assertThat(ledger.of(9)).isNull();
    assertThat(ledger.of(10)).isSameAs(t);
    assertThat(ledger.of(12)).isSameAs(t);
    assertThat(ledger.of(13)).isSameAs(u);
    assertThat(ledger.of(15)).isNull();
    // parts 11 and 12 fault: the transfer counts one faulted operation
    assertThat(t.faulted()).isTrue();
    assertThat(t.faulted()).isFalse();
    ledger.partCompleted(t);
    ledger.partCompleted(t);
    assertThat(t.outstanding()).isEqualTo(1);
    assertThat(ledger.of(10)).isSameAs(t);
    ledger.partCompleted(t);
    assertThat(ledger.of(10)).isNull();
    assertThat(ledger.isEmpty()).isFalse();
    ledger.partCompleted(u);
    ledger.partCompleted(u);
    assertThat(ledger.isEmpty()).isTrue();
    assertThat(u.faulted()).as("a transfer with no fault counts its first").isTrue();
    assertThat(catchThrowable(() -> ledger.open(20, 1))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("firstId must be >= 0 and parts >= 2 but were 20 and 1");
  }

  /**
   * Puts and gets that fit in one transaction (0 bytes, unaligned, past the FMA threshold, a non-blocking get) give
   * the figures the code before the split gave (commit 2acd9db, the same program): one post each, the same packets,
   * events and simulated times; but for the unaligned non-blocking get, read in whole words since stop 75.
   */
  @Test
  void transfersThatFitArePostedAsBefore() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).remoteEvents(true).build();
    Symmetric a = job.allocate(2 << 20);
    Symmetric b = job.allocate(2 << 20);
    byte[] data = new byte[(1 << 20) + 7];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 31 + 7);
    }
    long[] at = new long[4];
    byte[][] seen = new byte[2][];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.localBytes(b, 5, data);
        pe.putmem(a, 3, b, 5, data.length, 1);
        pe.putmem(a, 0, b, 0, 0, 1);
        pe.quiet();
        at[2] = pe.now();
        pe.getmem(b, 64, a, 128, 65536, 1);
        at[3] = pe.now();
        pe.getmemNbi(b, 0, a, 4, 4097, 1);
        pe.quiet();
        seen[0] = pe.localBytes(b, 4097, 65600 - 4097); // the getmem's bytes the getmemNbi left
      }
      pe.barrierAll();
      at[pe.myPe()] = pe.remoteEvents();
      if (pe.myPe() == 1) {
        seen[1] = pe.localBytes(a, 3, data.length);
      }
    });
    assertThat(seen[1]).isEqualTo(data);
    assertThat(seen[0]).isEqualTo(java.util.Arrays.copyOfRange(data, 4158, 4158 + 65600 - 4097));
    // since stop 70 each post's CPU time is 133.334 ns (S1 p.23; 40 ns assumed before): the quiet after the puts waits
    // one more post's 93.334 ns (264,742,146 before), the blocking get's end two (274,443,835 before)
    // (the remote events are the two puts' at PE 1; until stop 74 the barrier's atomics added one at each PE)
    // since stop 74 the putmem waits for its LOCAL event (its source read) before the 0-byte one is posted: 36,235 ps
    // later than 264,835,480 and 274,630,503
    assertThat(at).containsExactly(0, 2, 264_871_715, 274_666_738);
    // 279,179,393 before stop 68's AMO host-link crossings; 279,182,893 before stop 70's post cost, four posts later;
    // 279,556,229 before stop 74's blocking putmem
    // since stop 75 the getmemNbi of 4,097 bytes, not whole 4-byte words, is read as its 4,096-byte interior (on the
    // BTE) and its last word (4 bytes, into a bounce slot, on FMA), whose 1 byte asked is then copied: one post, two
    // packets and 3 payload bytes more, and the run 939,348 ps shorter (279,592,464 before: the whole unaligned get
    // went by FMA, as the BTE took no unaligned GET)
    assertThat(job.lastRunPs()).isEqualTo(278_653_116);
    assertThat(sys.statistics().nics()).isEqualTo(new SystemStatistics.Nics(7, 34_956, 34_956, 1_118_235,
        1_572_666, 16_322, 7, 0));
    assertThat(job.faults()).isZero();
  }
}
