package io.github.ariesmodel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** {@link MemoryDomainDescriptor#check} against a reference written with exact arithmetic. */
class MemoryDomainDescriptorProperties {

  private static final int TAG = 0x2A;
  private static final int KEY = 0xBEEF;

  /** The checks in the documented order, with BigInteger bounds so no overflow can hide a violation. */
  private static Status reference(MemoryDomainDescriptor d, long offset, long length, AccessKind access, int tag,
      int key) {
    if (!d.valid()) {
      return Status.INVALID_MDH;
    }
    BigInteger end = BigInteger.valueOf(offset).add(BigInteger.valueOf(length));
    if (offset < 0 || length < 0 || end.compareTo(BigInteger.valueOf(d.length())) > 0) {
      return Status.OUT_OF_BOUNDS;
    }
    if (access != AccessKind.READ && !d.writable()) {
      return Status.NOT_WRITABLE;
    }
    if (tag != d.protectionTag() || key != d.protectionKey()) {
      return Status.PROTECTION_VIOLATION;
    }
    return Status.OK;
  }

  private static Gen<MemoryDomainDescriptor> descriptors() {
    Gen<Long> lengths = longs().between(1, 1L << 40).mix(arbitrary().pick(1L, 4096L, 1L << 40), 20);
    return booleans().all().zip(booleans().all(), lengths, integers().between(0, 15),
        (valid, writable, length, tc) -> new MemoryDomainDescriptor(
            7, valid, 0x10_0000_0000L, length, writable, TAG, KEY, tc, PageSize.SIZE_4K,
            MemoryDomainDescriptor.NO_CQ, false));
  }

  @Test
  void checkAgreesWithTheReferenceInItsOrder() {
    Gen<Long> offsets = longs().all().mix(longs().between(-2, 1L << 41), 60);
    Gen<Long> lengths = longs().between(-1, 128).mix(longs().all(), 10);
    Gen<int[]> tagKey = arbitrary().pick(
        new int[] {TAG, KEY}, new int[] {TAG + 1, KEY}, new int[] {TAG, KEY - 1}, new int[] {0, 0});
    Gen<AccessKind> access = arbitrary().enumValues(AccessKind.class);
    qt().withExamples(10_000).forAll(descriptors(), offsets.zip(lengths, (o, l) -> new long[] {o, l}), access, tagKey)
        .checkAssert((d, ol, a, tk) -> {
          // Half the time put the access right at the end of the registration, where bounds bugs live.
          long offset = (ol[0] & 1) == 0 ? ol[0] : d.length() - Math.floorMod(ol[1], 3);
          long length = ol[1];
          assertThat(d.check(offset, length, a, tk[0], tk[1]))
              .isEqualTo(reference(d, offset, length, a, tk[0], tk[1]));
        });
  }
}
