package io.github.ariesmodel.testkit.network;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.DragonflyPaths;
import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.Topology;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Deliberately broken routings, and the one from issue 15 that used to mislead: the contract must catch the broken
 * ones and pass the honest one. The broken routings drain without loss or deadlock, so only the path checks can
 * catch them.
 */
class RoutingContractCatchesTest {

  /**
   * The routing of issue 15's user: Valiant that names its intermediate once, with {@code addNonMinimal} at the
   * source router, and then offers plain {@code add(port, vc)} candidates steered by the intermediate the fabric
   * reports. Before route state moved into the fabric, the plain candidates wiped the intermediate after one hop: the
   * packet went minimal and was still counted non-minimal. Now they keep it.
   */
  static final class ValiantAddingWithoutIntermediate implements RoutingAlgorithm {
    final Topology t;
    final DragonflyPaths paths;
    final SplittableRandom rnd;
    final int[] ports;

    ValiantAddingWithoutIntermediate(Topology t, long seed) {
      this.t = t;
      this.paths = new DragonflyPaths(t);
      this.rnd = new SplittableRandom(seed);
      this.ports = new int[t.maxMinimalPorts()];
    }

    @Override
    public void route(Packet p, RouterView view, Candidates c) {
      int dest = t.routerOfNode(p.destinationNode());
      int hash = DragonflyPaths.packetHash(p);
      if (p.hops() == 0) {
        int inter = paths.chooseIntermediate(view.router(), dest, rnd.nextLong() & Long.MAX_VALUE);
        int n = paths.pathPorts(view.router(), inter, dest, hash, ports);
        if (inter >= 0) {
          c.addNonMinimal(ports[hash % n], 0, 1, 0, inter);
        } else {
          c.add(ports[hash % n], 0);
        }
        return;
      }
      int n = paths.pathPorts(view.router(), view.intermediate(), dest, hash, ports);
      c.add(ports[hash % n], p.hops());
    }
  }

  /** Commits to an intermediate at the source router and then ignores it: counted non-minimal, routed minimally. */
  static final class ForgetfulValiant implements RoutingAlgorithm {
    final Topology t;
    final DragonflyPaths paths;
    final SplittableRandom rnd;
    final int[] ports;

    ForgetfulValiant(Topology t, long seed) {
      this.t = t;
      this.paths = new DragonflyPaths(t);
      this.rnd = new SplittableRandom(seed);
      this.ports = new int[t.maxMinimalPorts()];
    }

    @Override
    public void route(Packet p, RouterView view, Candidates c) {
      int dest = t.routerOfNode(p.destinationNode());
      int hash = DragonflyPaths.packetHash(p);
      int n = t.minimalPorts(view.router(), dest, hash, ports);
      int inter = p.hops() == 0 ? paths.chooseIntermediate(view.router(), dest, rnd.nextLong() & Long.MAX_VALUE) : -1;
      if (inter >= 0) {
        c.addNonMinimal(ports[hash % n], 0, 1, 0, inter);
      } else {
        c.add(ports[hash % n], p.hops());
      }
    }
  }

  /**
   * Takes a global link into a third group at the source router without saying so (plain {@code add}), then goes
   * minimally: a non-minimal path counted as minimal.
   */
  static final class HiddenDetour implements RoutingAlgorithm {
    final Topology t;
    final int[] ports;

    HiddenDetour(Topology t, long seed) {
      this.t = t;
      this.ports = new int[t.maxMinimalPorts()];
    }

    @Override
    public void route(Packet p, RouterView view, Candidates c) {
      int router = view.router();
      int dest = t.routerOfNode(p.destinationNode());
      if (p.hops() == 0) {
        int gs = t.groupOfRouter(router);
        int gd = t.groupOfRouter(dest);
        for (int port = 0; port < t.portCount(); port++) {
          int nr = t.neighborRouter(router, port);
          if (nr >= 0 && t.groupOfRouter(nr) != gs && t.groupOfRouter(nr) != gd) {
            c.add(port, 0);
            return;
          }
        }
      }
      int hash = DragonflyPaths.packetHash(p);
      int n = t.minimalPorts(router, dest, hash, ports);
      c.add(ports[hash % n], p.hops());
    }
  }

  /** Minimal with VC = hops, but states it needs only 2 VCs, so a fabric of 2 VCs would build and then fail. */
  static final class UnderstatedVirtualChannels implements RoutingAlgorithm {
    final Topology t;
    final int[] ports;

    UnderstatedVirtualChannels(Topology t, long seed) {
      this.t = t;
      this.ports = new int[t.maxMinimalPorts()];
    }

    @Override
    public void route(Packet p, RouterView view, Candidates c) {
      int dest = t.routerOfNode(p.destinationNode());
      t.minimalPorts(view.router(), dest, DragonflyPaths.packetHash(p), ports);
      c.add(ports[0], p.hops());
    }

    @Override
    public int virtualChannelsNeeded() {
      return 2;
    }
  }

  /**
   * Minimal routing whose choice among the minimal ports comes from a counter shared by all its instances, reset
   * when one is made (a "spreading table" a fabric starts afresh). On one thread its runs repeat; on the engine every
   * group has its own instance and the groups' threads draw from the counter at once, so the result depends on how
   * they interleave (stop 76's hunt: different results on 3 and 9 threads).
   */
  static final class SharedCounter implements RoutingAlgorithm {
    static int shared; // the flaw: state shared by every instance, every group's on the engine

    final Topology t;
    final int[] ports;

    SharedCounter(Topology t, long seed) {
      this.t = t;
      this.ports = new int[t.maxMinimalPorts()];
      shared = 0;
    }

    @Override
    public void route(Packet p, RouterView view, Candidates c) {
      int dest = t.routerOfNode(p.destinationNode());
      int n = t.minimalPorts(view.router(), dest, DragonflyPaths.packetHash(p), ports);
      for (int i = 0; i < n; i++) {
        c.add(ports[i], p.hops());
      }
    }

    @Override
    public int select(Packet p, RouterView view, Candidates c) {
      return (shared++ & Integer.MAX_VALUE) % c.size();
    }
  }

  /** The contract run on a routing made here (not registered by name). */
  private static RoutingContract contractFor(String name, java.util.function.BiFunction<Topology, Long,
      RoutingAlgorithm> factory) {
    return new RoutingContract() {
      @Override
      protected String routingName() {
        return name;
      }

      @Override
      protected RoutingAlgorithm create(Topology topology, long seed) {
        return factory.apply(topology, seed);
      }
    };
  }

  @Test
  void aValiantThatAddsCandidatesWithoutAnIntermediateAfterTheFirstHopNowKeepsItsIntermediate() {
    RoutingContract c = contractFor("valiant-adding-without-intermediate", ValiantAddingWithoutIntermediate::new);
    assertThatCode(c::nonMinimalAccountingMatchesThePathsTaken).doesNotThrowAnyException();
    assertThatCode(c::smallFabricsDrainWithoutLossDuplicatesOrDeadlock).doesNotThrowAnyException();
  }

  @Test
  void aValiantThatForgetsItsIntermediateIsCaught() {
    RoutingContract c = contractFor("forgetful-valiant", ForgetfulValiant::new);
    // the checks the contract had before do not see it ...
    assertThatCode(c::smallFabricsDrainWithoutLossDuplicatesOrDeadlock).doesNotThrowAnyException();
    // ... the path check does
    assertThatThrownBy(c::nonMinimalAccountingMatchesThePathsTaken).isInstanceOf(AssertionError.class)
        .hasMessageContaining("committed to intermediate").hasMessageContaining("but never reached it");
  }

  @Test
  void aDetourNotDeclaredAsNonMinimalIsCaught() {
    RoutingContract c = contractFor("hidden-detour", HiddenDetour::new);
    assertThatThrownBy(c::nonMinimalAccountingMatchesThePathsTaken).isInstanceOf(AssertionError.class)
        .hasMessageContaining("was counted minimal but its path").hasMessageContaining("passes through a third group");
  }

  @Test
  void aRoutingWhoseInstancesShareACounterIsCaught() {
    RoutingContract c = contractFor("shared-counter", SharedCounter::new);
    // the check on one thread does not see it ...
    assertThatCode(c::sameSeedSameRun).doesNotThrowAnyException();
    // ... the runs on a thread per group do
    assertThatThrownBy(c::sameRunOnOneThreadAsOnAThreadPerGroup).isInstanceOf(AssertionError.class)
        .hasMessageContaining("shared-counter on").hasMessageContaining("the groups' instances share no state");
  }

  @Test
  void anUnderstatedVirtualChannelNeedIsCaught() {
    RoutingContract c = contractFor("understated-vcs", UnderstatedVirtualChannels::new);
    assertThatThrownBy(c::aStatedVirtualChannelNeedCoversEveryRoute).isInstanceOf(AssertionError.class)
        .hasMessageContaining("against the 2 it states");
  }
}
