package io.github.ariesmodel.network.spi;

/**
 * Makes a {@link RoutingAlgorithm} by name: how users register their own routing. List the implementing class in
 * {@code META-INF/services/io.github.ariesmodel.network.spi.RoutingProvider}; then
 * {@code Routings.create(name, topology, seed)} (and {@code ./aries traffic --routing name}) finds it.
 */
public interface RoutingProvider {

  /** @return the name the routing is chosen by, e.g. {@code ugal} */
  String name();

  /** @return one line describing the routing */
  default String description() {
    return name();
  }

  /**
   * Makes an instance for one fabric.
   *
   * @param topology the topology it will route on
   * @param seed seed for every random choice it makes: the fabric's own seed when the provider is given to {@code
   *     RouterFabric.Builder.routing(RoutingProvider)} or found by name
   * @return a new algorithm
   */
  RoutingAlgorithm create(Topology topology, long seed);
}
