/**
 * What a user implements to extend the fabric: {@link io.github.ariesmodel.network.spi.Topology} for a router graph
 * of their own, {@link io.github.ariesmodel.network.spi.RoutingAlgorithm} (made by a named
 * {@link io.github.ariesmodel.network.spi.RoutingProvider}) for a routing; {@link
 * io.github.ariesmodel.network.spi.HopListener} to watch every hop a packet takes.
 */
package io.github.ariesmodel.network.spi;
