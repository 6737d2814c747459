package org.example.study;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.iommu.IommuStatistics;
import io.github.ariesmodel.nic.NicStatistics;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.Node;
import io.github.ariesmodel.system.SystemStatistics;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import io.github.ariesmodel.system.trace.PacketTrace;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Section 3 of docs/using-the-library.md as written there, with a per-hop trace of the same run. */
class FirstSystemTest {

  @Test
  void aSystemAJobAndItsStatistics() throws Exception {
    PacketTrace trace = new PacketTrace(100, PacketTrace.Filter.parse("src=0,dst=384"));
    AriesSystem sys = AriesSystem.builder().system("two-groups").routing("adaptive0").seed(7).trace(trace).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 384).pageSize(PageSize.SIZE_2M).build();
    Symmetric table = job.allocate(64L << 20);
    job.run(pe -> {
      if (pe.myPe() == 0) {
        for (int i = 0; i < 100; i++) {
          pe.putLong(table, 8L * i * 4096, i, 1);
        }
        pe.quiet();
      }
    });
    Node target = sys.node(384);
    IommuStatistics iommu = target.iommuStatistics().orElseThrow();
    NicStatistics nic = sys.node(0).nicStatistics();
    SystemStatistics all = sys.statistics();
    assertThat(iommu.client(TranslationClient.NETWORK_REQUEST).translations()).isEqualTo(100);
    assertThat(nic.toString().lines()).hasSize(1);
    assertThat(all.toString().lines()).hasSize(4);
    assertThat(all.nodesBuilt()).isEqualTo(2);
    assertThat(all.fabric().links().get(2).name()).isEqualTo("rank-3");
    assertThat(all.fabric().links().get(2).utilization()).as("the puts crossed groups").isPositive();
    assertThat(trace.recorded()).as("every put, chosen by the filter").isGreaterThanOrEqualTo(100);
    assertThat(trace.hopsRecorded()).isGreaterThanOrEqualTo(trace.recorded());
    StringWriter json = new StringWriter();
    trace.write(json);
    assertThat(json.toString()).contains("\"cat\":\"hop\"");
  }
}
