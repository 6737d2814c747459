package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CabledDragonflyTest {

  private static CabledDragonfly edison;
  private static List<String> edisonLines;

  @BeforeAll
  static void readEdison() throws IOException {
    edison = CabledDragonfly.edison();
    edisonLines = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(
        CabledDragonfly.class.getResourceAsStream(CabledDragonfly.EDISON_RESOURCE)), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        edisonLines.add(line);
      }
    }
  }

  @Test
  void edisonHasFifteenGroupsOfSixBySixteenAriesWithFourNodesEach() {
    assertThat(edisonLines).hasSize(69_120);
    assertThat(edison.groupCount()).isEqualTo(15);
    assertThat(edison.rows()).isEqualTo(6);
    assertThat(edison.columns()).isEqualTo(16);
    assertThat(edison.routersPerGroup()).isEqualTo(96);
    assertThat(edison.routerCount()).isEqualTo(1_440);
    assertThat(edison.nodesPerRouter()).isEqualTo(4);
    assertThat(edison.nodeCount()).isEqualTo(5_760);
    assertThat(edison.portCount()).isEqualTo(40);
    assertThat(edison.maxLocalHops()).isEqualTo(2);
    assertThat(edison.describe()).contains("15 groups (file groups 0-11,13-15)", "6 rows × 16 columns");
  }

  @Test
  void edisonSkipsGroupTwelveAndIsRenumberedDensely() {
    for (int g = 0; g < 12; g++) {
      assertThat(edison.fileGroup(g)).isEqualTo(g);
    }
    assertThat(edison.fileGroup(12)).isEqualTo(13);
    assertThat(edison.fileGroup(14)).isEqualTo(15);
    assertThatThrownBy(() -> edison.fileGroup(15)).hasMessageContaining("group must be in [0, 14] but was 15");
    // c0-0c0s6a0l03(0:0:6) blue -> c2-3c0s0a0l02(13:0:0): file group 13 is group 12 here
    int router = 6;
    int port = 3;
    assertThat(edison.linkClass(router, port)).isEqualTo(2);
    assertThat(edison.neighborRouter(router, port)).isEqualTo(12 * 96);
    assertThat(edison.neighborPort(router, port)).isEqualTo(2);
  }

  @Test
  void portsAreTheCrayTilesOfTheFile() {
    // line 1: c0-0c0s0a0l00(0:0:0) green -> c0-0c0s6a0l10(0:0:6)
    assertThat(edison.linkClass(0, 0)).isZero();
    assertThat(edison.neighborRouter(0, 0)).isEqualTo(6);
    assertThat(edison.neighborPort(0, 0)).isEqualTo(8);
    assertThat(CabledDragonfly.tileName(8)).isEqualTo("l10");
    // line 2: c0-0c0s0a0l01(0:0:0) blue -> c2-0c0s0a0l01(1:0:0); line 5: l04 blue unused
    assertThat(edison.neighborRouter(0, 1)).isEqualTo(96);
    assertThat(edison.neighborPort(0, 1)).isEqualTo(1);
    assertThat(edison.neighborRouter(0, 4)).isEqualTo(-1);
    assertThat(edison.neighborPort(0, 4)).isEqualTo(-1);
    assertThat(edison.linkClass(0, 4)).isEqualTo(2);
    // line 8: c0-0c0s0a0l07(0:0:0) black -> c1-0c2s0a0l16(0:5:0)
    assertThat(edison.linkClass(0, 7)).isEqualTo(1);
    assertThat(edison.neighborRouter(0, 7)).isEqualTo(5 * 16);
    assertThat(edison.neighborPort(0, 7)).isEqualTo(14);
    assertThat(CabledDragonfly.tileName(39)).isEqualTo("l47");
  }

  @Test
  void linkCountsByRankAgreeWithTheFileCountedLineByLine() {
    Map<String, Integer> cabledEnds = new TreeMap<>();
    int unused = 0;
    Map<String, Integer> pairs = new HashMap<>();
    for (String line : edisonLines) {
      String[] w = line.split("\\s+");
      if (w[3].equals("unused")) {
        unused++;
      } else if (!w[3].equals("processor")) {
        cabledEnds.merge(w[1], 1, Integer::sum);
        if (w[1].equals("blue")) {
          String a = w[0].substring(w[0].indexOf('(') + 1, w[0].indexOf(':'));
          String b = w[3].substring(w[3].indexOf('(') + 1, w[3].indexOf(':'));
          pairs.merge(a + "-" + b, 1, Integer::sum);
        }
      }
    }
    assertThat(cabledEnds).containsEntry("green", 21_600).containsEntry("black", 21_600).containsEntry("blue", 5_040);
    assertThat(unused).isEqualTo(9_360);
    assertThat(edison.linkCount(0)).isEqualTo(cabledEnds.get("green") / 2);
    assertThat(edison.linkCount(1)).isEqualTo(cabledEnds.get("black") / 2);
    assertThat(edison.linkCount(2)).isEqualTo(cabledEnds.get("blue") / 2);
    assertThat(edison.unusedPorts()).isEqualTo(unused);
    // every two groups: 24 rank-3 links, from both sides
    for (int g = 0; g < 15; g++) {
      for (int d = 0; d < 15; d++) {
        if (g != d) {
          String key = edison.fileGroup(g) + "-" + edison.fileGroup(d);
          assertThat(edison.linksBetween(g, d)).as(key).isEqualTo(pairs.get(key)).isEqualTo(24);
        }
      }
    }
  }

  @Test
  void everyRouterHasFifteenGreenFifteenBlackAndTwoOrFourCabledBlue() {
    Map<Integer, Integer> blueHistogram = new TreeMap<>();
    for (int r = 0; r < edison.routerCount(); r++) {
      int[] perClass = new int[3];
      int blueCabled = 0;
      for (int p = 0; p < 40; p++) {
        int c = edison.linkClass(r, p);
        perClass[c]++;
        int n = edison.neighborRouter(r, p);
        if (c == 0) {
          assertThat(n / 16).as("green stays in the row").isEqualTo(r / 16);
        } else if (c == 1) {
          assertThat(n / 96).isEqualTo(r / 96);
          assertThat(n % 16).as("black stays in the column").isEqualTo(r % 16);
        } else if (n >= 0) {
          assertThat(edison.groupOfRouter(n)).isNotEqualTo(edison.groupOfRouter(r));
          blueCabled++;
        }
      }
      assertThat(perClass).containsExactly(15, 15, 10);
      blueHistogram.merge(blueCabled, 1, Integer::sum);
    }
    assertThat(blueHistogram).containsExactly(Map.entry(2, 360), Map.entry(4, 1_080));
  }

  @Test
  void everyGroupPairIsTwelveRouterPairsOfTwoLinksSpreadOverAllSixRows() {
    for (int g = 0; g < 15; g++) {
      for (int d = 0; d < 15; d++) {
        if (g == d) {
          continue;
        }
        Map<Integer, Integer> linksPerRouter = new TreeMap<>();
        for (int i = 0; i < 96; i++) {
          int r = g * 96 + i;
          for (int p = 0; p < 40; p++) {
            int n = edison.neighborRouter(r, p);
            if (n >= 0 && edison.linkClass(r, p) == 2 && edison.groupOfRouter(n) == d) {
              linksPerRouter.merge(i, 1, Integer::sum);
            }
          }
        }
        assertThat(linksPerRouter).as(g + "-" + d).hasSize(12);
        assertThat(linksPerRouter.values()).containsOnly(2);
        assertThat(linksPerRouter.keySet().stream().map(i -> i / 16).distinct()).hasSize(6);
      }
    }
  }

  @Test
  void linksAreSymmetric() {
    assertSymmetric(edison);
  }

  private static void assertSymmetric(Topology t) {
    for (int r = 0; r < t.routerCount(); r++) {
      for (int p = 0; p < t.portCount(); p++) {
        int n = t.neighborRouter(r, p);
        if (n >= 0) {
          int q = t.neighborPort(r, p);
          assertThat(t.neighborRouter(n, q)).isEqualTo(r);
          assertThat(t.neighborPort(n, q)).isEqualTo(p);
          assertThat(t.linkClass(n, q)).isEqualTo(t.linkClass(r, p));
        }
      }
    }
  }

  @Test
  void minimalPortsLeadToTheTargetWithinMinimalHops() {
    int[] out = new int[edison.maxMinimalPorts()];
    // all pairs inside group 3, and from every router of group 0 to two routers of every other group
    List<int[]> pairs = new ArrayList<>();
    for (int a = 0; a < 96; a++) {
      for (int b = 0; b < 96; b++) {
        pairs.add(new int[] {3 * 96 + a, 3 * 96 + b});
      }
    }
    for (int a = 0; a < 96; a++) {
      for (int g = 1; g < 15; g++) {
        pairs.add(new int[] {a, g * 96 + (a * 7) % 96});
        pairs.add(new int[] {a, g * 96 + 95});
      }
    }
    for (int[] pr : pairs) {
      int r = pr[0];
      int target = pr[1];
      int expected = edison.minimalHops(r, target);
      if (r == target) {
        assertThat(expected).isZero();
        continue;
      }
      assertThat(expected).isBetween(1, 2 * edison.maxLocalHops() + 1);
      int hash = r * 31 + target;
      int hops = 0;
      int at = r;
      while (at != target) {
        int n = edison.minimalPorts(at, target, hash, out);
        assertThat(n).isBetween(1, out.length);
        if (edison.groupOfRouter(at) == edison.groupOfRouter(target)) {
          for (int i = 0; i < n; i++) {
            int next = edison.neighborRouter(at, out[i]);
            assertThat(edison.minimalHops(next, target)).isEqualTo(edison.minimalHops(at, target) - 1);
          }
        }
        at = edison.neighborRouter(at, out[hash % n]);
        hops++;
        assertThat(hops).isLessThanOrEqualTo(2 * edison.maxLocalHops() + 1);
      }
      if (edison.groupOfRouter(r) == edison.groupOfRouter(target)) {
        assertThat(hops).isEqualTo(expected);
      } else {
        assertThat(hops).isGreaterThanOrEqualTo(expected);
      }
    }
  }

  @Test
  void aRouterWithItsOwnLinksToAGroupOffersThem() {
    int[] out = new int[edison.maxMinimalPorts()];
    // router (0:0:0) reaches file group 1 over l01 and l02, file group 9 over l03 and l12
    assertThat(java.util.Arrays.copyOf(out, edison.minimalPorts(0, 96 + 40, 5, out))).containsExactly(1, 2);
    assertThat(java.util.Arrays.copyOf(out, edison.minimalPorts(0, 9 * 96, 5, out))).containsExactly(3, 10);
    assertThat(edison.minimalHops(0, 96)).isEqualTo(1);
    // both land on (9:0:0): one more hop to its row or column, two to (9:1:1)
    assertThat(edison.minimalHops(0, 9 * 96 + 1)).isEqualTo(2);
    assertThat(edison.minimalHops(0, 9 * 96 + 17)).isEqualTo(3);
  }

  @Test
  void topologiesParsesEdisonCabledAndLinksFiles(@TempDir Path dir) throws IOException {
    assertThat(Topologies.parseTopology("edison-cabled")).isInstanceOf(CabledDragonfly.class)
        .extracting(Topology::nodeCount).isEqualTo(5_760);
    Path f = dir.resolve("tiny.txt");
    Files.write(f, tiny());
    Topology t = Topologies.parseTopology("links:" + f);
    assertThat(t.groupCount()).isEqualTo(3);
    assertThat(((CabledDragonfly) t).source()).isEqualTo(f.toString());
    assertThat(Topologies.parseTopology("theta")).isInstanceOf(Dragonfly.class);
    assertThatThrownBy(() -> Topologies.parse("edison-cabled"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parseTopology");
    assertThatThrownBy(() -> Topologies.parseTopology("links:"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a file");
    Path missing = dir.resolve("nope.txt");
    assertThatThrownBy(() -> Topologies.parseTopology("links:" + missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("links file " + missing + " cannot be read: no such file");
    assertThatThrownBy(() -> Topologies.parseTopology("links:" + dir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("links file " + dir + " cannot be read: is a directory");
    Path emptyGz = Files.createFile(dir.resolve("empty.txt.gz"));
    assertThatThrownBy(() -> Topologies.parseTopology("links:" + emptyGz))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("links file " + emptyGz + " cannot be read: not gzip data, or cut short");
  }

  // ---- a tiny valid system: file groups 0, 2, 5; one row of 2 routers; one node per router ----

  /** Three groups with skipped numbers, one row of two routers each, every group pair joined by one blue link. */
  static List<String> tiny() {
    List<String> l = new ArrayList<>();
    int[] groups = {0, 2, 5};
    for (int g : groups) {
      l.add(port(g, 0, "l00") + " green -> " + port(g, 1, "l00"));
      l.add(port(g, 1, "l00") + " green -> " + port(g, 0, "l00"));
      for (int c = 0; c < 2; c++) {
        l.add(port(g, c, "l50") + " ptile -> processor");
        l.add(port(g, c, "l51") + " ptile -> processor");
      }
    }
    // 0-2 on column 0 tile l01, 0-5 on column 1 tile l01, 2-5 on column 1 / column 0 tile l02
    l.add(port(0, 0, "l01") + " blue -> " + port(2, 0, "l01"));
    l.add(port(2, 0, "l01") + " blue -> " + port(0, 0, "l01"));
    l.add(port(0, 1, "l01") + " blue -> " + port(5, 1, "l01"));
    l.add(port(5, 1, "l01") + " blue -> " + port(0, 1, "l01"));
    l.add(port(2, 1, "l02") + " blue -> " + port(5, 0, "l02"));
    l.add(port(5, 0, "l02") + " blue -> " + port(2, 1, "l02"));
    l.add(port(0, 0, "l03") + " blue -> unused");
    return l;
  }

  private static String port(int g, int c, String tile) {
    return "c" + g + "-0c0s" + c + "a0" + tile + "(" + g + ":0:" + c + ")";
  }

  private static CabledDragonfly parse(List<String> lines) throws IOException {
    return CabledDragonfly.read(new StringReader(String.join("\n", lines) + "\n"), "tiny.txt");
  }

  /**
   * A port the file leaves out is as uncabled as one it lists {@code unused}: the count of unused ports (the
   * topology line of {@code systems --describe}) counted the {@code unused} lines, so a list without them said "0
   * ports unused" where the rank-3 line of the same description said "152 not cabled".
   */
  @Test
  void unusedPortsCountsEveryPortWithNoFarEndListedOrNot() throws IOException {
    CabledDragonfly full = CabledDragonfly.of(Topologies.parse("aries:groups=2,rows=1,cols=2,h=1"));
    List<String> listed = full.linkList();
    List<String> withoutUnused = new ArrayList<>();
    for (String line : listed) {
      if (!line.endsWith("-> unused")) {
        withoutUnused.add(line);
      }
    }
    assertThat(withoutUnused).hasSizeLessThan(listed.size());
    CabledDragonfly sparse = CabledDragonfly.read(new StringReader(String.join("\n", withoutUnused)), "small.txt");
    int absent = 0;
    for (int r = 0; r < sparse.routerCount(); r++) {
      for (int p = 0; p < sparse.portCount(); p++) {
        absent += sparse.neighborRouter(r, p) < 0 ? 1 : 0;
      }
    }
    assertThat(absent).isEqualTo(152);
    assertThat(sparse.unusedPorts()).isEqualTo(absent).isEqualTo(full.unusedPorts());
    assertThat(sparse.describe()).contains("(152 ports unused)");
  }

  /** A count of one was plural: "1 groups (file groups 0)", "1 nodes/router", "1 links failed". */
  @Test
  void aCountOfOneIsSingularInTheDescription() {
    CabledDragonfly row = (CabledDragonfly) Topologies.parseTopology(
        "cabled:aries:groups=1,rows=1,cols=4,nodes=1+failed=random:1");
    assertThat(row.describe()).isEqualTo("cabled aries dragonfly from the cabling of a generated system (1 group): 1"
        + " group (file group 0) × (1 row × 4 columns) routers, 1 node/router; links rank-1 5, rank-2 0, rank-3 0 (150"
        + " ports unused, 1 link failed); 4 routers, 4 nodes");
    assertThat(Topologies.parseTopology("cabled:aries:groups=1,rows=1,cols=1,nodes=1").describe())
        .endsWith("(1 row × 1 column) routers, 1 node/router; links rank-1 0, rank-2 0, rank-3 0 (40 ports unused);"
            + " 1 router, 1 node");
    // more than one stays plural
    assertThat(row.withFailedLinks("random:1").describe()).contains("2 links failed");
  }

  @Test
  void tinySystemRenumbersGroupsAndRoutesBetweenThem() throws IOException {
    CabledDragonfly t = parse(tiny());
    assertThat(t.groupCount()).isEqualTo(3);
    assertThat(t.fileGroup(1)).isEqualTo(2);
    assertThat(t.fileGroup(2)).isEqualTo(5);
    assertThat(t.routersPerGroup()).isEqualTo(2);
    assertThat(t.nodeCount()).isEqualTo(6);
    assertThat(t.linkCount(0)).isEqualTo(3);
    assertThat(t.linkCount(2)).isEqualTo(3);
    // 6 routers × 40 ports, 12 of them cabled (3 green, 3 blue links): one listed unused, 227 not listed
    assertThat(t.unusedPorts()).isEqualTo(228);
    assertThat(t.linksBetween(1, 2)).isEqualTo(1);
    assertSymmetric(t);
    // router 0 (group 0 col 0) toward group 2 (file 5): its own link is none; the exit is router 1 over green
    int[] out = new int[t.maxMinimalPorts()];
    assertThat(t.minimalPorts(0, 5, 0, out)).isEqualTo(1);
    assertThat(out[0]).isZero();
    assertThat(t.minimalHops(0, 5)).isEqualTo(2);
    assertThat(t.minimalHops(0, 4)).isEqualTo(3);
  }

  @Test
  void everyBuiltInRoutingDeliversEveryPacketOnTheCabledSystems() throws IOException {
    CabledDragonfly tiny = parse(tiny());
    for (String routing : new String[] {"minimal", "in-order", "valiant", "nmin-hash", "ugal", "adaptive0",
        "adaptive3"}) {
      // Edison (5,760 nodes) only for the three routings whose paths differ most, to keep the suite fast
      boolean onEdison = routing.equals("valiant") || routing.equals("ugal") || routing.equals("adaptive0");
      for (Topology t : onEdison ? new Topology[] {tiny, edison} : new Topology[] {tiny}) {
        TrafficResult r = TrafficExperiment.on(t).routing(routing).pattern(TrafficPattern.ADVERSARIAL).load(0.1)
            .seed(5).warmupPs(50_000).measurePs(150_000).drain().run();
        assertThat(r.drained()).as(routing + " on " + t.groupCount() + " groups").isTrue();
        assertThat(r.generated()).as(routing).isPositive();
        assertThat(r.duplicates()).isZero();
        assertThat(r.maxHops()).isLessThanOrEqualTo(3 * t.maxLocalHops() + 2);
      }
    }
  }

  @Test
  void badFilesAreRefusedNamingFileLineAndProblem() {
    assertRefused(List.of("c0-0c0s0a0l00(0:0:0) green c0-0c0s1a0l00(0:0:1)"), "tiny.txt:1:",
        "a line must read NAME(group:row:column) COLOUR -> ");
    List<String> colour = new ArrayList<>(tiny());
    colour.set(3, colour.get(3).replace("ptile", "purple"));
    assertRefused(colour, "tiny.txt:4:", "colour must be green, black, blue or ptile but was \"purple\"");
    List<String> oneWay = new ArrayList<>(tiny());
    oneWay.set(1, port(0, 1, "l00") + " green -> unused");
    assertRefused(oneWay, "tiny.txt:1:", "(line 2) leads nowhere (unused), not back to this port");
    List<String> noFarLine = new ArrayList<>(tiny());
    noFarLine.remove(1);
    assertRefused(noFarLine, "tiny.txt:1:", "the far end c0-0c0s1a0l00 has no line of its own");
    List<String> wrongRank = new ArrayList<>(tiny());
    wrongRank.add(port(0, 0, "l04") + " green -> " + port(2, 0, "l04"));
    assertRefused(wrongRank, "tiny.txt:26:", "a green (rank-1) cable joins two routers of one group and row");
    List<String> twice = new ArrayList<>(tiny());
    twice.add(twice.get(0));
    assertRefused(twice, "tiny.txt:26:", "port listed twice (first on line 1)");
    List<String> tileOfPtile = new ArrayList<>(tiny());
    tileOfPtile.set(2, port(0, 0, "l44") + " ptile -> processor");
    assertRefused(tileOfPtile, "tiny.txt:3:", "ptile (NIC) ports are tiles l50..l57 but this is tile l44");
    List<String> renamed = new ArrayList<>(tiny());
    renamed.set(2, "c9-0c0s0a0l50(0:0:0) ptile -> processor");
    assertRefused(renamed, "tiny.txt:3:", "router (0:0:0) is called c9-0c0s0a0 here but c0-0c0s0a0 before");
    List<String> noPair = new ArrayList<>(tiny().subList(0, 20)); // the groups and the 0-2 cable only
    assertRefused(noPair, "tiny.txt: groups 0 and 5", "have no rank-3 (blue) link");
    List<String> oddNic = new ArrayList<>(tiny());
    oddNic.remove(3);
    assertRefused(oddNic, "tiny.txt: router (0:0:0) lists 1 ptile ports", "two per NIC");
    List<String> missingRouter = new ArrayList<>(tiny());
    missingRouter.add(port(0, 2, "l50") + " ptile -> processor");
    assertRefused(missingRouter, "tiny.txt: router (2:0:2) is never listed", "1 rows × 3 columns");
    assertRefused(List.of("# only a comment", ""), "tiny.txt: no ports listed (2 lines)", "one line per port");
    // NIC ports are ports: two of them listed were called none (until stop 73)
    assertRefused(List.of("c0-0c0s0a0l50(0:0:0) ptile -> processor", "# a comment",
        "c0-0c0s0a0l51(0:0:0) ptile -> processor"), "tiny.txt: no network (router-to-router) ports among the 2 listed,"
        + " which are all NIC (ptile) ports", "one line per port");
  }

  @Test
  void aGroupSplitInTwoIsRefused() {
    List<String> l = new ArrayList<>(tiny());
    l.removeIf(s -> s.startsWith("c0-0c0s0a0l00") || s.startsWith("c0-0c0s1a0l00"));
    assertRefused(l, "tiny.txt: group 0 is not connected", "router (0:0:1) cannot be reached from (0:0:0)");
  }

  private static void assertRefused(List<String> lines, String... fragments) {
    assertThatThrownBy(() -> parse(lines)).isInstanceOf(IllegalArgumentException.class)
        .satisfies(e -> assertThat(e.getMessage()).contains(fragments));
  }
}
