package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.nic.NicStatistics;
import io.github.ariesmodel.system.mpi.MpiJob;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AriesSystemTest {

  @Test
  void nodesAreBuiltOnlyWhenTouched() {
    AriesSystem full = AriesSystem.builder().preset(SystemPreset.FULL).build();
    assertThat(full.nodeCount()).isEqualTo(92_544);
    assertThat(full.builtNodes()).isZero();
    full.node(92_543);
    assertThat(full.builtNodes()).isEqualTo(1);
    assertThat(full.node(92_543).translation()).isInstanceOf(Iommu.class);
    assertThatThrownBy(() -> full.node(92_544)).hasMessageContaining("node id must be in [0, 92543] but was 92544");
  }

  @Test
  void aUsersFabricAndTranslatorAreUsedThroughThePorts() {
    List<Integer> translatorsMade = new ArrayList<>();
    AriesSystem sys = AriesSystem.builder().system("default")
        .fabric((topology, clock) -> new IdealFabric(clock, topology.nodeCount(), 1_000, 10e9))
        .translator((node, memory, clock) -> {
          translatorsMade.add(node);
          return new FlatTranslation(memory, clock, 0);
        })
        .build();
    assertThat(sys.routerFabric()).isEmpty();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 200).build();
    Symmetric word = job.allocate(8);
    long[] seen = {-1};
    job.run(pe -> {
      if (pe.myPe() == 1) {
        pe.putLong(word, 0, 77, 0);
        pe.quiet();
      }
      pe.barrierAll();
      if (pe.myPe() == 0) {
        seen[0] = pe.localLong(word, 0);
      }
    });
    assertThat(seen[0]).isEqualTo(77);
    assertThat(translatorsMade).containsExactly(0, 200);
    assertThat(((IdealFabric) sys.fabric()).delivered()).isPositive();
  }

  /**
   * A user's translation that answers OK with no contiguous bytes is named when a PE reads its own memory; the read's
   * walk over the range used to stay where it was for ever (a spin, not a simulated deadlock).
   */
  @Test
  @org.junit.jupiter.api.Timeout(60)
  void aTranslationThatSucceedsWithNoBytesIsNamedInsteadOfSpinning() {
    class NoBytes implements io.github.ariesmodel.core.spi.AddressTranslation {
      final FlatTranslation inner;

      NoBytes(FlatTranslation inner) {
        this.inner = inner;
      }

      @Override
      public io.github.ariesmodel.core.MemoryDomainDescriptor register(io.github.ariesmodel.core.MemoryRegistration r) {
        return inner.register(r);
      }

      @Override
      public void deregister(int mdh) {
        inner.deregister(mdh);
      }

      @Override
      public java.util.Optional<io.github.ariesmodel.core.MemoryDomainDescriptor> descriptor(int mdh) {
        return inner.descriptor(mdh);
      }

      @Override
      public void translate(io.github.ariesmodel.core.spi.TranslationClient client, int mdh, long offset, int length,
          io.github.ariesmodel.core.AccessKind access, int tag, int key,
          io.github.ariesmodel.core.spi.TranslationListener listener, Object ref, long arg) {
        inner.translate(client, mdh, offset, length, access, tag, key, listener, ref, arg);
      }

      @Override
      public TranslationResult translateNow(int mdh, long offset, int length,
          io.github.ariesmodel.core.AccessKind access, int tag, int key) {
        TranslationResult r = inner.translateNow(mdh, offset, length, access, tag, key);
        return r.ok() ? new TranslationResult(r.status(), r.physicalAddress(), 0) : r;
      }
    }
    AriesSystem sys = AriesSystem.builder().system("default")
        .translator((node, memory, clock) -> new NoBytes(new FlatTranslation(memory, clock, 0))).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 2).build();
    Symmetric word = job.allocate(8);
    assertThatThrownBy(() -> job.run(pe -> pe.localLong(word, 0)))
        .hasStackTraceContaining("translation " + NoBytes.class.getName() + " answered OK with 0 contiguous bytes"
            + " for mdh ")
        .hasStackTraceContaining(": a translation that succeeds must give at least 1");
  }

  @Test
  void aFabricOfTheWrongSizeIsRejected() {
    assertThatThrownBy(() -> AriesSystem.builder().system("default")
            .fabric((topology, clock) -> new IdealFabric(clock, 10, 0, 1e9)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fabric factory must return a fabric of 384 nodes but returned 10 nodes");
  }

  @Test
  void nodeMemoryBeyondAPhysicalAddressesReachIsRefusedWhereItIsSet() {
    assertThatThrownBy(() -> AriesSystem.builder().nodeMemoryBytes(1L << 60))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nodeMemoryBytes must be a positive multiple of 4096 up to 2^52 but was " + (1L << 60));
    assertThat(AriesSystem.builder().system("default").nodeMemoryBytes(1L << 52).build().node(0).memory().capacity())
        .isEqualTo(1L << 52);
  }

  @Test
  void describeListsTheInventory() {
    String d = AriesSystem.builder().system("two-groups").build().describe();
    assertThat(d).contains("groups 2, routers 192, nodes 768", "routing by-delivery-mode", "translation IOMMU");
  }

  @Test
  void conflictingSettingsAreRefusedAtBuildNamingBoth() {
    AriesSystem.FabricFactory ideal = (topology, clock) -> new IdealFabric(clock, topology.nodeCount(), 0, 1e9);
    assertThatThrownBy(() -> AriesSystem.builder().fabric(FabricKind.IDEAL).fabric(ideal).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fabric(IDEAL) cannot be combined with fabric(factory)");
    assertThatThrownBy(() -> AriesSystem.builder().routing("ugal").fabric(ideal).build())
        .hasMessageContaining("routing(\"ugal\") cannot be combined with fabric(factory)");
    assertThatThrownBy(() -> AriesSystem.builder().fabric(FabricKind.IDEAL).routing("minimal").build())
        .hasMessageContaining("routing(\"minimal\") cannot be combined with fabric(IDEAL)");
    assertThatThrownBy(() -> AriesSystem.builder().fabric(FabricKind.IDEAL).routerSettings(b -> b.vcs(4)).build())
        .hasMessageContaining("routerSettings(...) cannot be combined with fabric(IDEAL)");
    assertThatThrownBy(() -> AriesSystem.builder().idealLatencyPs(5).build())
        .hasMessageContaining("idealLatencyPs(5) cannot be combined with fabric(ROUTERS)");
    assertThatThrownBy(() -> AriesSystem.builder().translator(TranslatorKind.FLAT)
            .iommu(io.github.ariesmodel.iommu.IommuConfig.defaults()).build())
        .hasMessageContaining("iommu(config) cannot be combined with translator(FLAT)");
    assertThatThrownBy(() -> AriesSystem.builder().flatLatencyPs(3).build())
        .hasMessageContaining("flatLatencyPs(3) cannot be combined with translator(IOMMU)");
    // a latency that overflows the clock once an event adds it (the library fuzz run's Long.MAX_VALUE)
    assertThatThrownBy(() -> AriesSystem.builder().idealLatencyPs(Long.MAX_VALUE))
        .hasMessage("idealLatencyPs must be in [0, 1e9] but was " + Long.MAX_VALUE);
    assertThatThrownBy(() -> AriesSystem.builder().flatLatencyPs(1_000_000_001L))
        .hasMessage("flatLatencyPs must be in [0, 1e9] but was 1000000001");
    assertThatThrownBy(() -> AriesSystem.builder().translator(TranslatorKind.FLAT)
            .translator((node, memory, clock) -> new FlatTranslation(memory, clock, 0)).build())
        .hasMessageContaining("translator(FLAT) cannot be combined with translator(factory)");
  }

  @Test
  void settingsThatFitTheirAdaptersStillBuild() {
    assertThat(AriesSystem.builder().fabric(FabricKind.IDEAL).routing(AriesSystem.Builder.BY_DELIVERY_MODE)
        .idealLatencyPs(100).translator(TranslatorKind.FLAT).flatLatencyPs(10).build().routingName())
        .isEqualTo("ideal");
    assertThat(AriesSystem.builder().routing("ugal").routerSettings(b -> b.vcs(4)).build().routingName())
        .isEqualTo("ugal");
    assertThat(AriesSystem.builder()
        .fabric((topology, clock) -> new IdealFabric(clock, topology.nodeCount(), 0, 1e9)).build().routingName())
        .isEqualTo("custom");
  }

  @Test
  void anUnknownSystemNameListsThePresetsAndTheTopologyKinds() {
    assertThatThrownBy(() -> AriesSystem.builder().system("two-group"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("system must be a preset (default, ")
        .hasMessageContaining("two-groups")
        .hasMessageContaining("topology kind must be canonical, aries")
        .hasMessageContaining("\"two-group\"");
  }

  @Test
  void anUnknownRoutingNameListsByDeliveryModeToo() {
    assertThatThrownBy(() -> AriesSystem.builder().routing("teleport").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("routing must be one of [minimal")
        .hasMessageContaining("by-delivery-mode")
        .hasMessageContaining("\"teleport\"");
  }

  /** An ideal fabric that refuses every packet after its first {@code accept} and never calls injectionReady. */
  private static final class Stingy extends DelegatingFabric {
    private int accept;

    Stingy(IdealFabric inner, int accept) {
      super(inner);
      this.accept = accept;
    }

    @Override
    public void attachOnDemand(java.util.function.IntConsumer attacher) {
      inner.attachOnDemand(attacher);
    }

    @Override
    public boolean inject(Packet packet) {
      return accept-- > 0 && inner.inject(packet);
    }
  }

  /**
   * A user fabric that refuses an injection and never signals room again leaves the NIC holding the packet; the job
   * waiting for it is reported deadlocked, and the report now says where the packets are (it said only "deadlocked").
   */
  @Test
  void aFabricThatNeverSignalsRoomIsNamedInTheDeadlocksReport() {
    AriesSystem shmem = AriesSystem.builder().system("default")
        .fabric((topology, clock) -> new Stingy(new IdealFabric(clock, topology.nodeCount(), 1_000, 10e9), 0))
        .build();
    ShmemJob job = ShmemJob.builder(shmem).nodes(0, 7).build();
    Symmetric word = job.allocate(8);
    assertThatThrownBy(() -> job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putLong(word, 0, 5, 1);
        pe.quiet();
      }
    })).hasMessageStartingWith("SHMEM program deadlocked: 1 PEs still waiting, e.g. pe0; 1 NIC holds 1 packets the"
        + " fabric refused and has not taken since (node 0's first): a fabric must call injectionReady once it has"
        + " room again");
    assertThat(shmem.node(0).nic().packetsHeldForFabric()).isEqualTo(1);

    AriesSystem mpi = AriesSystem.builder().system("default")
        .fabric((topology, clock) -> new Stingy(new IdealFabric(clock, topology.nodeCount(), 1_000, 10e9), 0))
        .build();
    MpiJob ranks = MpiJob.builder(mpi).nodes(0, 7).build();
    assertThatThrownBy(() -> ranks.run(r -> r.barrier(r.world())))
        .hasMessageStartingWith("MPI program deadlocked: 2 ranks still waiting (")
        .hasMessageContaining(" packets the fabric refused and has not taken since (node ");

    AriesSystem fine = AriesSystem.builder().system("default")
        .fabric((topology, clock) -> new IdealFabric(clock, topology.nodeCount(), 1_000, 10e9)).build();
    assertThat(fine.refusedInjectionsNote()).isEmpty();
  }

  /**
   * Found by stop 64's walk through the library as a new user: a routing set in routerSettings was overridden by the
   * system's (its javadoc said the settings came after), a user's routing could reach an engine with threads only
   * through ServiceLoader, and a snapshot of a NIC's statistics was the live counters.
   */
  @Test
  void routerSettingsRoutingWinsAProviderRunsOnThreadsAndNicStatisticsAreASnapshot() {
    AriesSystem valiant = AriesSystem.builder().system("canonical:p=2,a=4,h=2").seed(3)
        .routerSettings(rb -> rb.routing("valiant")).build();
    assertThat(valiant.routingName()).isEqualTo("valiant");
    assertThat(valiant.routerFabric().orElseThrow().routingName()).isEqualTo("valiant");

    io.github.ariesmodel.network.spi.RoutingProvider minimalAgain = new io.github.ariesmodel.network.spi
        .RoutingProvider() {
      @Override
      public String name() {
        return "my-minimal";
      }

      @Override
      public String description() {
        return "minimal, made by a user's provider";
      }

      @Override
      public io.github.ariesmodel.network.spi.RoutingAlgorithm create(
          io.github.ariesmodel.network.spi.Topology topology, long seed) {
        return io.github.ariesmodel.network.Routings.create("minimal", topology, seed);
      }
    };
    AriesSystem threaded = AriesSystem.builder().system("canonical:p=2,a=4,h=2").seed(3).threads(2)
        .routing(minimalAgain).build();
    assertThat(threaded.routingName()).isEqualTo("my-minimal");
    ShmemJob job = ShmemJob.builder(threaded).nodes(0, threaded.nodeCount() - 1).build();
    Symmetric word = job.allocate(8);
    NicStatistics before = threaded.node(0).nicStatistics();
    long[] seen = {-1};
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putLong(word, 0, 9, 1);
        pe.quiet();
      }
      pe.barrierAll();
      if (pe.myPe() == 1) {
        seen[0] = pe.localLong(word, 0);
      }
    });
    assertThat(seen[0]).isEqualTo(9);
    NicStatistics after = threaded.node(0).nicStatistics();
    assertThat(after.transactionsCompleted()).isGreaterThan(before.transactionsCompleted());
    assertThat(before.transactionsCompleted()).isZero();
  }
}
