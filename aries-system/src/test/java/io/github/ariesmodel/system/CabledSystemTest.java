package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.CabledDragonfly;
import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.system.replay.Placement;
import io.github.ariesmodel.system.replay.ReplayResult;
import io.github.ariesmodel.system.replay.TraceReplay;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import io.github.ariesmodel.testkit.network.LinkLists;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole systems on real cabling: a link list written here ({@code links:FILE}) and Edison's ({@code edison-cabled}). */
class CabledSystemTest {

  /** The traces aries-traces keeps for its tests (Maven runs a module's tests in the module's folder). */
  private static final Path SIMGRID = Path.of("../aries-traces/src/test/resources/traces/simgrid-examples");

  @TempDir Path tmp;

  /** Three groups numbered 0, 3 and 7 in the file, 2 rows × 3 columns of routers, 2 NICs each, 2 cables a pair. */
  private Path smallLinks() throws IOException {
    Path f = tmp.resolve("small-links.txt");
    Files.write(f, LinkLists.regular(new int[] {0, 3, 7}, 2, 3, 2, 2));
    return f;
  }

  @Test
  void aLinkListIsASystemAndMovesDataBetweenItsGroups() throws IOException {
    Path f = smallLinks();
    AriesSystem sys = AriesSystem.builder().system("links:" + f).seed(1).build();
    assertThat(sys.topology()).isInstanceOf(CabledDragonfly.class);
    assertThat(sys.name()).isEqualTo("links:" + f);
    assertThat(sys.nodeCount()).isEqualTo(3 * 6 * 2);
    assertThat(((CabledDragonfly) sys.topology()).fileGroup(2)).isEqualTo(7);
    assertThat(sys.describe()).contains("cabled aries dragonfly from " + f, "file groups 0,3,7");
    // a put from the first node of group 0 to the last node of group 2 (file group 7), and one back
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
    SystemStatistics st = sys.statistics();
    assertThat(st.fabric().links()).anySatisfy(l -> {
      assertThat(l.name()).isEqualTo("rank-3");
      assertThat(l.busyPs()).isPositive();
    });
  }

  @Test
  void aSimGridTraceReplaysOnALinkListOverEveryGroupTheSameWayTwice() throws IOException {
    Path f = smallLinks();
    long[] simulated = new long[2];
    for (int i = 0; i < 2; i++) {
      AriesSystem sys = AriesSystem.builder().system("links:" + f).seed(4).build();
      ReplayResult r = TraceReplay.builder(sys, SimGridTrace.open(SIMGRID.resolve("actions_alltoall.txt")))
          .placement(Placement.ROUND_ROBIN_GROUPS).build().run();
      // ranks 0, 1, 2 on the first node of each group (nodes 0, 12, 24)
      assertThat(r.nodes().asList()).containsExactly(0, 12, 24);
      assertThat(r.receivesUnmatched()).isZero();
      assertThat(r.linkBytes().get("rank-3")).isPositive();
      simulated[i] = r.simulatedPs();
    }
    assertThat(simulated[0]).isPositive().isEqualTo(simulated[1]);
  }

  @Test
  void edisonAsCabledRunsATraceAcrossItsGroups() throws IOException {
    AriesSystem sys = AriesSystem.builder().system("edison-cabled").seed(1).build();
    assertThat(sys.topology()).isSameAs(SystemPreset.EDISON_CABLED.topology()); // read once per process
    ReplayResult r = TraceReplay.builder(sys, SimGridTrace.open(SIMGRID.resolve("actions_allreduce.txt")))
        .placement(Placement.ROUND_ROBIN_GROUPS).build().run();
    assertThat(r.ranks()).isEqualTo(3);
    assertThat(r.nodes().asList()).containsExactly(0, 384, 768); // first node of groups 0, 1, 2 (file groups too)
    assertThat(r.collectives()).containsEntry("allreduce", 3L);
    assertThat(r.linkBytes().get("rank-3")).isPositive();
  }

  @Test
  void everyPresetHasTheSizeItAnnounces() {
    for (SystemPreset p : SystemPreset.values()) {
      Topology t = p.topology();
      assertThat(t.groupCount()).as(p.id()).isEqualTo(p.groups());
      assertThat(t.routerCount()).as(p.id()).isEqualTo(p.routers());
      assertThat(t.nodeCount()).as(p.id()).isEqualTo(p.nodes());
      assertThat(t).as(p.id()).isInstanceOf(p.cabled() ? CabledDragonfly.class : Dragonfly.class);
    }
    CabledDragonfly edison = (CabledDragonfly) SystemPreset.EDISON_CABLED.topology();
    assertThat(edison.fileGroup(12)).isEqualTo(13); // Edison has no group 12
    assertThat(edison.linksBetween(0, 14)).isEqualTo(24);
  }

  /**
   * Failing links of a generated preset is refused naming its {@code cabled:} spelling, for every generated preset: the
   * two that aries-network does not know by name ({@code default}, {@code two-groups}) were refused as "topology kind
   * must be canonical, aries, ..." instead.
   */
  @Test
  void failingLinksOfAGeneratedPresetNamesItsCabledSpelling() {
    for (SystemPreset p : SystemPreset.values()) {
      if (p.cabled()) {
        continue;
      }
      assertThatThrownBy(() -> AriesSystem.builder().system(p.id() + "+failed=random:2").build())
          .as(p.id()).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("topology " + p.id() + " is generated, so it has no cables to fail; +failed= needs a cabled"
              + " system: edison-cabled, links:FILE, or cabled:" + p.id() + " (its cabling as a link list)");
    }
    assertThat(AriesSystem.builder().system("cabled:two-groups+failed=random:2").build().topology())
        .isInstanceOf(CabledDragonfly.class);
  }

  @Test
  void aBadLinkListIsRefusedNamingTheFileAndLine() throws IOException {
    List<String> lines = new ArrayList<>(LinkLists.regular(new int[] {0, 3, 7}, 2, 3, 2, 2));
    assertThat(lines.get(2)).contains(" black "); // router (0:0:0): two green lines, then its black one
    lines.set(2, lines.get(2).replace(" black ", " purple "));
    Path bad = tmp.resolve("bad-links.txt");
    Files.write(bad, lines);
    assertThatThrownBy(() -> AriesSystem.builder().system("links:" + bad).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(bad + ":3: the colour must be green, black, blue or ptile but was \"purple\"");
    Path missing = tmp.resolve("missing.txt");
    assertThatThrownBy(() -> AriesSystem.builder().system("links:" + missing).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("links file " + missing);
    assertThatThrownBy(() -> AriesSystem.builder().system("nosuch").build())
        .hasMessageStartingWith("system must be a preset (default, two-groups, theta, edison, edison-cabled, full)");
  }

  @Test
  void failedLinksMakeASystemOfTheirOwnWhoseTrafficGoesAroundThem() throws IOException {
    String spec = "links:" + smallLinks() + "+failed=random:3:blue:seed=2";
    long[] simulated = new long[2];
    for (int i = 0; i < 2; i++) {
      AriesSystem sys = AriesSystem.builder().system(spec).seed(4).build();
      assertThat(sys.name()).isEqualTo(spec);
      CabledDragonfly t = (CabledDragonfly) sys.topology();
      assertThat(t.failedLinkCount()).isEqualTo(3);
      // two cables a pair before; one of each pair is the only one that could fail
      assertThat(t.linksBetween(0, 1)).isEqualTo(1);
      assertThat(t.linksBetween(0, 2)).isEqualTo(1);
      assertThat(t.linksBetween(1, 2)).isEqualTo(1);
      assertThat(sys.describe()).contains("3 links failed");
      ReplayResult r = TraceReplay.builder(sys, SimGridTrace.open(SIMGRID.resolve("actions_alltoall.txt")))
          .placement(Placement.ROUND_ROBIN_GROUPS).build().run();
      assertThat(r.receivesUnmatched()).isZero();
      assertThat(r.linkBytes().get("rank-3")).isPositive();
      simulated[i] = r.simulatedPs();
    }
    assertThat(simulated[0]).isPositive().isEqualTo(simulated[1]);
    // a failure the system cannot take is refused with its own message, not the list of presets
    assertThatThrownBy(() -> AriesSystem.builder().system(spec + "+failed=random:1:blue").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:1:blue: only 0 of the 3 blue links can fail without leaving two groups with"
            + " no rank-3 link, but N was 1");
  }
}
