/**
 * Generators of aries-core values for property tests: {@link io.github.ariesmodel.testkit.gen.CoreGenerators}
 * (QuickTheories {@code Gen}s that shrink) and {@link io.github.ariesmodel.testkit.gen.CoreRandom} (factories over a
 * seeded {@link java.util.random.RandomGenerator}, for any other library). Both produce only valid values and bias
 * every bit field toward its edges: 0, 1, the maximum, the top bit alone and the value just below it.
 *
 * <p>With QuickTheories, inside a JUnit 5 test:
 *
 * <pre>{@code
 * import static org.quicktheories.QuickTheory.qt;
 * import static io.github.ariesmodel.testkit.gen.CoreGenerators.networkAddresses;
 *
 * @Test
 * void wireFormRoundTrips() {
 *   qt().withExamples(10_000).forAll(networkAddresses())
 *       .check(a -> NetworkAddress.fromWire(a.toWire()).equals(a));
 * }
 * }</pre>
 *
 * <p>With another library, wrap a {@code CoreRandom} factory in that library's "random value" hook; with a plain
 * loop, give it a seeded generator:
 *
 * <pre>{@code
 * RandomGenerator r = new SplittableRandom(20261129L);
 * for (int i = 0; i < 10_000; i++) {
 *   PageTableEntry e = CoreRandom.pageTableEntry(r);
 *   assertThat(PageTableEntry.unpack(e.pack())).isEqualTo(e);
 * }
 * }</pre>
 */
package io.github.ariesmodel.testkit.gen;
