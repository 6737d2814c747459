package io.github.ariesmodel.testkit.core;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.network.RouterFabric;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.testkit.fake.RecordingFabric;
import io.github.ariesmodel.testkit.fake.ReorderingFabric;
import org.junit.jupiter.api.Nested;

/** Every fabric in the project keeps the fabric contract: the router fabric, the ideal fabric and the fakes. */
class BuiltInFabricContractTest {

  /** The router fabric on the small canonical dragonfly (p=2, a=4, h=2: 72 nodes) with one routing for all. */
  abstract static class RouterFabricContract extends FabricContract<RouterFabric> {
    abstract String routing();

    @Override
    protected RouterFabric create(Scheduler scheduler, long seed) {
      return RouterFabric.builder(Topologies.canonicalSmall(), scheduler).routing(routing()).seed(seed).build();
    }

    @Override
    protected boolean refusesWhenFull() {
      return true;
    }
  }

  /** Each packet routed by its delivery mode, as a system of NICs is: IN_ORDER packets of a pair keep their order. */
  @Nested
  class RoutersByDeliveryMode extends FabricContract<RouterFabric> {
    @Override
    protected RouterFabric create(Scheduler scheduler, long seed) {
      return RouterFabric.builder(Topologies.canonicalSmall(), scheduler).routingByDeliveryMode().seed(seed).build();
    }

    @Override
    protected boolean refusesWhenFull() {
      return true;
    }

    @Override
    protected boolean keepsOrder(Packet earlier, Packet later) {
      return earlier.deliveryMode() == DeliveryMode.IN_ORDER && later.deliveryMode() == DeliveryMode.IN_ORDER
          && earlier.destinationNode() == later.destinationNode();
    }
  }

  @Nested
  class RoutersMinimal extends RouterFabricContract {
    @Override
    String routing() {
      return "minimal";
    }
  }

  @Nested
  class RoutersAdaptive0 extends RouterFabricContract {
    @Override
    String routing() {
      return "adaptive0";
    }
  }

  @Nested
  class RoutersAriesUgal extends FabricContract<RouterFabric> {
    @Override
    protected RouterFabric create(Scheduler scheduler, long seed) {
      return RouterFabric.builder(Topologies.ariesSmall(), scheduler).routing("ugal").seed(seed).build();
    }

    @Override
    protected boolean refusesWhenFull() {
      return true;
    }
  }

  /** The ideal fabric documents that packets of one source arrive in the order they were injected. */
  @Nested
  class Ideal extends FabricContract<IdealFabric> {
    @Override
    protected IdealFabric create(Scheduler scheduler, long seed) {
      return new IdealFabric(scheduler, 16, 700_000, 10.2e9);
    }

    @Override
    protected boolean keepsOrder(Packet earlier, Packet later) {
      return true;
    }
  }

  /** No latency, no serialization: delivery at the instant of injection, still after inject returns. */
  @Nested
  class IdealInstant extends FabricContract<IdealFabric> {
    @Override
    protected IdealFabric create(Scheduler scheduler, long seed) {
      return new IdealFabric(scheduler, 5, 0, Double.POSITIVE_INFINITY);
    }

    @Override
    protected boolean keepsOrder(Packet earlier, Packet later) {
      return true;
    }
  }

  @Nested
  class Reordering extends FabricContract<ReorderingFabric> {
    @Override
    protected ReorderingFabric create(Scheduler scheduler, long seed) {
      return new ReorderingFabric(scheduler, 12, 100_000, 50_000, seed);
    }
  }

  /** Without jitter the reordering fabric documents delivery in injection order. */
  @Nested
  class ReorderingWithoutJitter extends FabricContract<ReorderingFabric> {
    @Override
    protected ReorderingFabric create(Scheduler scheduler, long seed) {
      return new ReorderingFabric(scheduler, 12, 100_000, 0, seed);
    }

    @Override
    protected boolean keepsOrder(Packet earlier, Packet later) {
      return true;
    }
  }

  /**
   * The recording fake, driven as a test drives it: refuses its first injections, delivers what it holds oldest
   * first after each event, and signals every node ready when it has nothing left to deliver, until signalling no longer injects anything.
   */
  @Nested
  class Recording extends FabricContract<RecordingFabric> {
    @Override
    protected RecordingFabric create(Scheduler scheduler, long seed) {
      RecordingFabric f = new RecordingFabric(6, scheduler);
      f.refuseNext(3);
      return f;
    }

    @Override
    protected boolean refusesWhenFull() {
      return true;
    }

    @Override
    protected boolean keepsOrder(Packet earlier, Packet later) {
      return true;
    }

    @Override
    protected void drive(RecordingFabric fabric, DeterministicEventLoop loop) {
      int fruitless = 0;
      for (int round = 0; round < 1_000_000; round++) {
        if (loop.step()) {
          fabric.deliverAll();
          continue;
        }
        if (!fabric.pending().isEmpty()) {
          fabric.deliverAll();
          continue;
        }
        int before = fabric.injected().size();
        for (int n = 0; n < fabric.nodeCount(); n++) {
          fabric.signalInjectionReady(n);
        }
        // the fake refuses at most 3 injections, so 4 signals in a row that inject nothing mean the run is over
        fruitless = fabric.injected().size() == before && loop.pending() == 0 ? fruitless + 1 : 0;
        if (fruitless == 4) {
          return;
        }
      }
      throw new IllegalStateException("the recording fabric did not settle");
    }
  }
}
