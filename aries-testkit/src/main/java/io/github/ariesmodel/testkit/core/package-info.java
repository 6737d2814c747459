/**
 * Contract tests for the ports of aries-core, one abstract JUnit 5 class per port in the style of JCTools'
 * {@code QueueSanityTest}: extend the contract, say how to make your adapter, and the inherited tests check what
 * the port promises.
 *
 * <ul>
 *   <li>{@link io.github.ariesmodel.testkit.core.FabricContract}: {@code Fabric} and {@code FabricEndpoint}.
 *   <li>{@link io.github.ariesmodel.testkit.core.AddressTranslationContract}: {@code AddressTranslation}.
 *   <li>{@link io.github.ariesmodel.testkit.core.SchedulerContract}: {@code Scheduler}.
 *   <li>{@link io.github.ariesmodel.testkit.core.HostMemoryContract}: {@code HostMemory}.
 *   <li>{@link io.github.ariesmodel.testkit.core.HostCacheContract}: {@code HostCache}.
 * </ul>
 *
 * <p>Every adapter in the project passes them (see this package's tests); docs/testkit.md says what each checks.
 */
package io.github.ariesmodel.testkit.core;
