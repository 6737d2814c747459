package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.TranslationClient;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Each violation kind is rejected with its status, by both the timed and the untimed path, and leaves every touched
 * byte of memory (registered frames and page tables) identical.
 */
class IommuViolationProperties {

  private enum Kind {
    NEVER_REGISTERED, STALE, OUT_OF_BOUNDS, NOT_WRITABLE, WRONG_TAG, WRONG_KEY, UNMAPPED
  }

  @Test
  void everyViolationIsAResultAndTouchesNoMemory() {
    qt().withExamples(80)
        .forAll(integers().between(0, Kind.values().length - 1), longs().all(), integers().between(0, 1))
        .checkAssert((k, seed, huge) -> {
          Kind kind = Kind.values()[k];
          SplittableRandom rnd = new SplittableRandom(seed);
          Rig rig = new Rig(IommuConfig.defaults(), 1L << 30);
          PageSize ps = huge == 1 ? PageSize.SIZE_2M : PageSize.SIZE_4K;
          long length = (1 + rnd.nextInt(8)) * ps.bytes() - rnd.nextInt(100);
          boolean writable = kind != Kind.NOT_WRITABLE;
          MemoryDomainDescriptor d = rig.iommu.register(
              new MemoryRegistration(0, length, ps, writable, Rig.TAG, Rig.KEY, 0, -1, rnd.nextBoolean()));
          MemoryDomainDescriptor other = rig.iommu.register(MemoryRegistration.of(0, 1 << 16, Rig.TAG, Rig.KEY));
          // Put data in the frames so that they are materialized and compared.
          byte[] pattern = new byte[(int) Math.min(length, 1 << 16)];
          rnd.nextBytes(pattern);
          rig.memory.write(rig.iommu.physicalBase(d.mdh()), pattern, 0, pattern.length);
          long offset = rnd.nextLong(length);
          int len = (int) Math.min(length - offset, 1 + rnd.nextInt(256));
          int mdh = d.mdh();
          int tag = Rig.TAG;
          int key = Rig.KEY;
          AccessKind access = rnd.nextBoolean() ? AccessKind.WRITE : AccessKind.ATOMIC;
          Status expected;
          switch (kind) {
            case NEVER_REGISTERED:
              mdh = 100 + rnd.nextInt(3000);
              expected = Status.INVALID_MDH;
              break;
            case STALE:
              rig.iommu.deregister(mdh);
              expected = Status.INVALID_MDH;
              break;
            case OUT_OF_BOUNDS:
              offset = length - rnd.nextInt(4);
              len = 5 + rnd.nextInt(100);
              expected = Status.OUT_OF_BOUNDS;
              break;
            case NOT_WRITABLE:
              expected = Status.NOT_WRITABLE;
              break;
            case WRONG_TAG:
              tag = (Rig.TAG + 1 + rnd.nextInt(254)) & 0xFF;
              expected = Status.PROTECTION_VIOLATION;
              break;
            case WRONG_KEY:
              key = (Rig.KEY + 1 + rnd.nextInt(60000)) & 0xFFFF;
              expected = Status.PROTECTION_VIOLATION;
              break;
            default:
              rig.iommu.unmapPage(mdh, offset);
              expected = Status.TRANSLATION_FAULT;
              break;
          }
          // Warm the cache for the other registration so hits happen around the faulting request.
          rig.translate(other.mdh(), 0, 99);
          rig.loop.run();
          byte[] before = snapshot(rig, d, other);
          int pagesBefore = rig.memory.materializedPages();

          int m = mdh;
          long o = offset;
          int l = len;
          rig.iommu.translate(TranslationClient.NETWORK_REQUEST, m, o, l, access, tag, key, rig.listener, null, 1);
          rig.loop.run();

          assertThat(rig.doneWithId(1).status()).isEqualTo(expected);
          assertThat(rig.doneWithId(1).physical()).isZero();
          assertThat(rig.iommu.translateNow(m, o, l, access, tag, key).status()).isEqualTo(expected);
          assertThat(rig.memory.materializedPages()).isEqualTo(pagesBefore);
          assertThat(snapshot(rig, d, other)).isEqualTo(before);
          assertThat(rig.iommu.statistics().total().faults()).isEqualTo(1);
        });
  }

  /** Every page the test touched: the frames written and both registrations' page tables. */
  private static byte[] snapshot(Rig rig, MemoryDomainDescriptor d, MemoryDomainDescriptor other) {
    int size = 3 * 65536 + 2 * 8192;
    byte[] all = new byte[size];
    rig.memory.read(rig.iommu.physicalBase(d.mdh()), all, 0, 65536);
    rig.memory.read(rig.iommu.physicalBase(other.mdh()), all, 65536, 65536);
    rig.memory.read(rig.iommu.rootTable(d.mdh()), all, 2 * 65536, 4096);
    rig.memory.read(rig.iommu.rootTable(other.mdh()), all, 2 * 65536 + 4096, 4096);
    // The leaf tables follow the frames (4K) or are the root (huge pages): read the region after each root.
    rig.memory.read(rig.iommu.physicalBase(other.mdh()) + 65536, all, 2 * 65536 + 8192, 65536);
    rig.memory.read(rig.iommu.physicalBase(d.mdh()) + d.pageSize().alignUp(d.length()), all, 3 * 65536 + 8192,
        8192);
    return all;
  }
}
