/**
 * The Aries NIC model (aries-facts §3, §5): {@link io.github.ariesmodel.nic.Nic} (one per node) with its host
 * interface after uGNI ({@link io.github.ariesmodel.nic.Post}, {@link io.github.ariesmodel.nic.CompletionQueue},
 * {@link io.github.ariesmodel.nic.CompletionListener}), its settings ({@link io.github.ariesmodel.nic.NicConfig},
 * {@link io.github.ariesmodel.nic.NicTiming}), counters ({@link io.github.ariesmodel.nic.NicStatistics}) and the AMO
 * unit's arithmetic ({@link io.github.ariesmodel.nic.AmoArithmetic}). Depends on aries-core only.
 */
package io.github.ariesmodel.nic;
