package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.iommu.IommuStatistics;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.nic.NicStatistics;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import org.junit.jupiter.api.Test;

class SystemStatisticsTest {

  /** Node 0 puts 4 KB to node 1 (same router) and 64 B to node 40 (another group). */
  private static AriesSystem ran(TranslatorKind translator) {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").translator(translator).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 1, 40).build();
    Symmetric buf = job.allocate(4096);
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putmem(buf, 0, buf, 0, 4096, 1);
        pe.putmem(buf, 0, buf, 0, 64, 2);
        pe.quiet();
      }
    });
    return sys;
  }

  @Test
  void aNodesStatisticsAreTypedWithoutCasts() {
    AriesSystem sys = ran(TranslatorKind.IOMMU);
    Node target = sys.node(1);
    IommuStatistics iommu = target.iommuStatistics().orElseThrow();
    assertThat(iommu.client(TranslationClient.NETWORK_REQUEST).translations()).isPositive();
    NicStatistics nic = sys.node(0).nicStatistics();
    assertThat(nic.payloadBytesSent()).isEqualTo(4096 + 64);
    assertThat(target.iommu()).containsSame((io.github.ariesmodel.iommu.Iommu) target.translation());

    AriesSystem flat = ran(TranslatorKind.FLAT);
    assertThat(flat.node(1).iommu()).isEmpty();
    assertThat(flat.node(1).iommuStatistics()).isEmpty();
  }

  /**
   * The translations map iterates its clients in their declared order, the same in every JVM: it was a Map.copyOf,
   * whose order changes from one JVM run to the next (stop 76's API hunt saw three orders in six runs), so a user's
   * CSV built from it differed between runs of one seed. Map.copyOf's order depends on a per-JVM salt, so a single
   * JVM cannot show the change; the declared order is what it checks.
   */
  @Test
  void theTranslationsIterateInTheClientsDeclaredOrder() {
    SystemStatistics s = ran(TranslatorKind.IOMMU).statistics();
    assertThat(s.translations().keySet()).containsExactly(TranslationClient.values());
    assertThat(s.translations()).isInstanceOf(java.util.Collections.unmodifiableMap(
        new java.util.EnumMap<TranslationClient, Object>(TranslationClient.class)).getClass());
  }

  @Test
  void theSystemViewSumsItsBuiltNodes() {
    AriesSystem sys = ran(TranslatorKind.IOMMU);
    SystemStatistics s = sys.statistics();
    assertThat(s.nodesBuilt()).isEqualTo(3).isEqualTo(sys.builtNodes());
    assertThat(s.iommuNodes()).isEqualTo(3);
    long sent = 0;
    long received = 0;
    long bytes = 0;
    long netRequests = 0;
    long hits = 0;
    for (int id : new int[] {0, 1, 40}) {
      NicStatistics n = sys.node(id).nicStatistics();
      sent += n.packetsSent();
      received += n.packetsReceived();
      bytes += n.wireBytesSent();
      var c = sys.node(id).iommuStatistics().orElseThrow().client(TranslationClient.NETWORK_REQUEST);
      netRequests += c.translations();
      hits += c.hits();
    }
    assertThat(s.nics().packetsSent()).isEqualTo(sent).isPositive();
    assertThat(s.nics().packetsReceived()).isEqualTo(received).isEqualTo(sent);
    assertThat(s.nics().wireBytesSent()).isEqualTo(bytes);
    assertThat(s.translations().get(TranslationClient.NETWORK_REQUEST).translations()).isEqualTo(netRequests);
    assertThat(s.translations().get(TranslationClient.NETWORK_REQUEST).hits()).isEqualTo(hits);
    assertThat(s.events()).isEqualTo(sys.loop().eventsExecuted());
    assertThat(s.elapsedPs()).isEqualTo(sys.loop().now());

    var fabric = sys.routerFabric().orElseThrow();
    assertThat(s.fabric().delivered()).isEqualTo(fabric.delivered()).isEqualTo(sent);
    assertThat(s.fabric().links()).hasSize(fabric.linkClassCount());
    long busy = 0;
    for (int c = 0; c < fabric.linkClassCount(); c++) {
      SystemStatistics.LinkRank l = s.fabric().links().get(c);
      assertThat(l.name()).isEqualTo(sys.topology().linkClassName(c));
      assertThat(l.busyPs()).isEqualTo(fabric.busyPs(c));
      assertThat(l.utilization()).isBetween(0.0, 1.0);
      busy += l.busyPs();
    }
    assertThat(busy).as("the put to another group crossed links").isPositive();
  }

  @Test
  void twoSnapshotsAddUpAndTheTextIsAFewLines() {
    SystemStatistics a = ran(TranslatorKind.IOMMU).statistics();
    SystemStatistics twice = a.plus(a);
    assertThat(twice.nics().packetsSent()).isEqualTo(2 * a.nics().packetsSent());
    assertThat(twice.fabric().links().get(0).utilization()).isEqualTo(a.fabric().links().get(0).utilization());
    assertThat(twice.translations().get(TranslationClient.NETWORK_REQUEST).misses())
        .isEqualTo(2 * a.translations().get(TranslationClient.NETWORK_REQUEST).misses());
    String text = a.toString();
    assertThat(text.lines().count()).isEqualTo(4);
    assertThat(text).contains("3 nodes built").contains("NETWORK_REQUEST").contains("rank-1")
        .doesNotContain("LOCAL_READ 0");
    SystemStatistics ideal = AriesSystem.builder().topology(Topologies.ariesSmall(), "small")
        .fabric(FabricKind.IDEAL).build().statistics();
    assertThat(ideal.fabric()).isNull();
    assertThat(ideal.toString()).contains("fabric: no routers");
    assertThat(ideal.plus(a).fabric()).isEqualTo(a.fabric());
    // completed transactions count the failed ones too (NicStatistics' own meaning): "1/1 tx ok/failed" read as one
    // success and one failure where one transaction had failed (until stop 76)
    SystemStatistics.Nics n = new SystemStatistics.Nics(1, 1, 1, 8, 90, 0, 1, 1);
    SystemStatistics failed = new SystemStatistics(1, 1, 1, n, a.iommuNodes(), a.translations(), null);
    assertThat(failed.toString()).contains("1 posts, 1 tx completed (1 failed)").doesNotContain("ok");
  }
}
