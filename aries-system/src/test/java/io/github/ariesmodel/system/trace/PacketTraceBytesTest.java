package io.github.ariesmodel.system.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exact text a trace writes, for a scripted run on two fabrics of the test's own: the text the trace wrote before
 * its records became primitive arrays and its writer a hand-rolled one (stop 78), byte for byte. The script takes
 * the cases the writer formats: two systems, packets beyond the limit, a packet in flight with hops, hops of packets
 * interleaved, a packet object injected again after its delivery, and times of 0 ps, 1 ps, whole microseconds and
 * up to and beyond 10^15 ps, where a double's microseconds keep no longer every picosecond.
 */
class PacketTraceBytesTest {

  /** A fabric of {@code nodes} nodes that accepts every packet and delivers one when the script says. */
  private static final class ScriptedFabric implements Fabric {
    private final int nodes;
    private final FabricEndpoint[] endpoints;

    ScriptedFabric(int nodes) {
      this.nodes = nodes;
      this.endpoints = new FabricEndpoint[nodes];
    }

    @Override
    public int nodeCount() {
      return nodes;
    }

    @Override
    public void attach(int nodeId, FabricEndpoint endpoint) {
      endpoints[nodeId] = endpoint;
    }

    @Override
    public boolean inject(Packet packet) {
      return true;
    }
  }

  private static final FabricEndpoint SINK = new FabricEndpoint() {
    @Override
    public void deliver(long nowPs, Packet packet) {}

    @Override
    public void injectionReady(long nowPs) {}
  };

  private static Packet packet(int src, int dst, int tag, long injectedAtPs, int hops) {
    Packet p = Packet.synthetic(src, dst, tag, DeliveryMode.ADAPTIVE_0, 8);
    p.injectedAtPs(injectedAtPs);
    p.hops(hops);
    return p;
  }

  private static Fabric wrapped(PacketTrace trace, ScriptedFabric inner) {
    Fabric f = trace.wrap(inner);
    for (int n = 0; n < inner.nodeCount(); n++) {
      f.attach(n, SINK);
    }
    return f;
  }

  /** The scripted run: packets 0 to 6 chosen by {@code filter}, 6 kept. */
  static PacketTrace scripted(PacketTrace.Filter filter) {
    PacketTrace trace = new PacketTrace(6, filter);
    ScriptedFabric innerA = new ScriptedFabric(4);
    ScriptedFabric innerB = new ScriptedFabric(3);
    Fabric a = wrapped(trace, innerA);
    Fabric unused = wrapped(trace, new ScriptedFabric(2)); // never injects: takes no system number
    Fabric b = wrapped(trace, innerB);
    Packet p0 = packet(0, 3, 7, 0, 2);
    Packet p1 = packet(1, 2, -3, 1, 1);
    Packet p2 = packet(3, 0, 0, 999_999, 0);
    a.inject(p0);
    a.inject(p1);
    a.inject(p2);
    trace.hopListener().hop(10, p0, 0, 5, 0, 1);
    trace.hopListener().hop(11, p1, 1, 40, 7, 1);
    trace.hopListener().hop(1_000_000, p0, 2, 17, 3, 2);
    innerA.endpoints[2].deliver(123_456_789_012L, p1);
    innerA.endpoints[0].deliver(999_999_999_999_999L, p2);
    innerA.endpoints[3].deliver(1_000_000_000_000_001L, p0);
    // on the second system, from time 0 again; p3 stays in flight with a hop
    Packet p3 = packet(2, 1, 1, 5, 1);
    Packet p4 = packet(1, 0, 2, 6, 1);
    b.inject(p3);
    b.inject(p4);
    trace.hopListener().hop(20, p3, 4, 9, 1, 1);
    trace.hopListener().hop(21, p4, 5, 10, 2, 1);
    trace.hopListener().hop(9_007_199_254_740_993L, p4, 70_000, 65_535, 256, 300); // 2^53 + 1 ps, wide fields
    innerB.endpoints[0].deliver(123_456_789_012_345_678L, p4);
    // p1's object again, delivered, then beyond the limit
    p1.injectedAtPs(2_000);
    a.inject(p1);
    innerA.endpoints[2].deliver(1_500, p1); // before its injection: a negative duration
    a.inject(packet(0, 1, 9, 3_000, 0));
    trace.hopListener().hop(22, packet(0, 1, 9, 3_000, 0), 0, 1, 0, 1); // a packet the trace never saw
    assertThat(unused.nodeCount()).isEqualTo(2);
    return trace;
  }

  /** What the build before stop 78 wrote for {@code scripted(all)}. */
  private static final String SCRIPTED_ALL = """
      {"displayTimeUnit":"ns","otherData":{"recorded":5,"hops":5,"dropped":1,"inFlight":1,"filter":"all","systems":2},"traceEvents":[{"name":"process_name","ph":"M","pid":2,"args":{"name":"system 1 node 1"}},
      {"name":"thread_name","ph":"M","pid":2,"tid":2,"args":{"name":"packet 1 to node 2"}},
      {"name":"PUT_REQUEST","cat":"packet","ph":"X","ts":0.000001,"dur":123456.789011,"pid":2,"tid":2,"args":{"packet":1,"src":1,"dst":2,"hops":1,"wireBytes":30,"tag":-3,"system":1}},
      {"name":"process_name","ph":"M","pid":4,"args":{"name":"system 1 node 3"}},
      {"name":"thread_name","ph":"M","pid":4,"tid":3,"args":{"name":"packet 2 to node 0"}},
      {"name":"PUT_REQUEST","cat":"packet","ph":"X","ts":0.999999,"dur":999999999.000000,"pid":4,"tid":3,"args":{"packet":2,"src":3,"dst":0,"hops":0,"wireBytes":30,"tag":0,"system":1}},
      {"name":"process_name","ph":"M","pid":1,"args":{"name":"system 1 node 0"}},
      {"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"packet 0 to node 3"}},
      {"name":"PUT_REQUEST","cat":"packet","ph":"X","ts":0.000000,"dur":1000000000.000001,"pid":1,"tid":1,"args":{"packet":0,"src":0,"dst":3,"hops":2,"wireBytes":30,"tag":7,"system":1}},
      {"name":"process_name","ph":"M","pid":6,"args":{"name":"system 2 node 1"}},
      {"name":"thread_name","ph":"M","pid":6,"tid":5,"args":{"name":"packet 4 to node 0"}},
      {"name":"PUT_REQUEST","cat":"packet","ph":"X","ts":0.000006,"dur":123456789012.345660,"pid":6,"tid":5,"args":{"packet":4,"src":1,"dst":0,"hops":1,"wireBytes":30,"tag":2,"system":2}},
      {"name":"thread_name","ph":"M","pid":2,"tid":6,"args":{"name":"packet 5 to node 2"}},
      {"name":"PUT_REQUEST","cat":"packet","ph":"X","ts":0.002000,"dur":-0.000500,"pid":2,"tid":6,"args":{"packet":5,"src":1,"dst":2,"hops":1,"wireBytes":30,"tag":-3,"system":1}},
      {"name":"router 0 port 5 vc 0","cat":"hop","ph":"X","ts":0.000010,"dur":0.999990,"pid":1,"tid":1,"args":{"packet":0,"hop":1,"router":0,"port":5,"vc":0,"src":0,"dst":3,"system":1}},
      {"name":"router 1 port 40 vc 7","cat":"hop","ph":"X","ts":0.000011,"dur":123456.789001,"pid":2,"tid":2,"args":{"packet":1,"hop":1,"router":1,"port":40,"vc":7,"src":1,"dst":2,"system":1}},
      {"name":"router 2 port 17 vc 3","cat":"hop","ph":"X","ts":1.000000,"dur":999999999.000001,"pid":1,"tid":1,"args":{"packet":0,"hop":2,"router":2,"port":17,"vc":3,"src":0,"dst":3,"system":1}},
      {"name":"router 5 port 10 vc 2","cat":"hop","ph":"X","ts":0.000021,"dur":9007199254.740973,"pid":6,"tid":5,"args":{"packet":4,"hop":1,"router":5,"port":10,"vc":2,"src":1,"dst":0,"system":2}},
      {"name":"router 70000 port 65535 vc 256","cat":"hop","ph":"X","ts":9007199254.740992,"dur":114449589757.604690,"pid":6,"tid":5,"args":{"packet":4,"hop":300,"router":70000,"port":65535,"vc":256,"src":1,"dst":0,"system":2}}]}
      """;

  /** What the build before stop 78 wrote for {@code scripted(src=1,sample=0.5)}: packets 4 and 5 of 0 to 6. */
  private static final String SCRIPTED_SAMPLED = """
      {"displayTimeUnit":"ns","otherData":{"recorded":2,"hops":2,"dropped":0,"inFlight":0,"filter":"src=1,sample=0.5","systems":2},"traceEvents":[{"name":"process_name","ph":"M","pid":6,"args":{"name":"system 2 node 1"}},
      {"name":"thread_name","ph":"M","pid":6,"tid":5,"args":{"name":"packet 4 to node 0"}},
      {"name":"PUT_REQUEST","cat":"packet","ph":"X","ts":0.000006,"dur":123456789012.345660,"pid":6,"tid":5,"args":{"packet":4,"src":1,"dst":0,"hops":1,"wireBytes":30,"tag":2,"system":2}},
      {"name":"process_name","ph":"M","pid":2,"args":{"name":"system 1 node 1"}},
      {"name":"thread_name","ph":"M","pid":2,"tid":6,"args":{"name":"packet 5 to node 2"}},
      {"name":"PUT_REQUEST","cat":"packet","ph":"X","ts":0.002000,"dur":-0.000500,"pid":2,"tid":6,"args":{"packet":5,"src":1,"dst":2,"hops":1,"wireBytes":30,"tag":-3,"system":1}},
      {"name":"router 5 port 10 vc 2","cat":"hop","ph":"X","ts":0.000021,"dur":9007199254.740973,"pid":6,"tid":5,"args":{"packet":4,"hop":1,"router":5,"port":10,"vc":2,"src":1,"dst":0,"system":2}},
      {"name":"router 70000 port 65535 vc 256","cat":"hop","ph":"X","ts":9007199254.740992,"dur":114449589757.604690,"pid":6,"tid":5,"args":{"packet":4,"hop":300,"router":70000,"port":65535,"vc":256,"src":1,"dst":0,"system":2}}]}
      """;

  /** What the build before stop 78 wrote for a trace that recorded nothing. */
  private static final String EMPTY = """
      {"displayTimeUnit":"ns","otherData":{"recorded":0,"hops":0,"dropped":0,"inFlight":0,"filter":"dst=2","systems":0},"traceEvents":[]}
      """;

  private static String written(PacketTrace trace) throws Exception {
    StringWriter w = new StringWriter();
    trace.write(w);
    return w.toString();
  }

  @Test
  void aScriptedRunIsWrittenAsBeforeToAWriterAndToAFile(@TempDir Path dir) throws Exception {
    PacketTrace trace = scripted(PacketTrace.Filter.all());
    assertThat(trace.recorded()).isEqualTo(5);
    assertThat(trace.hopsRecorded()).isEqualTo(6); // the hop of the packet in flight too, as before
    assertThat(trace.dropped()).isEqualTo(1);
    assertThat(written(trace)).isEqualTo(SCRIPTED_ALL);
    assertThat(written(trace)).as("written twice").isEqualTo(SCRIPTED_ALL);
    Path file = dir.resolve("t.json");
    trace.write(file);
    assertThat(Files.readString(file, StandardCharsets.UTF_8)).isEqualTo(SCRIPTED_ALL);
  }

  @Test
  void aSampledRunWhosePacketNumbersAreNotTheirOrderIsWrittenAsBefore() throws Exception {
    assertThat(written(scripted(PacketTrace.Filter.parse("src=1,sample=0.5")))).isEqualTo(SCRIPTED_SAMPLED);
  }

  @Test
  void aTraceOfNothingIsItsHeaderAlone(@TempDir Path dir) throws Exception {
    PacketTrace trace = new PacketTrace(10, PacketTrace.Filter.parse("dst=2"));
    assertThat(written(trace)).isEqualTo(EMPTY);
    trace.write(dir.resolve("e.json"));
    assertThat(Files.readString(dir.resolve("e.json"), StandardCharsets.UTF_8)).isEqualTo(EMPTY);
  }

  /**
   * 30,000 packets, their hops and numbers run over several of the records' chunks (8,192 elements): the first 10,000
   * from node 1, where a packet's number is its place among those chosen, the rest from nodes 0 to 2 in turn, where
   * it is not. Every journey and hop written is the one scripted, in delivery order (the reverse of injection's).
   */
  @Test
  void packetsAndHopsOverManyChunksAreWrittenAsScripted() throws Exception {
    int n = 30_000;
    PacketTrace trace = new PacketTrace(PacketTrace.MAX_LIMIT, PacketTrace.Filter.parse("src=1"));
    ScriptedFabric inner = new ScriptedFabric(3);
    Fabric f = wrapped(trace, inner);
    List<Packet> chosen = new ArrayList<>();
    List<Long> numbers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Packet p = packet(i < 10_000 ? 1 : i % 3, 2, i, 1_000L * i, 2);
      f.inject(p);
      if (p.sourceNode() == 1) {
        chosen.add(p);
        numbers.add((long) i);
        trace.hopListener().hop(1_000L * i + 1, p, i % 7, i % 48, i % 8, 1);
      }
    }
    for (Packet p : chosen) {
      trace.hopListener().hop(p.injectedAtPs() + 500_000_000L, p, 3, 40, 2, 2);
    }
    for (int k = chosen.size() - 1; k >= 0; k--) {
      inner.endpoints[2].deliver(chosen.get(k).injectedAtPs() + 900_000_000L, chosen.get(k));
    }
    JsonNode root = new ObjectMapper().readTree(written(trace));
    int m = chosen.size();
    assertThat(m).as("journeys over three chunks, hops over five").isGreaterThan(2 * 8_192);
    assertThat(root.get("otherData").get("recorded").asInt()).isEqualTo(m);
    assertThat(root.get("otherData").get("hops").asInt()).isEqualTo(2 * m);
    List<JsonNode> journeys = new ArrayList<>();
    List<JsonNode> hops = new ArrayList<>();
    for (JsonNode e : root.get("traceEvents")) {
      String cat = e.has("cat") ? e.get("cat").asText() : "";
      (cat.equals("packet") ? journeys : cat.equals("hop") ? hops : new ArrayList<JsonNode>()).add(e);
    }
    assertThat(journeys).hasSize(m);
    assertThat(hops).hasSize(2 * m);
    for (int k = 0; k < m; k++) {
      int c = m - 1 - k; // delivered last first
      long number = numbers.get(c);
      JsonNode a = journeys.get(k).get("args");
      assertThat(a.get("packet").asLong()).isEqualTo(number);
      assertThat(a.get("tag").asLong()).isEqualTo(number);
      assertThat(journeys.get(k).get("tid").asLong()).isEqualTo(number + 1);
      assertThat(journeys.get(k).get("ts").asDouble()).isEqualTo(number / 1e3);
      assertThat(journeys.get(k).get("dur").asDouble()).isEqualTo(900);
      JsonNode first = hops.get(c);
      JsonNode second = hops.get(m + c);
      assertThat(first.get("args").get("packet").asLong()).isEqualTo(number);
      assertThat(first.get("name").asText()).isEqualTo("router " + number % 7 + " port " + number % 48 + " vc "
          + number % 8);
      assertThat(first.get("dur").asDouble()).as("until the next hop").isEqualTo(499.999999);
      assertThat(second.get("args").get("packet").asLong()).isEqualTo(number);
      assertThat(second.get("args").get("hop").asInt()).isEqualTo(2);
      assertThat(second.get("dur").asDouble()).as("until delivery").isEqualTo(400);
    }
  }
}
