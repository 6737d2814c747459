/** Synthetic traffic on the router fabric: patterns, Bernoulli injection, measurement windows, statistics. */
package io.github.ariesmodel.network.traffic;
