/**
 * The Aries dragonfly fabric: topologies ({@link io.github.ariesmodel.network.Dragonfly},
 * {@link io.github.ariesmodel.network.Topologies}), the packet-level router fabric implementing core's Fabric port
 * ({@link io.github.ariesmodel.network.RouterFabric}) and routings by name
 * ({@link io.github.ariesmodel.network.Routings}).
 */
package io.github.ariesmodel.network;
