package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CabledDragonfly#withFailedLinks}: which links fail, what stays routable, and the one-line refusals. */
class LinkFailuresTest {

  private static CabledDragonfly edison;

  @BeforeAll
  static void readEdison() {
    edison = CabledDragonfly.edison();
  }

  @Test
  void aNamedLinkFailsAtBothEndsAndTheOriginalKeepsIt() {
    // c0-0c0s0a0l01 is router (0:0:0)'s tile l01, a blue cable to c2-0c0s0a0l01 (1:0:0) in Edison's list
    CabledDragonfly t = edison.withFailedLinks("c0-0c0s0a0l01");
    assertThat(t.neighborRouter(0, 1)).isEqualTo(-1);
    assertThat(t.neighborPort(0, 1)).isEqualTo(-1);
    int far = edison.neighborRouter(0, 1);
    int farPort = edison.neighborPort(0, 1);
    assertThat(t.portName(far, farPort)).isEqualTo("c2-0c0s0a0l01");
    assertThat(t.neighborRouter(far, farPort)).isEqualTo(-1);
    assertThat(t.linkCount(2)).isEqualTo(edison.linkCount(2) - 1);
    assertThat(t.linkCount(0)).isEqualTo(edison.linkCount(0));
    assertThat(t.unusedPorts()).isEqualTo(edison.unusedPorts() + 2);
    assertThat(t.linksBetween(0, 1)).isEqualTo(edison.linksBetween(0, 1) - 1);
    assertThat(t.failedLinks()).containsExactly("c0-0c0s0a0l01(0:0:0) blue -> c2-0c0s0a0l01(1:0:0)");
    assertThat(t.describe()).contains("(2 ports unused".replace("2", String.valueOf(t.unusedPorts())),
        "1 link failed");
    assertThat(edison.neighborRouter(0, 1)).isEqualTo(far);
    assertThat(edison.failedLinks()).isEmpty();
    // the far end names the same link; the line is written from the lower end either way
    assertThat(edison.withFailedLinks("C2-0C0S0A0L01").failedLinks()).isEqualTo(t.failedLinks());
  }

  @Test
  void randomFailuresAreOfTheirColourAndTheSameForTheSameSpec() {
    CabledDragonfly blue = edison.withFailedLinks("random:100:blue");
    assertThat(blue.linkCount(2)).isEqualTo(edison.linkCount(2) - 100);
    assertThat(blue.linkCount(0)).isEqualTo(edison.linkCount(0));
    assertThat(blue.linkCount(1)).isEqualTo(edison.linkCount(1));
    assertThat(blue.failedLinks()).hasSize(100).allSatisfy(l -> assertThat(l).contains(" blue -> "));
    assertThat(edison.withFailedLinks("random:100:blue:seed=1").failedLinks()).isEqualTo(blue.failedLinks());
    assertThat(edison.withFailedLinks("random:100:blue:seed=2").failedLinks()).isNotEqualTo(blue.failedLinks());
    CabledDragonfly any = edison.withFailedLinks("random:300");
    int lost = 0;
    for (int c = 0; c < 3; c++) {
      lost += edison.linkCount(c) - any.linkCount(c);
    }
    assertThat(lost).isEqualTo(300);
    assertThat(any.failedLinks()).anySatisfy(l -> assertThat(l).contains(" green -> "))
        .anySatisfy(l -> assertThat(l).contains(" black -> "));
    // failures add up, and a file of the lines fails the same links again
    CabledDragonfly more = blue.withFailedLinks("random:10:green");
    assertThat(more.failedLinks()).hasSize(110).startsWith(blue.failedLinks().toArray(new String[0]));
  }

  @Test
  void randomFailuresKeepEveryGroupPairJoinedAndSayHowManyCanFail() {
    int groups = edison.groupCount();
    int pairs = groups * (groups - 1) / 2;
    int canFail = edison.linkCount(2) - pairs; // one blue link left between every two groups
    CabledDragonfly t = edison.withFailedLinks("random:" + canFail + ":blue");
    for (int g = 0; g < groups; g++) {
      for (int d = 0; d < groups; d++) {
        if (g != d) {
          assertThat(t.linksBetween(g, d)).isEqualTo(1);
        }
      }
    }
    assertThatThrownBy(() -> edison.withFailedLinks("random:" + (canFail + 1) + ":blue"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:" + (canFail + 1) + ":blue: only " + canFail + " of the "
            + edison.linkCount(2) + " blue links can fail without leaving two groups with no rank-3 link, but N was "
            + (canFail + 1));
    // most rank-1 and rank-2 cables gone: each group stays connected, over longer paths
    CabledDragonfly bare = edison.withFailedLinks("random:10000:green").withFailedLinks("random:9000:black");
    assertThat(bare.linkCount(0) + bare.linkCount(1)).isEqualTo(edison.linkCount(0) + edison.linkCount(1) - 19_000);
    assertThat(bare.maxLocalHops()).isGreaterThan(edison.maxLocalHops());
  }

  @Test
  void everyBuiltInRoutingDeliversEveryPacketAroundFailedLinks() {
    // rank-3 failures leave every group's paths as they were, so every routing keeps its 8 VCs
    Topology blue = Topologies.parseTopology("edison-cabled+failed=random:1500:blue+failed=c0-0c0s0a0l00");
    assertThat(((CabledDragonfly) blue).failedLinkCount()).isEqualTo(1_501);
    assertThat(blue.maxLocalHops()).isEqualTo(2);
    for (String routing : new String[] {"minimal", "valiant", "ugal", "adaptive0"}) {
      deliversEverything(blue, routing);
    }
    // rank-1 and rank-2 failures lengthen some paths inside a group to 3 hops: minimal routing needs 7 VCs there,
    // the non-minimal ones 11, more than the 8 the fabric has by default (and refuses in one line)
    Topology local = Topologies.parseTopology("edison-cabled+failed=random:600:green+failed=random:300:black:seed=3");
    assertThat(local.maxLocalHops()).isEqualTo(3);
    deliversEverything(local, "minimal");
    assertThatThrownBy(() -> TrafficExperiment.on(local).routing("valiant").load(0.1).measurePs(1_000).run())
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("vcs (8) must be at least the 11 virtual"
            + " channels routing valiant needs");
  }

  private static void deliversEverything(Topology t, String routing) {
    TrafficResult r = TrafficExperiment.on(t).routing(routing).pattern(TrafficPattern.ADVERSARIAL).load(0.1)
        .seed(5).warmupPs(50_000).measurePs(150_000).drain().run();
    assertThat(r.drained()).as(routing).isTrue();
    assertThat(r.generated()).as(routing).isPositive();
    assertThat(r.duplicates()).as(routing).isZero();
    assertThat(r.maxHops()).as(routing).isLessThanOrEqualTo(3 * t.maxLocalHops() + 2);
  }

  @Test
  void failuresThatWouldCutTheSystemApartAreRefusedNamingTheLink() throws IOException {
    CabledDragonfly tiny = CabledDragonfly.read(new StringReader(String.join("\n", CabledDragonflyTest.tiny())),
        "tiny.txt");
    refused(tiny, "c0-0c0s0a0l01", "failed link c0-0c0s0a0l01: it is the last rank-3 link between groups 0 and 2"
        + " (as the file numbers them); the system must stay routable");
    refused(tiny, "c5-0c0s1a0l00", "failed link c5-0c0s1a0l00: it would cut group 5 apart (its rank-1 and rank-2"
        + " cables would no longer join all 2 routers); the system must stay routable");
    refused(tiny, "c0-0c0s0a0l03", "failed link c0-0c0s0a0l03: is not cabled (tiny.txt lists it unused or not at all)");
    refused(tiny, "c0-0c0s0a0l04", "failed link c0-0c0s0a0l04: is not cabled (tiny.txt lists it unused or not at all)");
    refused(tiny, "random:1:blue", "failed links random:1:blue: only 0 of the 3 blue links can fail without leaving"
        + " two groups with no rank-3 link, but N was 1");
    CabledDragonfly once = edison.withFailedLinks("c0-0c0s0a0l01");
    refused(once, "c2-0c0s0a0l01", "failed link c2-0c0s0a0l01: has failed already");
  }

  @Test
  void badSpecsAreRefusedInOneLine() {
    String forms = "random:N[:COLOUR][:seed=S] (COLOUR green, black, blue or any), a port name such as"
        + " c0-0c0s0a0l01, or file:PATH";
    refused(edison, " ", "failed links must be " + forms + " but was empty");
    refused(edison, "c0-0c0s0a0", "failed link c0-0c0s0a0: must be " + forms);
    refused(edison, "c99-0c0s0a0l01", "failed link c99-0c0s0a0l01: edison-links.txt.gz has no router c99-0c0s0a0");
    refused(edison, "c0-0c0s0a0l52", "failed link c0-0c0s0a0l52: tile l52 is a processor tile (NIC port), not a"
        + " network link; network tiles are l00..l47");
    refused(edison, "random:", "failed links random:: N must be a whole number of links, at least 1, but was \"\"");
    refused(edison, "random:0:blue", "failed links random:0:blue: N must be a whole number of links, at least 1,"
        + " but was \"0\"");
    refused(edison, "random:5:red", "failed links random:5:red: the colour must be green, black, blue or any but was"
        + " \"red\"");
    refused(edison, "random:5:blue:seed=x", "failed links random:5:blue:seed=x: seed must be a whole number but was"
        + " \"x\"");
    refused(edison, "random:5:blue:7", "failed links random:5:blue:7: after N come a colour (green, black, blue or"
        + " any) and seed=S, but \"7\" is neither");
    refused(edison, "random:5:blue:seed=1:x", "failed links random:5:blue:seed=1:x: random takes N, a colour and"
        + " seed=S at most, as " + forms);
    refused(edison, "random:999999", "failed links random:999999: N must be at most the " + (edison.linkCount(0)
        + edison.linkCount(1) + edison.linkCount(2)) + " links cabled now but was 999999");
    assertThatThrownBy(() -> Topologies.parseTopology("theta+failed=random:1"))
        .hasMessage("topology theta is generated, so it has no cables to fail; +failed= needs a cabled system:"
            + " edison-cabled, links:FILE, or cabled:theta (its cabling as a link list)");
    assertThatThrownBy(() -> Topologies.parseTopology("+failed=random:1"))
        .hasMessage("topology \"+failed=random:1\" names no system before +failed=; e.g."
            + " edison-cabled+failed=random:24:blue");
  }

  @Test
  void aFileNamesOnePortALineAndItsErrorsNameTheLine(@TempDir Path dir) throws IOException {
    CabledDragonfly some = edison.withFailedLinks("random:20:any:seed=9");
    Path file = dir.resolve("down.txt");
    Files.write(file, concat(List.of("# failed on the 3rd", ""), some.failedLinks()));
    CabledDragonfly again = (CabledDragonfly) Topologies.parseTopology("edison-cabled+failed=file:" + file);
    assertThat(again.failedLinks()).isEqualTo(some.failedLinks());
    assertThat(again.describe()).contains("20 links failed");
    Path bad = dir.resolve("bad.txt");
    Files.write(bad, List.of("c0-0c0s0a0l01", "", "c0-0c0s0a0l01 again"));
    refused(edison, "file:" + bad, bad + ":3: failed link c0-0c0s0a0l01: has failed already");
    refused(edison, "file:" + dir.resolve("none.txt"), "failed links file " + dir.resolve("none.txt")
        + " cannot be read: no such file");
    refused(edison, "file:" + dir, "failed links file " + dir + " cannot be read: is a directory");
    Path empty = Files.write(dir.resolve("empty.txt"), List.of("# nothing"));
    refused(edison, "file:" + empty, "failed links file " + empty + " names no port (1 line); it needs one port"
        + " name a line, e.g. c0-0c0s0a0l01");
  }

  @Test
  void aGeneratedSystemCabledHasTheSameCablesUnderTileNames() throws IOException {
    Dragonfly theta = Topologies.aries(9);
    CabledDragonfly cabled = (CabledDragonfly) Topologies.parseTopology("cabled:theta");
    assertThat(cabled.routerCount()).isEqualTo(theta.routerCount());
    assertThat(cabled.nodeCount()).isEqualTo(theta.nodeCount());
    assertThat(cabled.linkCount(0)).isEqualTo(9 * 6 * 120); // 16 routers a row, all to all
    assertThat(cabled.linkCount(1)).isEqualTo(9 * 16 * 15 * 3); // 6 a column, all to all, 3 cables a pair
    assertThat(cabled.linkCount(2)).isEqualTo(36 * theta.linksPerPair());
    for (int r = 0; r < theta.routerCount(); r++) {
      // the same far routers over the same classes, port numbers aside
      List<Long> generated = new java.util.ArrayList<>();
      List<Long> asCabled = new java.util.ArrayList<>();
      for (int p = 0; p < theta.portCount(); p++) {
        generated.add((long) theta.neighborRouter(r, p) << 2 | theta.linkClass(r, p));
      }
      for (int p = 0; p < cabled.portCount(); p++) {
        if (cabled.neighborRouter(r, p) >= 0) {
          asCabled.add((long) cabled.neighborRouter(r, p) << 2 | cabled.linkClass(r, p));
        }
      }
      assertThat(asCabled).as("router " + r).containsExactlyInAnyOrderElementsOf(generated);
      for (int target = 0; target < theta.routerCount(); target += 37) {
        assertThat(cabled.minimalHops(r, target)).isEqualTo(theta.minimalHops(r, target));
      }
    }
    // rank-3 ports on Edison's blue tiles; router (1:2:3) is Cray's c2-0c2s3a0, (1:4:3) c3-0c1s3a0
    assertThat(cabled.linkClass(0, 1)).isEqualTo(2);
    assertThat(cabled.portName(96 + 2 * 16 + 3, 1)).isEqualTo("c2-0c2s3a0l01");
    assertThat(cabled.portName(96 + 4 * 16 + 3, 0)).isEqualTo("c3-0c1s3a0l00");
    // written as a link list and read back: the same cables, failed links gone as unused ports
    CabledDragonfly failed = cabled.withFailedLinks("random:40");
    CabledDragonfly back = CabledDragonfly.read(new StringReader(String.join("\n", failed.linkList())), "back.txt");
    for (int r = 0; r < failed.routerCount(); r++) {
      for (int p = 0; p < failed.portCount(); p++) {
        assertThat(back.neighborRouter(r, p)).isEqualTo(failed.neighborRouter(r, p));
        assertThat(back.neighborPort(r, p)).isEqualTo(failed.neighborPort(r, p));
        assertThat(back.linkClass(r, p)).isEqualTo(failed.linkClass(r, p));
      }
    }
    assertThat(back.portName(5, 7)).isEqualTo(failed.portName(5, 7));
    assertThat(back.unusedPorts()).isEqualTo(80);
    // groups of 9 rows take three cabinets each, so names stay unique and the list reads back
    CabledDragonfly tall = (CabledDragonfly) Topologies.parseTopology("cabled:aries:groups=3,rows=9,cols=4,h=4");
    assertThat(tall.portName(36 + 8 * 4, 0)).isEqualTo("c5-0c2s0a0l00");
    assertThat(CabledDragonfly.read(new StringReader(String.join("\n", tall.linkList())), "tall.txt").routerCount())
        .isEqualTo(3 * 36);
    assertThatThrownBy(() -> Topologies.parseTopology("cabled:canonical-small"))
        .hasMessageStartingWith("only an Aries dragonfly has Aries tiles to cable, not canonical dragonfly");
    assertThatThrownBy(() -> Topologies.parseTopology("cabled: ")).hasMessage("topology cabled: needs a generated"
        + " Aries system, e.g. cabled:theta");
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static void refused(CabledDragonfly t, String spec, String message) {
    assertThatThrownBy(() -> t.withFailedLinks(spec)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }
}
