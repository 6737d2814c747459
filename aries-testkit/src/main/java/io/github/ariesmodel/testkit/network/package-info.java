/** Test support for routing algorithms: the {@link io.github.ariesmodel.testkit.network.RoutingContract}. */
package io.github.ariesmodel.testkit.network;
