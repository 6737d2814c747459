/**
 * Fakes for the ports of aries-core, for testing one component at a time without the rest of the model.
 *
 * <ul>
 *   <li>{@link io.github.ariesmodel.testkit.fake.ManualScheduler}: a clock moved by hand; {@code advanceTo} and
 *       {@code advanceBy} run the events that fall due.
 *   <li>{@link io.github.ariesmodel.testkit.fake.RecordingFabric}: records injected packets and delivers them only
 *       when the test says so (or refuses injections to test back-pressure).
 *   <li>{@link io.github.ariesmodel.testkit.fake.ReorderingFabric}: delivers every packet after a seeded random
 *       delay, so multi-packet transfers arrive out of order.
 *   <li>{@link io.github.ariesmodel.testkit.fake.RecordingEndpoint} and
 *       {@link io.github.ariesmodel.testkit.fake.RecordingTranslationListener}: record what a fabric delivers and what
 *       a translator answers.
 * </ul>
 *
 * <p>A test of a fabric adapter with a hand-driven clock:
 *
 * <pre>{@code
 * ManualScheduler clock = new ManualScheduler();
 * ReorderingFabric fabric = new ReorderingFabric(clock, 2, 1_000, 0, 1L);
 * RecordingEndpoint node1 = new RecordingEndpoint();
 * fabric.attach(0, new RecordingEndpoint());
 * fabric.attach(1, node1);
 * fabric.inject(Packet.synthetic(0, 1, 7, DeliveryMode.IN_ORDER, 64));
 * clock.advanceBy(999);
 * assertThat(node1.deliveries()).isEmpty();
 * clock.advanceBy(1);
 * assertThat(node1.packets()).extracting(Packet::tag).containsExactly(7);
 * }</pre>
 *
 * <p>The fakes allocate freely and are meant for tests, not for large simulations.
 */
package io.github.ariesmodel.testkit.fake;
