/**
 * Adapters of the {@link io.github.ariesmodel.core.spi.HostCache} port: a node's coherent last-level cache
 * ({@link io.github.ariesmodel.core.cache.SetAssociativeHostCache}, configured by {@link
 * io.github.ariesmodel.core.cache.HostCacheConfig}). The pass-through "no cache" adapter is {@link
 * io.github.ariesmodel.core.spi.HostCache#none}.
 */
package io.github.ariesmodel.core.cache;
