package org.example.routing;

import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.RoutingProvider;
import io.github.ariesmodel.network.spi.Topology;

/** Registers {@link RandomMinimalRouting} under the name {@code random-minimal} (see META-INF/services). */
public final class RandomMinimalProvider implements RoutingProvider {

  @Override
  public String name() {
    return "random-minimal";
  }

  @Override
  public String description() {
    return "minimal, a per-packet hash over minimal paths, least congested next port";
  }

  @Override
  public RoutingAlgorithm create(Topology topology, long seed) {
    return new RandomMinimalRouting(topology, seed);
  }
}
