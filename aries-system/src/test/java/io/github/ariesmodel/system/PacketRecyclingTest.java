package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.nic.Post;
import io.github.ariesmodel.system.trace.PacketTrace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NICs of a system reuse the packets they are done with: after a first round of traffic has grown their pools, a
 * second round of the same traffic allocates no packet and no payload, and every completion and every byte of memory
 * is what a system whose NICs allocate afresh gives.
 */
class PacketRecyclingTest {

  private static final long BASE = 0x10_0000L;
  private static final int BYTES = 64 * 1024;
  private static final int PHYSICAL = 8 << 20;

  /** What a run leaves: its completion events (as text, times included) and both nodes' registered bytes. */
  private record Outcome(List<String> events, byte[] source, byte[] target, long[] allocatedAfterRounds) {}

  @Test
  void aSecondRoundAllocatesNoPacketAndGivesWhatFreshPacketsGive() {
    Outcome recycled = run(AriesSystem.builder().system("default").build());
    // a packet trace keeps packets, so a traced system keeps allocating (and is the reference); its filter takes none
    // of this test's packets, which go from node 0 to the last node
    Outcome fresh = run(AriesSystem.builder().system("default").trace(new PacketTrace(1, PacketTrace.Filter.parse(
        "src=1,dst=2"))).build());

    assertThat(recycled.events()).isEqualTo(fresh.events());
    assertThat(Arrays.mismatch(recycled.source(), fresh.source())).as("first byte that differs, node 0").isEqualTo(-1);
    assertThat(Arrays.mismatch(recycled.target(), fresh.target())).as("first byte that differs, far node").isEqualTo(-1);
    long[] r = recycled.allocatedAfterRounds();
    assertThat(r[0]).as("packets and payloads made in round 1").isPositive();
    assertThat(r[1]).as("made by the end of round 2").isEqualTo(r[0]);
    assertThat(fresh.allocatedAfterRounds()).as("no shared pool").containsExactly(-1, -1);
  }

  /**
   * Router settings of the caller's keep packets reused (until stop 74 they turned reuse off, and with it a concurrent
   * replay's LinkTally): a hop listener and a delivery observer see the same hops and deliveries either way, and the
   * run is the same as without them.
   */
  @Test
  void routerSettingsWithAHopListenerAndADeliveryObserverKeepPacketsReused() {
    List<String> hops = new ArrayList<>();
    List<String> deliveries = new ArrayList<>();
    AriesSystem sys = AriesSystem.builder().system("default").routerSettings(fb -> fb
        .addHopListener((now, p, router, port, vc, hop) -> hops.add(now + " " + p.sourceNode() + ">"
            + p.destinationNode() + " " + p.kind() + " tag " + p.tag() + " @" + router + ":" + port + " vc" + vc))
        .observeDeliveries((now, p, nonMinimal) -> deliveries.add(now + " " + p.kind() + " tag " + p.tag())))
        .build();
    Outcome listened = run(sys);
    Outcome plain = run(AriesSystem.builder().system("default").build());

    assertThat(sys.packetPool()).as("the NICs' shared pool").isPresent();
    long[] r = listened.allocatedAfterRounds();
    assertThat(r[0]).as("packets and payloads made in round 1").isPositive();
    assertThat(r[1]).as("made by the end of round 2").isEqualTo(r[0]);
    assertThat(listened.events()).isEqualTo(plain.events());
    assertThat(Arrays.mismatch(listened.target(), plain.target())).isEqualTo(-1);
    assertThat(hops).hasSizeGreaterThan(deliveries.size()); // several hops a packet from node 0 to the last node
    assertThat(deliveries).isNotEmpty();
  }

  private static Outcome run(AriesSystem sys) {
    Node a = sys.node(0);
    Node b = sys.node(sys.nodeCount() - 1);
    int ptag = NicConfig.defaults().protectionTag();
    int pkey = NicConfig.defaults().protectionKey();
    MemoryDomainDescriptor local = a.nic().register(MemoryRegistration.of(BASE, BYTES, ptag, pkey));
    MemoryDomainDescriptor remote = b.nic().register(MemoryRegistration.of(BASE, BYTES, ptag, pkey));
    List<String> events = new ArrayList<>();
    a.nic().completionListener(e -> events.add(text(e)));
    b.nic().completionListener(e -> events.add(text(e)));
    long[] allocated = new long[2];
    for (int round = 0; round < 2; round++) {
      long id = round * 100L;
      int o = round * 16 * 1024;
      // multi-packet PUTs and GETs, odd sizes, AMOs both kinds, and a request that faults at the target
      a.nic().post(Post.put(id + 1, local.mdh(), o, NetworkAddress.of(b.id(), remote.mdh(), o), 8 * 1024));
      // (a GET reads whole 4-byte words of remote memory [S5][S6a]: offset o + 3 was refused from stop 75 on)
      a.nic().post(Post.get(id + 2, local.mdh(), o + 8191, NetworkAddress.of(b.id(), remote.mdh(), o + 4), 4000));
      a.nic().post(Post.put(id + 3, local.mdh(), o + 100, NetworkAddress.of(b.id(), remote.mdh(), o + 12_345), 77));
      for (int k = 0; k < 8; k++) {
        a.nic().post(Post.amo(id + 10 + k, AmoOperation.of(AmoKind.IADD, k % 2 == 0, 64),
            NetworkAddress.of(b.id(), remote.mdh(), o + 14_000 + 8 * (k % 3)), k + 1, 0));
      }
      a.nic().post(Post.put(id + 30, local.mdh(), o, NetworkAddress.of(b.id(), remote.mdh() + 1, 0), 256));
      sys.loop().run();
      allocated[round] = sys.packetPool().map(p -> p.made() + p.arraysMade()).orElse(-1L);
    }
    // the nodes' physical memory where their page tables and registered pages lie (both systems place them alike),
    // through the CPU's view: PUT and GET data may sit in a host cache, not yet in memory
    byte[] src = new byte[PHYSICAL];
    byte[] dst = new byte[PHYSICAL];
    a.hostCache().cpuView().read(0, src, 0, PHYSICAL);
    b.hostCache().cpuView().read(0, dst, 0, PHYSICAL);
    return new Outcome(events, src, dst, allocated);
  }

  private static String text(CompletionEvent e) {
    return e.toString();
  }
}
