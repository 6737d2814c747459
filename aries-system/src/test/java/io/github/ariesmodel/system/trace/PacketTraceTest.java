package io.github.ariesmodel.system.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PacketTraceTest {

  private static final Dragonfly SMALL = Topologies.ariesSmall();

  /** Node 0 puts 1 KB to node 1 (same router: 16 packets, 0 hops) then 64 B to node 40 (another group). */
  private static JsonNode traced(PacketTrace trace, long[] deliveredOut, String routing) throws Exception {
    AriesSystem sys = AriesSystem.builder().topology(SMALL, "small").routing(routing).trace(trace).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 1, 40).build();
    Symmetric buf = job.allocate(1024);
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putmem(buf, 0, buf, 0, 1024, 1);
        pe.putmem(buf, 0, buf, 0, 64, 2);
        pe.quiet();
      }
    });
    deliveredOut[0] = sys.routerFabric().orElseThrow().delivered();
    StringWriter w = new StringWriter();
    trace.write(w);
    return new ObjectMapper().readTree(w.toString());
  }

  private static List<JsonNode> events(JsonNode root, String cat) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode e : root.get("traceEvents")) {
      if (e.has("cat") && e.get("cat").asText().equals(cat)) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * A hop listener given in routerSettings is told beside the trace, which records the same hops as without it (the
   * listener used to replace the trace's, whose hops then came back empty; stop 64's user walk).
   */
  @Test
  void aHopListenerInRouterSettingsIsToldBesideTheTrace() throws Exception {
    long[] delivered = new long[1];
    JsonNode alone = traced(new PacketTrace(1000), delivered, "by-delivery-mode");
    PacketTrace trace = new PacketTrace(1000);
    long[] hops = {0};
    AriesSystem sys = AriesSystem.builder().topology(SMALL, "small").trace(trace)
        .routerSettings(rb -> rb.hopListener((now, p, router, port, vc, hop) -> hops[0]++)).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 1, 40).build();
    Symmetric buf = job.allocate(1024);
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putmem(buf, 0, buf, 0, 1024, 1);
        pe.putmem(buf, 0, buf, 0, 64, 2);
        pe.quiet();
      }
    });
    StringWriter w = new StringWriter();
    trace.write(w);
    JsonNode both = new ObjectMapper().readTree(w.toString());
    assertThat(hops[0]).isPositive();
    assertThat(events(both, "hop")).hasSize(events(alone, "hop").size()).hasSize((int) hops[0]);
  }

  @Test
  void everyDeliveredPacketBecomesOneCompleteEventWithItsJourney() throws Exception {
    long[] delivered = new long[1];
    JsonNode root = traced(new PacketTrace(1000), delivered, "by-delivery-mode");
    List<JsonNode> journeys = events(root, "packet");
    assertThat((long) journeys.size()).isEqualTo(delivered[0]);
    int sameRouter = 0;
    int remote = 0;
    for (JsonNode e : journeys) {
      assertThat(e.get("ph").asText()).isEqualTo("X");
      assertThat(e.get("dur").asDouble()).isPositive();
      assertThat(e.get("tid").asLong()).isEqualTo(e.get("args").get("packet").asLong() + 1);
      assertThat(e.get("pid").asInt()).isEqualTo(e.get("args").get("src").asInt() + 1);
      if (e.get("args").get("src").asInt() == 0 && e.get("args").get("dst").asInt() == 1) {
        sameRouter++;
        assertThat(e.get("args").get("hops").asInt()).isZero();
      }
      if (e.get("args").get("src").asInt() == 0 && e.get("args").get("dst").asInt() == 40) {
        remote++;
        assertThat(e.get("args").get("hops").asInt()).isPositive();
      }
    }
    assertThat(sameRouter).isEqualTo(16);
    assertThat(remote).isEqualTo(1);
  }

  @Test
  void theLimitKeepsTheFirstChosenPacketsAndCountsTheRest() throws Exception {
    long[] delivered = new long[1];
    JsonNode root = traced(new PacketTrace(5), delivered, "by-delivery-mode");
    assertThat(events(root, "packet")).hasSize(5);
    assertThat(root.get("otherData").get("dropped").asLong()).isEqualTo(delivered[0] - 5);
    assertThatThrownBy(() -> new PacketTrace(0)).hasMessageContaining("limit must be in [1, 10000000] but was 0");
  }

  @Test
  void aChosenPacketsHopsAreRecordedInOrderAlongAValidPath() throws Exception {
    for (String routing : List.of("minimal", "valiant")) {
      long[] delivered = new long[1];
      PacketTrace trace = new PacketTrace(10, PacketTrace.Filter.parse("src=0,dst=40"));
      JsonNode root = traced(trace, delivered, routing);
      List<JsonNode> journeys = events(root, "packet");
      assertThat(journeys).as(routing).hasSize(1);
      JsonNode journey = journeys.get(0);
      long id = journey.get("args").get("packet").asLong();
      List<JsonNode> hops = events(root, "hop");
      assertThat(hops).as(routing).hasSize(journey.get("args").get("hops").asInt()).isNotEmpty();
      assertThat(trace.hopsRecorded()).isEqualTo(hops.size());
      int router = SMALL.routerOfNode(0);
      double t = journey.get("ts").asDouble();
      double end = t + journey.get("dur").asDouble();
      for (int i = 0; i < hops.size(); i++) {
        JsonNode h = hops.get(i);
        JsonNode a = h.get("args");
        assertThat(a.get("packet").asLong()).isEqualTo(id);
        assertThat(a.get("hop").asInt()).as("hop index").isEqualTo(i + 1);
        assertThat(a.get("router").asInt()).as("hop %s leaves the router the previous one reached", i + 1)
            .isEqualTo(router);
        assertThat(a.get("vc").asInt()).isBetween(0, 7);
        assertThat(h.get("ts").asDouble()).as("hops in time order, inside the journey").isGreaterThanOrEqualTo(t);
        assertThat(h.get("ts").asDouble() + h.get("dur").asDouble()).isLessThanOrEqualTo(end + 1e-9);
        assertThat(h.get("pid").asInt()).isEqualTo(journey.get("pid").asInt());
        assertThat(h.get("tid").asLong()).isEqualTo(id + 1);
        t = h.get("ts").asDouble();
        router = SMALL.neighborRouter(router, a.get("port").asInt());
        assertThat(router).as("port %s is cabled", a.get("port").asInt()).isNotNegative();
      }
      assertThat(router).as(routing + ": the last hop reaches the destination's router")
          .isEqualTo(SMALL.routerOfNode(40));
    }
  }

  @Test
  void filtersChooseBySourceDestinationPacketAndSample() throws Exception {
    long[] delivered = new long[1];
    JsonNode one = traced(new PacketTrace(100, PacketTrace.Filter.parse("packet=3")), delivered, "minimal");
    assertThat(events(one, "packet")).singleElement()
        .satisfies(e -> assertThat(e.get("args").get("packet").asLong()).isEqualTo(3));
    JsonNode toOne = traced(new PacketTrace(100, PacketTrace.Filter.parse("dst=1")), delivered, "minimal");
    assertThat(events(toOne, "packet")).hasSize(16).allSatisfy(e -> {
      assertThat(e.get("args").get("dst").asInt()).isEqualTo(1);
      assertThat(e.get("args").get("src").asInt()).isZero();
    });
    JsonNode fromOne = traced(new PacketTrace(100, PacketTrace.Filter.parse("src=1")), delivered, "minimal");
    assertThat(events(fromOne, "packet")).isNotEmpty()
        .allSatisfy(e -> assertThat(e.get("args").get("src").asInt()).isEqualTo(1));
    JsonNode half = traced(new PacketTrace(100, PacketTrace.Filter.parse("sample=0.5")), delivered, "minimal");
    int sampled = events(half, "packet").size();
    assertThat(sampled).isPositive().isLessThan((int) delivered[0]);
    JsonNode again = traced(new PacketTrace(100, PacketTrace.Filter.parse("sample=0.5")), delivered, "minimal");
    assertThat(events(again, "packet")).as("the same run samples the same packets").hasSize(sampled);
  }

  /**
   * A filter naming a node the traced system lacks matches no packet, and the trace stayed empty without a word (the
   * command line refused it; the library took {@code src=9999} on a system of 384 nodes).
   */
  @Test
  void aFilterNodeTheSystemLacksIsRefusedWhenTheSystemIsBuiltOrTheFabricWrapped() throws Exception {
    int n = SMALL.nodeCount();
    assertThatThrownBy(() -> AriesSystem.builder().topology(SMALL, "small")
        .trace(new PacketTrace(10, PacketTrace.Filter.parse("src=9999"))).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("trace filter src must be in [0, " + (n - 1) + "] (the nodes of the fabric traced) but was 9999");
    PacketTrace toLast = new PacketTrace(100, PacketTrace.Filter.parse("dst=" + n));
    assertThatThrownBy(() -> AriesSystem.builder().topology(SMALL, "small").trace(toLast).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("trace filter dst must be in [0, " + (n - 1) + "] (the nodes of the fabric traced) but was " + n);
    DeterministicEventLoop loop = new DeterministicEventLoop();
    assertThatThrownBy(() -> toLast.wrap(new IdealFabric(loop, n, 0, 1e10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("trace filter dst must be in [0, " + (n - 1) + "] (the nodes of the fabric traced) but was " + n);
    assertThat(toLast.wrap(new IdealFabric(loop, n + 1, 0, 1e10)).nodeCount())
        .isEqualTo(n + 1);
    // the last node is one the system has: traced as before
    long[] delivered = new long[1];
    JsonNode toForty = traced(new PacketTrace(100, PacketTrace.Filter.parse("src=0,dst=40")), delivered, "minimal");
    assertThat(events(toForty, "packet")).hasSize(1);
    assertThat(AriesSystem.builder().topology(SMALL, "small")
        .trace(new PacketTrace(10, PacketTrace.Filter.parse("src=" + (n - 1) + ",dst=" + (n - 1)))).build().nodeCount())
        .isEqualTo(n);
  }

  /**
   * Perfetto takes pid 0 and tid 0 for the kernel's idle ("swapper") process and thread: node 0's first packet was
   * traced on them (pid = node, tid = packet number, until stop 77). Pid and tid are now the numbers plus one, and the
   * events' args and the metadata's names keep the numbers themselves.
   */
  @Test
  void noEventTakesPidOrTidZeroWhichPerfettoKeepsForItsSwapper() throws Exception {
    JsonNode root = traced(new PacketTrace(1000), new long[1], "minimal");
    Map<Long, String> processes = new HashMap<>();
    Map<Long, String> threads = new HashMap<>();
    for (JsonNode e : root.get("traceEvents")) {
      assertThat(e.get("pid").asLong()).as("pid of %s", e).isPositive();
      if (e.has("tid")) {
        assertThat(e.get("tid").asLong()).as("tid of %s", e).isPositive();
      }
      if (e.get("name").asText().equals("process_name")) {
        processes.put(e.get("pid").asLong(), e.get("args").get("name").asText());
      } else if (e.get("name").asText().equals("thread_name")) {
        threads.put(e.get("tid").asLong(), e.get("args").get("name").asText());
      }
    }
    JsonNode first = events(root, "packet").get(0);
    assertThat(first.get("args").get("packet").asLong()).isZero();
    assertThat(first.get("args").get("src").asInt()).isZero();
    assertThat(first.get("pid").asLong()).isEqualTo(1);
    assertThat(first.get("tid").asLong()).isEqualTo(1);
    assertThat(processes).containsEntry(1L, "node 0").doesNotContainKey(0L);
    assertThat(threads).containsEntry(1L, "packet 0 to node 1").doesNotContainKey(0L);
    for (JsonNode h : events(root, "hop")) {
      assertThat(h.get("pid").asInt()).isEqualTo(h.get("args").get("src").asInt() + 1);
      assertThat(h.get("tid").asLong()).isEqualTo(h.get("args").get("packet").asLong() + 1);
    }
  }

  /**
   * A workload that builds one system per experiment (pingpong, one a distance) traces them all into one file, each
   * from time 0: their packets were laid on one another under one process {@code node 0} (until stop 77). Each
   * system's nodes now have processes of their own; a system built and never run (as the command line builds one to
   * check the run before it) takes no number.
   */
  @Test
  void theSystemsOfOneTraceHaveProcessesOfTheirOwn() throws Exception {
    PacketTrace trace = new PacketTrace(1000, PacketTrace.Filter.parse("src=0"));
    AriesSystem.builder().topology(SMALL, "small").trace(trace).build(); // built, never run
    for (int run = 0; run < 2; run++) {
      AriesSystem sys = AriesSystem.builder().topology(SMALL, "small").routing("minimal").trace(trace).build();
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 40).build();
      Symmetric buf = job.allocate(64);
      job.run(pe -> {
        if (pe.myPe() == 0) {
          pe.putmem(buf, 0, buf, 0, 64, 1);
          pe.quiet();
        }
      });
    }
    StringWriter w = new StringWriter();
    trace.write(w);
    JsonNode root = new ObjectMapper().readTree(w.toString());
    Map<Long, String> processes = new HashMap<>();
    for (JsonNode e : root.get("traceEvents")) {
      if (e.get("name").asText().equals("process_name")) {
        processes.put(e.get("pid").asLong(), e.get("args").get("name").asText());
      }
    }
    long n = SMALL.nodeCount();
    assertThat(processes).containsExactlyInAnyOrderEntriesOf(Map.of(1L, "system 1 node 0", n + 1, "system 2 node 0"));
    assertThat(root.get("otherData").get("systems").asInt()).isEqualTo(2);
    List<JsonNode> journeys = events(root, "packet");
    assertThat(journeys).hasSize(2);
    Map<Long, Long> pidOfPacket = new HashMap<>();
    for (JsonNode e : journeys) {
      int system = e.get("args").get("system").asInt();
      assertThat(system).isBetween(1, 2);
      assertThat(e.get("pid").asLong()).isEqualTo(system == 1 ? 1 : n + 1);
      assertThat(e.get("ts").asDouble()).as("each system starts at 0").isLessThan(10);
      pidOfPacket.put(e.get("args").get("packet").asLong(), e.get("pid").asLong());
    }
    assertThat(events(root, "hop")).isNotEmpty().allSatisfy(h -> {
      assertThat(h.get("pid").asLong()).isEqualTo(pidOfPacket.get(h.get("args").get("packet").asLong()));
      assertThat(h.get("args").get("system").asInt()).isEqualTo(h.get("pid").asLong() == 1 ? 1 : 2);
    });
  }

  /**
   * A trace written before its run drained leaves the packets in flight out, with their hops; its {@code otherData}
   * counted their hops all the same (hops 2 over 1 hop event) and did not tell of the packets (until stop 77).
   */
  @Test
  void theCountsOfATraceWrittenBeforeTheRunDrainedAreThoseOfItsEvents() throws Exception {
    PacketTrace trace = new PacketTrace(10);
    FabricEndpoint[] endpoints = new FabricEndpoint[2];
    Fabric fabric = trace.wrap(new Fabric() {
      @Override
      public int nodeCount() {
        return 2;
      }

      @Override
      public void attach(int nodeId, FabricEndpoint endpoint) {
        endpoints[nodeId] = endpoint;
      }

      @Override
      public boolean inject(Packet packet) {
        return true; // delivered when the test says
      }
    });
    fabric.attach(1, new FabricEndpoint() {
      @Override
      public void deliver(long nowPs, Packet packet) {}

      @Override
      public void injectionReady(long nowPs) {}
    });
    Packet delivered = Packet.synthetic(0, 1, 0, DeliveryMode.ADAPTIVE_0, 0);
    Packet inFlight = Packet.synthetic(0, 1, 0, DeliveryMode.ADAPTIVE_0, 0);
    assertThat(fabric.inject(delivered) && fabric.inject(inFlight)).isTrue();
    trace.hopListener().hop(1_000, delivered, 0, 5, 0, 1);
    trace.hopListener().hop(2_000, inFlight, 0, 5, 0, 1);
    endpoints[1].deliver(3_000, delivered);
    StringWriter w = new StringWriter();
    trace.write(w);
    JsonNode root = new ObjectMapper().readTree(w.toString());
    JsonNode other = root.get("otherData");
    assertThat(events(root, "packet")).hasSize(other.get("recorded").asInt()).hasSize(1);
    assertThat(events(root, "hop")).hasSize(other.get("hops").asInt()).hasSize(1);
    assertThat(other.get("inFlight").asInt()).isEqualTo(1);
    assertThat(other.get("dropped").asInt()).isZero();
  }

  @Test
  void aFilterRoundTripsAndRefusesBadFields() {
    for (String s : List.of("all", "src=3", "src=3,dst=7", "packet=12", "dst=1,sample=0.25")) {
      assertThat(PacketTrace.Filter.parse(s).toString()).isEqualTo(s);
    }
    assertThat(PacketTrace.Filter.parse(" dst=7 , src=3 ")).isEqualTo(new PacketTrace.Filter(3, 7, -1, 1.0));
    assertThatThrownBy(() -> PacketTrace.Filter.parse("node=3"))
        .hasMessageContaining("trace filter fields are src, dst, packet, sample but got \"node\"");
    assertThatThrownBy(() -> PacketTrace.Filter.parse("src=x"))
        .hasMessage("trace filter field src must be a whole number from 0 to 2147483647 but was \"x\"");
    // numbers out of the field's range or form were told they were not numbers (until stop 77)
    assertThatThrownBy(() -> PacketTrace.Filter.parse("dst=1e3"))
        .hasMessage("trace filter field dst must be a whole number from 0 to 2147483647 but was \"1e3\"");
    assertThatThrownBy(() -> PacketTrace.Filter.parse("packet=99999999999999999999"))
        .hasMessage("trace filter field packet must be a whole number from 0 to 9223372036854775807 but was"
            + " \"99999999999999999999\"");
    assertThatThrownBy(() -> PacketTrace.Filter.parse("sample=half"))
        .hasMessage("trace filter field sample must be a number in (0, 1] but was \"half\"");
    assertThatThrownBy(() -> PacketTrace.Filter.parse("sample=0")).hasMessageContaining("sample rate must be in (0, 1]");
    assertThatThrownBy(() -> PacketTrace.Filter.parse("src=-2")).hasMessageContaining("src must be a node id >= 0");
    assertThatThrownBy(() -> PacketTrace.Filter.parse("src=1,src=2")).hasMessageContaining("src given twice");
    for (String empty : List.of("src=0,", ",src=0", "src=0,,dst=1", "src=0, ")) {
      // a trailing empty field passed while a leading or an inner one was refused (until stop 77)
      assertThatThrownBy(() -> PacketTrace.Filter.parse(empty)).as(empty)
          .hasMessage("trace filter fields are src=N, dst=N, packet=N, sample=F but got \"\"");
    }
  }
}
