package org.example.study;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.network.CabledDragonfly;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import org.junit.jupiter.api.Test;

/** The failed-links snippet of docs/using-the-library.md, section 3, as written there, from outside the project. */
class FailedLinksTest {

  @Test
  void aCabledSystemWithFailedLinksRunsAJobAcrossGroups() {
    AriesSystem degraded = AriesSystem.builder().system("edison-cabled+failed=random:1260:blue").seed(1).build();
    CabledDragonfly theta = CabledDragonfly.of(Topologies.aries(9))
        .withFailedLinks("random:60:blue:seed=2")
        .withFailedLinks("c0-0c0s0a0l00");
    AriesSystem sys = AriesSystem.builder().topology(theta, "theta, 61 links down").build();
    assertThat(((CabledDragonfly) degraded.topology()).failedLinkCount()).isEqualTo(1_260);
    assertThat(theta.failedLinks()).hasSize(61).allSatisfy(l -> assertThat(l).contains(" -> "));
    // a put from group 0 to group 8 and back, around the failed links
    int far = sys.nodeCount() - 1;
    ShmemJob job = ShmemJob.builder(sys).nodes(0, far).build();
    Symmetric word = job.allocate(8);
    long[] seen = new long[2];
    job.run(pe -> {
      pe.putLong(word, 0, 100 + pe.myPe(), 1 - pe.myPe());
      pe.quiet();
      pe.barrierAll();
      seen[pe.myPe()] = pe.localLong(word, 0);
    });
    assertThat(seen).containsExactly(101, 100);
  }
}
