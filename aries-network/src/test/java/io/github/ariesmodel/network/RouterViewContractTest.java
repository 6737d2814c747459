package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.RoutingProvider;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import org.junit.jupiter.api.Test;

/**
 * The fabric's view keeps {@link RouterView#congestion}'s contract (the port's queue plus the bytes its downstream
 * buffers hold, as its credits say) at every routing decision of a congested run: adaptive routing's load estimate
 * reads the downstream part as congestion less queue instead of summing every VC's credits.
 */
class RouterViewContractTest {

  /** Adaptive routing, checking the view at every port of the router before each decision. */
  private static final class CheckingRouting implements RoutingAlgorithm {
    final RoutingAlgorithm inner;
    long checked;
    long busyPorts;
    String firstMismatch;

    CheckingRouting(RoutingAlgorithm inner) {
      this.inner = inner;
    }

    @Override
    public void route(Packet packet, RouterView view, Candidates candidates) {
      Topology t = view.topology();
      for (int port = 0; port < t.portCount(); port++) {
        if (t.neighborRouter(view.router(), port) < 0) {
          continue;
        }
        long held = 0;
        for (int vc = 0; vc < view.vcCount(); vc++) {
          held += view.vcBufferBytes() - view.credits(port, vc);
        }
        long fromCongestion = view.congestion(port) - view.queuedBytes(port);
        if (held != fromCongestion && firstMismatch == null) {
          firstMismatch = "router " + view.router() + " port " + port + ": credits say " + held
              + " bytes held downstream, congestion less queue says " + fromCongestion;
        }
        if (held > 0) {
          busyPorts++;
        }
        checked++;
      }
      inner.route(packet, view, candidates);
    }

    @Override
    public int select(Packet packet, RouterView view, Candidates candidates) {
      return inner.select(packet, view, candidates);
    }

    @Override
    public int virtualChannelsNeeded() {
      return inner.virtualChannelsNeeded();
    }
  }

  @Test
  void congestionLessQueueIsWhatTheCreditsSayIsHeldDownstream() {
    CheckingRouting[] made = new CheckingRouting[1];
    RoutingProvider provider = new RoutingProvider() {
      @Override
      public String name() {
        return "checking-adaptive0";
      }

      @Override
      public RoutingAlgorithm create(Topology topology, long seed) {
        made[0] = new CheckingRouting(Routings.create("adaptive0", topology, seed));
        return made[0];
      }
    };
    TrafficResult r = TrafficExperiment.on(Topologies.canonicalSmall()).routing(provider)
        .pattern(TrafficPattern.ADVERSARIAL).load(0.9).seed(5).warmupPs(200_000).measurePs(1_000_000).run();
    CheckingRouting c = made[0];
    assertThat(c.firstMismatch).as("the first port whose view broke the contract").isNull();
    assertThat(r.measuredPackets()).isPositive();
    assertThat(c.checked).isGreaterThan(10_000);
    assertThat(c.busyPorts).as("ports checked while their downstream buffers held bytes").isGreaterThan(1_000);
  }
}
