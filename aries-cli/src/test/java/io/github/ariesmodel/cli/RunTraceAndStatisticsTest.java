package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.SystemStatistics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code aries run --trace} with filters, and the {@code statistics} object of results.json. */
class RunTraceAndStatisticsTest {

  @TempDir Path tmp;

  private int run(StringWriter out, StringWriter err, String... args) {
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void aFilteredPerHopTraceOpensAsTraceEventJsonAndFollowsValidPaths() throws Exception {
    Path file = tmp.resolve("trace.json");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = run(out, err, "run", "pingpong", "-p", "sizes=4K", "-p", "iterations=1", "--system", "two-groups",
        "--routing", "valiant", "--no-wall-clock", "-q", "--out", tmp.resolve("pp").toString(), "--trace",
        file.toString(), "--trace-filter", "sample=0.5");
    assertThat(rc).as(err.toString()).isZero();
    assertThat(out.toString()).contains("hops, ");
    JsonNode root = new ObjectMapper().readTree(file.toFile());
    assertThat(root.get("otherData").get("filter").asText()).isEqualTo("sample=0.5");
    Map<Long, JsonNode> journeys = new HashMap<>();
    Map<Long, List<JsonNode>> hops = new HashMap<>();
    int named = 0;
    for (JsonNode e : root.get("traceEvents")) {
      String ph = e.get("ph").asText();
      if (ph.equals("M")) {
        named++;
        continue;
      }
      assertThat(ph).isEqualTo("X");
      assertThat(e.get("ts").isNumber() && e.get("dur").isNumber() && e.get("pid").isInt()).isTrue();
      long id = e.get("args").get("packet").asLong();
      if (e.get("cat").asText().equals("packet")) {
        assertThat(journeys.put(id, e)).as("one journey per packet").isNull();
      } else {
        assertThat(e.get("cat").asText()).isEqualTo("hop");
        hops.computeIfAbsent(id, k -> new ArrayList<>()).add(e);
      }
    }
    assertThat(named).isPositive();
    assertThat(journeys).isNotEmpty();
    Dragonfly two = Topologies.aries(2);
    int remote = 0;
    for (Map.Entry<Long, JsonNode> j : journeys.entrySet()) {
      JsonNode args = j.getValue().get("args");
      List<JsonNode> path = hops.getOrDefault(j.getKey(), List.of());
      assertThat(path).hasSize(args.get("hops").asInt());
      // one system a distance, each system's nodes after the last one's, from 1: pid 0 is Perfetto's swapper
      assertThat(j.getValue().get("pid").asInt()).as("system %s node %s", args.get("system"), args.get("src"))
          .isEqualTo((args.get("system").asInt() - 1) * two.nodeCount() + args.get("src").asInt() + 1);
      int router = two.routerOfNode(args.get("src").asInt());
      for (int i = 0; i < path.size(); i++) {
        JsonNode h = path.get(i).get("args");
        assertThat(h.get("hop").asInt()).isEqualTo(i + 1);
        assertThat(h.get("router").asInt()).isEqualTo(router);
        router = two.neighborRouter(router, h.get("port").asInt());
      }
      assertThat(router).isEqualTo(two.routerOfNode(args.get("dst").asInt()));
      remote += path.isEmpty() ? 0 : 1;
    }
    assertThat(remote).as("some traced packets crossed routers").isPositive();
  }

  @Test
  void aBadTraceFilterIsAClearError() {
    StringWriter err = new StringWriter();
    assertThat(run(new StringWriter(), err, "run", "pingpong", "--trace", tmp.resolve("t.json").toString(),
        "--trace-filter", "node=3", "--out", tmp.resolve("x").toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--trace-filter fields are src, dst, packet, sample but got \"node\" (--trace-filter)");
  }

  @Test
  void resultsJsonCarriesTheSystemsStatisticsAndReadsBackEqual() throws Exception {
    Path dir = tmp.resolve("gups");
    StringWriter err = new StringWriter();
    int rc = run(new StringWriter(), err, "run", "gups", "-p", "pes=4", "-p", "updates=16", "--no-wall-clock", "-q",
        "--out", dir.toString());
    assertThat(rc).as(err.toString()).isZero();
    String text = java.nio.file.Files.readString(dir.resolve("results.json"));
    assertThat(text.indexOf("\"tables\"")).isLessThan(text.indexOf("\"statistics\""));
    Results r = ResultsJson.read(dir.resolve("results.json"));
    SystemStatistics s = r.statistics();
    assertThat(s).isNotNull();
    assertThat(s.nodesBuilt()).isGreaterThanOrEqualTo(4);
    assertThat(s.nics().packetsSent()).isPositive().isEqualTo(s.nics().packetsReceived());
    assertThat(s.fabric().delivered()).isEqualTo(s.nics().packetsSent());
    assertThat(s.translations().get(TranslationClient.NETWORK_REQUEST).translations()).isPositive();
    assertThat(s.events()).isEqualTo(r.metadata().events());
    assertThat(ResultsJson.toJson(r, false)).isEqualTo(text);
    String bad = text.replace("\"nodesBuilt\"", "\"nodesBilt\"");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ResultsJson.read(new java.io.StringReader(bad)))
        .hasMessageContaining("$.statistics has unknown field \"nodesBilt\"");
    String old = text.substring(0, text.indexOf(",\n  \"statistics\"")) + "\n}\n";
    assertThat(ResultsJson.read(new java.io.StringReader(old)).statistics()).as("files from before").isNull();
  }
}
