package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.IdealFabric;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The collective engine: trees over several NICs, the results, the timing of one more level, faults and refusals. */
class CollectiveEngineTest {

  private static final long FABRIC_PS = 300_000;

  /** A cluster whose node i's channel 0 has one PE child (index 0) and the given child nodes after it. */
  private static final class Tree {
    final Cluster c;
    final int[] parent;
    final MemoryDomainDescriptor[] buffers;
    final int[] cq;

    Tree(int[] parent) {
      this.parent = parent;
      int n = parent.length;
      c = new Cluster(n, NicConfig.defaults(), loop -> new IdealFabric(loop, n, FABRIC_PS, Double.POSITIVE_INFINITY),
          (m, l) -> new FlatTranslation(m, l, 0));
      buffers = new MemoryDomainDescriptor[n];
      cq = new int[n];
      List<List<CeChild>> kids = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        kids.add(new ArrayList<>(List.of(CeChild.pe())));
      }
      int[] indexAtParent = new int[n];
      for (int i = 0; i < n; i++) {
        if (parent[i] >= 0) {
          indexAtParent[i] = kids.get(parent[i]).size();
          kids.get(parent[i]).add(CeChild.channel(i, 0));
        }
      }
      for (int i = 0; i < n; i++) {
        assertThat(c.nics[i].createCollectiveChannel()).isZero();
        CeParent p = parent[i] < 0 ? null : new CeParent(parent[i], 0, indexAtParent[i]);
        c.nics[i].configureCollectiveChannel(0, CeChannelConfig.of(kids.get(i), p));
        buffers[i] = c.register(i, 4096);
        cq[i] = c.nics[i].createCompletionQueue(64).handle();
      }
    }

    void post(int node, CeOperation op, long a, long b, long id) {
      CePost p = CePost.of(node, 0, 0, op, a, id, buffers[node].mdh(), 64, cq[node]);
      c.nics[node].postCollective(op.indexed() ? p.withSecondOperand(b) : p);
    }

    CeResult result(int node) {
      return c.nics[node].collectiveResult(buffers[node].mdh(), 64);
    }

    CompletionEvent event(int node) {
      List<CompletionEvent> e = c.events(node);
      assertThat(e).hasSize(1);
      return e.get(0);
    }
  }

  /** Node 0 the root, 1-3 its children, 4-12 theirs: a radix-3 tree of 13 nodes. */
  private static int[] radix3() {
    int[] p = new int[13];
    p[0] = -1;
    for (int i = 1; i < 13; i++) {
      p[i] = (i - 1) / 3;
    }
    return p;
  }

  @Test
  void everyProcessOfATreeGetsTheSumOfAllContributions() {
    Tree t = new Tree(radix3());
    for (int i = 0; i < 13; i++) {
      t.post(i, CeOperation.IADD, 100 + i, 0, 7);
    }
    t.c.run();
    long sum = 0;
    for (int i = 0; i < 13; i++) {
      sum += 100 + i;
    }
    for (int i = 0; i < 13; i++) {
      CeResult r = t.result(i);
      assertThat(r).isEqualTo(new CeResult(Status.OK, 0, 7, sum, 0));
      CompletionEvent e = t.event(i);
      assertThat(e.type()).isEqualTo(CompletionType.GLOBAL);
      assertThat(e.status()).isEqualTo(Status.OK);
      assertThat(e.userData()).isEqualTo(sum);
      assertThat(e.postId()).isEqualTo(i);
    }
    assertThat(t.c.nics[0].statistics().collectiveReductions()).isEqualTo(1);
    long sent = 0;
    for (Nic n : t.c.nics) {
      sent += n.statistics().collectivePacketsSent();
      assertThat(n.statistics().collectivePacketsDropped()).isZero();
    }
    assertThat(sent).as("12 contributions up, 12 results down").isEqualTo(24);
    assertThat(t.c.nics[0].statistics().toString()).endsWith(
        ", ce=1 posts 3 pkts 1 roots 0 faults 0 dropped}"); // the root sends a result to each of its 3 children
    assertThat(new Cluster(1, NicConfig.defaults()).nics[0].statistics().toString()).doesNotContain("ce=");
  }

  /** The 24-byte result a channel writes back is a host write its NIC's probes see, before the GLOBAL event. */
  @Test
  void theResultsWriteIsSeenByTheNicsHostWriteProbes() {
    Tree t = new Tree(new int[] {-1, 0});
    java.util.List<long[]> seen = new ArrayList<>();
    t.c.nics[1].addHostWriteProbe((visible, pa, length) ->
        seen.add(new long[] {t.c.loop.now(), visible, pa, length}));
    t.post(0, CeOperation.IADD, 1, 0, 3);
    t.post(1, CeOperation.IADD, 2, 0, 3);
    t.c.run();
    long pa = t.c.translation[1].translateNow(t.buffers[1].mdh(), 64, CePost.RESULT_BYTES,
        io.github.ariesmodel.core.AccessKind.READ, Cluster.PTAG, Cluster.PKEY).physicalAddress();
    // the result, then the GLOBAL event's CQ entry (the tree's queue)
    assertThat(seen).hasSize(2);
    assertThat(seen.get(0)[2]).isEqualTo(pa);
    assertThat(seen.get(0)[3]).isEqualTo(CePost.RESULT_BYTES);
    assertThat(seen.get(0)[1]).isGreaterThan(seen.get(0)[0]).isLessThanOrEqualTo(t.event(1).timePs());
    assertThat(t.result(1).result1()).isEqualTo(3);
  }

  @Test
  void minimumWithTheLowestOrGreatestIndexAmongTies() {
    for (CeOperation op : List.of(CeOperation.IMIN_LIDX, CeOperation.IMIN_GIDX)) {
      Tree t = new Tree(radix3());
      for (int i = 0; i < 13; i++) {
        t.post(i, op, i % 4 == 1 ? -5 : i, 1000 + i, 1);
      }
      t.c.run();
      long index = op == CeOperation.IMIN_LIDX ? 1001 : 1009;
      for (int i = 0; i < 13; i++) {
        assertThat(t.result(i)).isEqualTo(new CeResult(Status.OK, 0, 1, -5, index));
      }
    }
  }

  @Test
  void oneMoreLevelAddsOneHopUpOfPipelinesWireAndCombination() {
    NicTiming tm = NicConfig.defaults().timing();
    long level = tm.cyclePs() * (tm.txPipelineCycles() + tm.rxPipelineCycles() + tm.amoUnitCycles()) + FABRIC_PS;
    long[] rootDone = new long[4];
    for (int depth = 1; depth <= 3; depth++) {
      int[] chain = new int[depth];
      for (int i = 0; i < depth; i++) {
        chain[i] = i - 1;
      }
      Tree t = new Tree(chain);
      for (int i = 0; i < depth; i++) {
        t.post(i, CeOperation.AND, -1L, 0, 0);
      }
      t.c.run();
      rootDone[depth] = t.event(0).timePs();
    }
    assertThat(rootDone[2] - rootDone[1]).isEqualTo(level);
    assertThat(rootDone[3] - rootDone[2]).isEqualTo(level);
  }

  @Test
  void disagreeingReductionIdsFailTheWholeTreeAndWriteOnlyResultBuffers() {
    Tree t = new Tree(radix3());
    for (int i = 0; i < 13; i++) {
      t.post(i, CeOperation.IADD, i, 0, i == 11 ? 8 : 7);
    }
    t.c.write(5, t.buffers[5].mdh(), 0, new byte[] {1, 2, 3});
    t.c.run();
    for (int i = 0; i < 13; i++) {
      assertThat(t.result(i).status()).isEqualTo(Status.ILLEGAL_OPERATION);
      assertThat(t.event(i).status()).isEqualTo(Status.ILLEGAL_OPERATION);
    }
    assertThat(t.c.read(5, t.buffers[5].mdh(), 0, 3)).containsExactly(1, 2, 3);
    assertThat(t.c.read(5, t.buffers[5].mdh(), 88, 8)).containsOnly(0);
  }

  @Test
  void aSecondPostOfOneChildIsAnErrorEventAndTheReductionStillCompletes() {
    Tree t = new Tree(new int[] {-1, 0});
    t.post(0, CeOperation.OR, 1, 0, 0);
    t.post(0, CeOperation.OR, 2, 0, 0);
    t.c.run();
    assertThat(t.c.events(0)).extracting(CompletionEvent::status).containsExactly(Status.ILLEGAL_OPERATION);
    t.post(1, CeOperation.OR, 4, 0, 0);
    t.c.run();
    assertThat(t.result(0)).isEqualTo(new CeResult(Status.OK, 0, 0, 5, 0));
    assertThat(t.result(1)).isEqualTo(new CeResult(Status.OK, 0, 0, 5, 0));
  }

  @Test
  void aContributionFromAChannelThatIsNotTheNamedChildIsDropped() {
    Cluster c = new Cluster(3, NicConfig.defaults());
    for (Nic n : c.nics) {
      n.createCollectiveChannel();
    }
    c.nics[0].configureCollectiveChannel(0, CeChannelConfig.of(List.of(CeChild.pe(), CeChild.channel(2, 0)), null));
    c.nics[1].configureCollectiveChannel(0, CeChannelConfig.of(List.of(CeChild.pe()), new CeParent(0, 0, 1)));
    MemoryDomainDescriptor b = c.register(1, 4096);
    c.nics[1].postCollective(CePost.of(1, 0, 0, CeOperation.AND, 1, 0, b.mdh(), 0, Post.NO_CQ));
    c.run();
    assertThat(c.nics[0].statistics().collectivePacketsDropped()).isEqualTo(1);
    assertThat(c.events).isEmpty();
  }

  @Test
  void severalProcessesOfOneNodeReduceWithoutTheNetwork() {
    Cluster c = new Cluster(1, NicConfig.defaults());
    Nic nic = c.nics[0];
    nic.configureCollectiveChannel(nic.createCollectiveChannel(),
        CeChannelConfig.of(List.of(CeChild.pe(), CeChild.pe(), CeChild.pe()), null));
    MemoryDomainDescriptor b = c.register(0, 4096);
    double[] v = {1.5, -0.25, 8};
    for (int i = 0; i < 3; i++) {
      nic.postCollective(CePost.of(i, 0, i, CeOperation.FPADD, Double.doubleToLongBits(v[i]), 3, b.mdh(), 32L * i,
          Post.NO_CQ));
    }
    c.run();
    for (int i = 0; i < 3; i++) {
      assertThat(nic.collectiveResult(b.mdh(), 32L * i).value1AsDouble()).isEqualTo(9.25);
    }
    assertThat(nic.statistics().collectivePacketsSent()).isZero();
    assertThat(c.events).hasSize(3);
  }

  @Test
  void floatingPointSumsCombineInChildIndexOrderWhateverTheArrivalOrder() {
    Cluster c = new Cluster(1, NicConfig.defaults());
    Nic nic = c.nics[0];
    nic.configureCollectiveChannel(nic.createCollectiveChannel(),
        CeChannelConfig.of(List.of(CeChild.pe(), CeChild.pe(), CeChild.pe()), null));
    MemoryDomainDescriptor b = c.register(0, 4096);
    double tiny = Math.scalb(1.0, -53);
    double[] v = {1.0, tiny, tiny};
    for (int i = 2; i >= 0; i--) { // the last child posts first
      nic.postCollective(CePost.of(i, 0, i, CeOperation.FPADD, Double.doubleToLongBits(v[i]), 0, b.mdh(), 32L * i,
          Post.NO_CQ));
    }
    c.run();
    // (1 + 2^-53) + 2^-53 rounds to 1 twice; the other order would give 1 + 2^-52
    CeResult r = nic.collectiveResult(b.mdh(), 0);
    assertThat(r.value1AsDouble()).isEqualTo(1.0);
    assertThat(r.fpe()).isEqualTo(CeFpe.INEXACT);
  }

  @Test
  void refusalsNameWhatWasWrong() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    Nic nic = c.nics[0];
    for (int i = 0; i < 4; i++) {
      assertThat(nic.createCollectiveChannel()).isEqualTo(i);
    }
    assertThatThrownBy(nic::createCollectiveChannel).isInstanceOf(IllegalStateException.class)
        .hasMessage("node 0 has no free collective-engine channel: all 4 are in use");
    List<CeChild> many = new ArrayList<>();
    for (int i = 0; i < 33; i++) {
      many.add(CeChild.pe());
    }
    assertThatThrownBy(() -> CeChannelConfig.of(many, null)).hasMessage(
        "children must hold 1 to 32 children but held 33");
    MemoryDomainDescriptor b = c.register(0, 4096);
    assertThatThrownBy(() -> nic.postCollective(CePost.of(1, 1, 0, CeOperation.AND, 1, 0, b.mdh(), 0, Post.NO_CQ)))
        .hasMessage("post.channel 1 of node 0 is not configured");
    nic.configureCollectiveChannel(1, CeChannelConfig.of(List.of(CeChild.pe(), CeChild.channel(1, 0)), null));
    assertThatThrownBy(() -> nic.postCollective(CePost.of(1, 1, 1, CeOperation.AND, 1, 0, b.mdh(), 0, Post.NO_CQ)))
        .hasMessage("post.child must be the index of a PE child of channel 1 (it has 2 children) but was 1");
    assertThatThrownBy(() -> nic.postCollective(CePost.of(1, 1, 0, CeOperation.AND, 1, 0, b.mdh(), 8, Post.NO_CQ)))
        .hasMessageStartingWith("post.resultOffset must be a multiple of 32");
    assertThatThrownBy(() -> nic.postCollective(CePost.of(1, 1, 0, CeOperation.AND, 1, 0, b.mdh(), 4096,
        Post.NO_CQ))).hasMessage("post.resultOffset + 24 must be <= 4096 (the registration's length) but was 4096 + 24");
    assertThatThrownBy(() -> nic.configureCollectiveChannel(2,
        CeChannelConfig.of(List.of(CeChild.channel(5, 0)), null)))
        .hasMessage("config.children[0].node must be in [0, 1] but was 5");
    assertThatThrownBy(() -> nic.configureCollectiveChannel(2,
        CeChannelConfig.of(List.of(CeChild.pe()), new CeParent(0, 2, 0))))
        .hasMessage("config.parent must not be the channel itself (node 0, channel 2)");
    assertThat(nic.statistics().collectivePosts()).isZero();
  }
}
