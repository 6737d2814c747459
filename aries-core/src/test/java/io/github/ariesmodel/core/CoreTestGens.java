package io.github.ariesmodel.core;

import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import org.quicktheories.core.Gen;

/**
 * Generators for aries-core's own tests. (aries-testkit publishes richer ones, but it depends on core, so core's
 * tests cannot use it.) Every field generator mixes uniform values with the field's edges: 0, 1, the maximum, the
 * top bit alone and the value just below it.
 */
public final class CoreTestGens {

  private CoreTestGens() {}

  /** Values of an unsigned field of {@code width} bits (1..63), biased toward its edges. */
  public static Gen<Long> bits(int width) {
    long max = (1L << width) - 1;
    long top = 1L << (width - 1);
    return longs().between(0, max).mix(arbitrary().pick(0L, 1L, max, top, top - 1), 30);
  }

  /** Ints of an unsigned field of {@code width} bits (1..31), biased toward its edges. */
  public static Gen<Integer> intBits(int width) {
    return bits(width).map(Long::intValue);
  }

  /** Valid node ids. */
  public static Gen<Integer> nodeIds() {
    return intBits(NetworkAddress.NODE_ID_BITS);
  }

  /** Valid MDHs. */
  public static Gen<Integer> mdhs() {
    return intBits(NetworkAddress.MDH_BITS);
  }

  /** Valid offsets. */
  public static Gen<Long> offsets() {
    return bits(NetworkAddress.OFFSET_BITS);
  }

  /** Valid network addresses. */
  public static Gen<NetworkAddress> networkAddresses() {
    return nodeIds().zip(mdhs(), offsets(), NetworkAddress::new);
  }

  /** Ints outside {@code [0, max]}: just above, far above, just below and far below. */
  public static Gen<Integer> intsOutside(int max) {
    return integers().between(max + 1, Integer.MAX_VALUE)
        .mix(integers().between(Integer.MIN_VALUE, -1), 50)
        .mix(arbitrary().pick(max + 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE), 30);
  }

  /** Longs outside {@code [0, max]}. */
  public static Gen<Long> longsOutside(long max) {
    return longs().between(max + 1, Long.MAX_VALUE)
        .mix(longs().between(Long.MIN_VALUE, -1), 50)
        .mix(arbitrary().pick(max + 1, -1L, Long.MIN_VALUE, Long.MAX_VALUE), 30);
  }

  /** All 17 page sizes. */
  public static Gen<PageSize> pageSizes() {
    return arbitrary().pick(PageSize.values());
  }

  /** Byte addresses in the 52-bit physical range, biased toward page boundaries of every size. */
  public static Gen<Long> addresses() {
    Gen<Long> nearBoundary = pageSizes().zip(longs().between(0, 1L << 16), integers().between(-2, 2),
        (size, page, delta) -> Math.max(0, page * size.bytes() + delta));
    return bits(PhysicalAddress.BITS).mix(nearBoundary, 50);
  }
}
