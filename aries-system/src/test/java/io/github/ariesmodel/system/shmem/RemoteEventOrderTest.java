package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.iommu.PageTables;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * What a put's REMOTE event tells its target (docs/nic.md, "Events"; {@link Shmem#remoteEvents()}): the event comes
 * with the put's last packet. A single-packet put's data is there with it. A multi-packet put's earlier packet may
 * still be waiting for its translation when the last packet, whose translation hits, writes its data and the event,
 * with SHMEM's deterministic routing too: the model lets hits complete under misses and does not hold the event for
 * earlier writes (assumed; Cray documents the hazard for adaptive routing only). Found by a probe at stop 49; this
 * test pins the documented behaviour, so a change to it must change the docs too.
 */
class RemoteEventOrderTest {

  private static final int PAGE = 4096;

  /**
   * PE 1 puts 128 bytes across a page boundary of PE 0's buffer whose first page's PTE line is cold and whose second
   * page's was warmed by an earlier put; PE 0 reads the bytes as soon as the event is there.
   */
  private static boolean[] landedAtTheEvent(int firstPage) {
    // Tables of the heap's own put page 0 at the start of a PTE line, so pages 0-7 and 8-15 share lines as below; in
    // its context's tables the heap lies after the runtime's other registrations and the lines fall elsewhere.
    AriesSystem sys = AriesSystem.builder().system("default").seed(5)
        .iommu(IommuConfig.builder().pageTables(PageTables.PER_REGISTRATION).build()).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).remoteEvents(true).build();
    Symmetric buf = job.allocate(1 << 20);
    Symmetric src = job.allocate(256);
    byte[] want = new byte[128];
    Arrays.fill(want, (byte) 7);
    boolean[] landed = new boolean[3];
    long at = (long) firstPage * PAGE + PAGE - 64; // 64 bytes at the end of one page, 64 at the start of the next
    job.run(pe -> {
      if (pe.myPe() == 1) {
        pe.localBytes(src, 0, want);
        pe.putmem(buf, 40_000, src, 0, 8, 0); // warms the PTE line of pages 8-15 (and the ones it needs)
        pe.quiet();
        pe.compute(2_000_000);
        pe.putmem(buf, at, src, 0, 128, 0);
        pe.quiet();
        pe.putmem(buf, 40_008, src, 0, 8, 0); // one packet, onto a warm page
        pe.quiet();
      } else {
        pe.waitRemoteEvents(2);
        byte[] got = pe.localBytes(buf, at, 128);
        landed[0] = Arrays.equals(got, want);
        landed[1] = Arrays.equals(Arrays.copyOfRange(got, 64, 128), Arrays.copyOfRange(want, 64, 128));
        pe.waitRemoteEvents(3);
        landed[2] = Arrays.equals(pe.localBytes(buf, 40_008, 8), Arrays.copyOf(want, 8));
      }
    });
    return landed;
  }

  @Test
  void aMultiPagePutsEventMayComeBeforeItsColdFirstPageButASinglePacketsDataIsThere() {
    boolean[] cold = landedAtTheEvent(7); // pages 7 (cold line 0-7) and 8 (warm line 8-15)
    assertThat(cold[1]).as("the last packet's data is there with the event").isTrue();
    assertThat(cold[0]).as("the first packet's data, whose translation missed").isFalse();
    assertThat(cold[2]).as("a single-packet put's data").isTrue();
    boolean[] warm = landedAtTheEvent(8); // pages 8 and 9, both on the warm line
    assertThat(warm[0]).as("both packets translate as hits: in order").isTrue();
  }
}
