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
   * Makes an instance for one fabric, or for one dragonfly group of a fabric on the partitioned engine, which calls
   * this once per group. The instances of one fabric then run on different threads at once, so they must share no
   * mutable state: this method must not reset or hand out anything static (a counter, a random stream, a table) that
   * the instances write while routing. See {@link RoutingAlgorithm}.
   *
   * @param topology the topology it will route on
   * @param seed seed for every random choice it makes: the fabric's own seed when the provider is given to {@code
   *     RouterFabric.Builder.routing(RoutingProvider)} or found by name (on the engine, one derived from it for each
   *     group)
   * @return a new algorithm, sharing no mutable state with any other
   */
  RoutingAlgorithm create(Topology topology, long seed);
}
