package io.github.ariesmodel.system.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class PacketTraceTest {

  private static JsonNode traced(int limit, long[] deliveredOut) throws Exception {
    PacketTrace trace = new PacketTrace(limit);
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").trace(trace).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 1, 40).build();
    Symmetric buf = job.allocate(1024);
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putmem(buf, 0, buf, 0, 1024, 1); // same router: 16 packets, 0 hops
        pe.putmem(buf, 0, buf, 0, 64, 2);   // another group
        pe.quiet();
      }
    });
    deliveredOut[0] = sys.routerFabric().orElseThrow().delivered();
    StringWriter w = new StringWriter();
    trace.write(w);
    return new ObjectMapper().readTree(w.toString());
  }

  @Test
  void everyDeliveredPacketBecomesOneCompleteEventWithItsJourney() throws Exception {
    long[] delivered = new long[1];
    JsonNode root = traced(1000, delivered);
    JsonNode ev = root.get("traceEvents");
    assertThat((long) ev.size()).isEqualTo(delivered[0]);
    int sameRouter = 0;
    int remote = 0;
    for (JsonNode e : ev) {
      assertThat(e.get("ph").asText()).isEqualTo("X");
      assertThat(e.get("dur").asDouble()).isPositive();
      if (e.get("pid").asInt() == 0 && e.get("args").get("dst").asInt() == 1) {
        sameRouter++;
        assertThat(e.get("args").get("hops").asInt()).isZero();
      }
      if (e.get("pid").asInt() == 0 && e.get("args").get("dst").asInt() == 40) {
        remote++;
        assertThat(e.get("args").get("hops").asInt()).isPositive();
      }
    }
    assertThat(sameRouter).isEqualTo(16);
    assertThat(remote).isEqualTo(1);
  }

  @Test
  void theLimitKeepsTheFirstPacketsAndCountsTheRest() throws Exception {
    long[] delivered = new long[1];
    JsonNode root = traced(5, delivered);
    assertThat(root.get("traceEvents").size()).isEqualTo(5);
    assertThat(root.get("otherData").get("dropped").asLong()).isEqualTo(delivered[0] - 5);
    assertThatThrownBy(() -> new PacketTrace(0)).hasMessageContaining("limit must be in [1, 10000000] but was 0");
  }
}
