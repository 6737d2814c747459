/**
 * Adapters of the {@link io.github.ariesmodel.core.spi.HostCache} port: a node's coherent last-level cache
 * ({@link io.github.ariesmodel.core.cache.SetAssociativeHostCache}, configured by {@link
 * io.github.ariesmodel.core.cache.HostCacheConfig}) and the pass-through "no cache" adapter.
 */
package io.github.ariesmodel.core.cache;
