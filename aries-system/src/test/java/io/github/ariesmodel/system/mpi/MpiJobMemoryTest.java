package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.system.AriesSystem;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.iommu.PageTables;
import org.junit.jupiter.api.Test;

/**
 * An MPI job too large for a node's memory (stop 48): it was refused as "physical memory exhausted" or the IOMMU's
 * "length must be in [1, ...]", naming neither the setting that sized the memory nor the rank. Now the setting, its
 * bound, the node and its ranks are named, before anything is made when the settings cannot fit.
 */
class MpiJobMemoryTest {

  private static final long NODE_MEMORY = 64L << 20;
  private static final Pattern BOUND = Pattern.compile("MpiConfig\\.heapBytes must be at most (\\d+) ");

  private static AriesSystem system() {
    return AriesSystem.builder().system("default").nodeMemoryBytes(NODE_MEMORY).seed(1).build();
  }

  private static MpiJob.Builder job(AriesSystem s, long heapBytes, int ranksPerNode) {
    return MpiJob.builder(s).nodes(0, 1).ranksPerNode(ranksPerNode)
        .config(MpiConfig.builder().heapBytes(heapBytes).build());
  }

  /** The bound a refusal states for heapBytes. */
  private static long bound(IllegalArgumentException e) {
    Matcher m = BOUND.matcher(e.getMessage());
    assertThat(m.find()).as(e.getMessage()).isTrue();
    return Long.parseLong(m.group(1));
  }

  private static IllegalArgumentException refusal(Runnable build) {
    try {
      build.run();
    } catch (IllegalArgumentException e) {
      return e;
    }
    throw new AssertionError("the job was built");
  }

  /** Valid registrations of a length on a node's IOMMU. */
  private static long registrations(AriesSystem s, int node, long length) {
    var iommu = s.node(node).iommu().orElseThrow();
    return IntStream.range(0, 4096).filter(m -> iommu.descriptor(m).map(d -> d.valid() && d.length() == length)
        .orElse(false)).count();
  }

  @Test
  void aHeapNoNodeCanHoldIsRefusedBeforeAnythingIsMadeNamingHeapBytesItsBoundAndTheRank() {
    AriesSystem s = system();
    long reserved = s.node(0).memory().allocatedBytes();
    IllegalArgumentException e = refusal(() -> job(s, 1L << 30, 1).build());
    assertThat(e.getMessage()).contains(" (less what page tables take) for rank 0 on node 0 but was 1073741824: node"
            + " 0 has " + (NODE_MEMORY - reserved - 4096) + " of its " + NODE_MEMORY + " bytes free (AriesSystem"
            + " nodeMemoryBytes); each rank registers heapBytes 1073741824 and mailboxes of 2 ranks x mailboxSlots 8"
            + " x 1088 B (shortMaxBytes 1024) in 2M pages (MpiConfig.pageSize): ")
        .doesNotContain("\n");
    assertThat(s.node(0).memory().allocatedBytes()).as("nothing was made").isEqualTo(reserved);
    long max = bound(e);
    assertThat(max).isBetween(1L << 20, NODE_MEMORY);
    // the bound is the check's: one byte more is refused alike, and the bound itself passes it (a node's page tables
    // then take the last page, which the rank that registers names)
    assertThat(bound(refusal(() -> job(s, max + 1, 1).build()))).isEqualTo(max);
    assertThat(s.node(0).memory().allocatedBytes()).isEqualTo(reserved);
    assertThatThrownBy(() -> job(system(), max, 1).build()).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("MpiJob rank 0 on node 0 could not be set up: physical memory exhausted")
        .hasMessageContaining("each rank registers heapBytes " + max + " and mailboxes");
    // a page less leaves room for the tables: the job is built and runs
    MpiJob fits = job(system(), max - (2L << 20), 1).build();
    long[] got = new long[1];
    fits.run(m -> m.allreduce(new long[] {m.rank() + 1}, got, ReduceOp.SUM, m.world()));
    assertThat(got[0]).isEqualTo(3);
  }

  /**
   * A rank registers two rings (its rx and tx completion queues, each of completionQueueEntries): both are in the
   * node's memory, and the check counts both. With 4 KB pages nothing rounds the rings away, so the bound is the free
   * memory less exactly two rings (one ring's bound was a ring larger).
   */
  @Test
  void theCheckCountsBothOfARanksRings() {
    AriesSystem s = system();
    var memory = s.node(0).memory();
    long free = memory.capacity() - SparsePhysicalMemory.FIRST_ALLOCATABLE - memory.allocatedBytes();
    long ring = 8L << 20; // 2^20 entries of 8 bytes
    MpiConfig c = MpiConfig.builder().heapBytes(1L << 30).pageSize(PageSize.SIZE_4K).completionQueueEntries(1 << 20)
        .build();
    IllegalArgumentException e = refusal(() -> MpiJob.builder(s).nodes(0, 1).config(c).build());
    assertThat(bound(e)).isEqualTo((free - 2 * ring) / 4096 * 4096 - Rank.mailboxBytes(c, 2));
    assertThat(e.getMessage()).endsWith(", and two CQs (rx and tx) of completionQueueEntries 1048576 x 8 B each");
    // and a job that fits registers both rings of each of its ranks, each its own MDH
    MpiJob job = MpiJob.builder(s).nodes(0, 1).ranksPerNode(2).build();
    assertThat(registrations(s, 0, 128L << 10)).as("16,384-entry rings on node 0").isEqualTo(4);
    for (int i = 0; i < 2; i++) {
      Rank r = job.rank(i);
      assertThat(List.of(r.rxCq.ring().mdh(), r.txCq.ring().mdh())).doesNotHaveDuplicates()
          .allSatisfy(m -> assertThat(s.node(0).iommu().orElseThrow().descriptor(m)).isPresent());
    }
  }

  @Test
  void theRanksANodeCannotHoldAreRefusedNamingTheNodeAndThem() {
    IllegalArgumentException eight = refusal(() -> job(system(), 16L << 20, 8).build());
    assertThat(eight.getMessage()).contains(" for the 8 ranks on node 0 (ranks 0-7) but was 16777216: ");
    long max = bound(eight);
    assertThat(max).isBetween(64L << 10, NODE_MEMORY / 8);
    MpiJob fits = job(system(), max - (2L << 20), 8).build();
    assertThat(fits.size()).isEqualTo(16);
    // ranks placed apart are named as they are placed
    IllegalArgumentException apart = refusal(() -> MpiJob.builder(system()).placement(0, 1, 0, 1, 0, 1, 0, 1, 0, 1)
        .config(MpiConfig.builder().heapBytes(16L << 20).build()).build());
    assertThat(apart.getMessage()).contains(" for the 5 ranks on node 0 (ranks 0, 2, 4 and 2 more) but was");
    // more ranks than even the least heap leaves room for: the ranks and mailboxes are what to change
    assertThatThrownBy(() -> job(system(), 64L << 10, 272).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the 272 ranks on node 0 (ranks 0-271) cannot fit in the node's memory even with the"
            + " least MpiConfig.heapBytes (65536): node 0 has ")
        .hasMessageContaining("mailboxes of 544 ranks x mailboxSlots 8 x 1088 B")
        .hasMessageEndingWith("; place fewer ranks on a node, lower mailboxSlots or shortMaxBytes, or raise"
            + " nodeMemoryBytes");
  }

  /**
   * Settings that pass the check can still fail as a rank registers (page tables): the rank and node are named, the
   * ranks before it are deregistered, and a job already on the nodes runs on.
   */
  @Test
  void aRankThatFailsAsItRegistersIsNamedAndTheRanksBeforeItAreUndone() {
    // Each registration's own page tables: a directory and leaf tables more than the check's estimate, so the largest
    // heap the check lets through fails as the second rank registers (in the context's tables it fits).
    AriesSystem s = AriesSystem.builder().system("default").nodeMemoryBytes(NODE_MEMORY).seed(1)
        .iommu(IommuConfig.builder().pageTables(PageTables.PER_REGISTRATION).build()).build();
    MpiJob before = MpiJob.builder(s).nodes(0, 1).config(MpiConfig.builder().heapBytes(64L << 10).build()).build();
    long max = bound(refusal(() -> job(s, 48L << 20, 2).build()));
    long length = Rank.registrationBytes(MpiConfig.builder().heapBytes(max).build(), 4);
    assertThatThrownBy(() -> job(s, max, 2).build()).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("MpiJob rank 1 on node 0 (which holds ranks 0-1) could not be set up: physical"
            + " memory exhausted")
        .hasMessageContaining("; each rank registers heapBytes " + max + " and mailboxes of 4 ranks x mailboxSlots 8"
            + " x 1088 B (shortMaxBytes 1024) in 2M pages (MpiConfig.pageSize): " + length + " bytes, and two CQs"
            + " (rx and tx) of completionQueueEntries 16384 x 8 B each; the node had ")
        .hasMessageEndingWith(" bytes free (AriesSystem nodeMemoryBytes) before it; the completion queues it had made"
            + " and rank 0's registration and queues were given back, with the host memory they took");
    assertThat(registrations(s, 0, length)).as("rank 0's registration was undone").isZero();
    assertThat(s.node(0).nic().completionQueueCount()).as("only the queues of the job before stay").isEqualTo(2);
    byte[] got = new byte[100];
    before.run(m -> {
      byte[] b = new byte[100];
      if (m.rank() == 0) {
        b[99] = 7;
        m.send(b, 0, b.length, 1, 0, m.world());
      } else {
        m.recv(got, 0, got.length, 0, 0, m.world());
      }
    });
    assertThat(got[99]).isEqualTo((byte) 7);
  }
}
