package io.github.ariesmodel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MemoryDomainDescriptorTest {

  private static final int TAG = 5;
  private static final int KEY = 0x1234;

  private static MemoryDomainDescriptor mdd(boolean valid, boolean writable) {
    return new MemoryDomainDescriptor(3, valid, 0x7000_0000_0000L, 8192, writable, TAG, KEY, 2, PageSize.SIZE_4K, 17,
        true);
  }

  @Test
  void eachStatusIsReachable() {
    assertThat(mdd(true, true).check(0, 8192, AccessKind.WRITE, TAG, KEY)).isEqualTo(Status.OK);
    assertThat(mdd(true, false).check(8191, 1, AccessKind.READ, TAG, KEY)).isEqualTo(Status.OK);
    assertThat(mdd(true, true).check(8192, 0, AccessKind.READ, TAG, KEY)).isEqualTo(Status.OK);
    assertThat(mdd(false, true).check(0, 8, AccessKind.READ, TAG, KEY)).isEqualTo(Status.INVALID_MDH);
    assertThat(mdd(true, true).check(8185, 8, AccessKind.READ, TAG, KEY)).isEqualTo(Status.OUT_OF_BOUNDS);
    assertThat(mdd(true, true).check(-1, 1, AccessKind.READ, TAG, KEY)).isEqualTo(Status.OUT_OF_BOUNDS);
    assertThat(mdd(true, true).check(8, Long.MAX_VALUE, AccessKind.READ, TAG, KEY)).isEqualTo(Status.OUT_OF_BOUNDS);
    assertThat(mdd(true, false).check(0, 8, AccessKind.WRITE, TAG, KEY)).isEqualTo(Status.NOT_WRITABLE);
    assertThat(mdd(true, false).check(0, 8, AccessKind.ATOMIC, TAG, KEY)).isEqualTo(Status.NOT_WRITABLE);
    assertThat(mdd(true, true).check(0, 8, AccessKind.ATOMIC, TAG + 1, KEY)).isEqualTo(Status.PROTECTION_VIOLATION);
    assertThat(mdd(true, true).check(0, 8, AccessKind.READ, TAG, KEY + 1)).isEqualTo(Status.PROTECTION_VIOLATION);
  }

  @Test
  void theFirstFailingCheckWinsInHardwareOrder() {
    // Everything wrong at once: validity is reported first, then bounds, then permission, then protection.
    assertThat(mdd(false, false).check(9000, 8, AccessKind.WRITE, 0, 0)).isEqualTo(Status.INVALID_MDH);
    assertThat(mdd(true, false).check(9000, 8, AccessKind.WRITE, 0, 0)).isEqualTo(Status.OUT_OF_BOUNDS);
    assertThat(mdd(true, false).check(0, 8, AccessKind.WRITE, 0, 0)).isEqualTo(Status.NOT_WRITABLE);
    assertThat(mdd(true, true).check(0, 8, AccessKind.WRITE, 0, 0)).isEqualTo(Status.PROTECTION_VIOLATION);
  }

  @Test
  void invalidatedKeepsEverythingButValidity() {
    MemoryDomainDescriptor d = mdd(true, true);
    MemoryDomainDescriptor inv = d.invalidated();
    assertThat(inv.valid()).isFalse();
    assertThat(inv).usingRecursiveComparison().ignoringFields("valid").isEqualTo(d);
    assertThat(d.virtualAddress(0x10)).isEqualTo(0x7000_0000_0010L);
  }

  @Test
  void fieldsOutOfRangeAreRejectedNamingThem() {
    assertThatThrownBy(() -> new MemoryDomainDescriptor(4096, true, 0, 1, true, 0, 0, 0, PageSize.SIZE_4K, -1, false))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mdh").hasMessageContaining("4096");
    assertThatThrownBy(() -> new MemoryDomainDescriptor(0, true, 0x1001, 1, true, 0, 0, 0, PageSize.SIZE_4K, -1,
        false)).hasMessageContaining("base").hasMessageContaining("0x1001");
    assertThatThrownBy(() -> new MemoryDomainDescriptor(0, true, 0, 0, true, 0, 0, 0, PageSize.SIZE_4K, -1, false))
        .hasMessageContaining("length must be in [1, 2^40] bytes but was 0");
    assertThatThrownBy(() -> new MemoryDomainDescriptor(0, true, 0, 1, true, 256, 0, 0, PageSize.SIZE_4K, -1, false))
        .hasMessageContaining("protectionTag must be in [0, 255] but was 256");
    assertThatThrownBy(() -> new MemoryDomainDescriptor(0, true, 0, 1, true, 0, 65536, 0, PageSize.SIZE_4K, -1,
        false)).hasMessageContaining("protectionKey must be in [0, 65535] but was 65536");
    assertThatThrownBy(() -> new MemoryDomainDescriptor(0, true, 0, 1, true, 0, 0, 16, PageSize.SIZE_4K, -1, false))
        .hasMessageContaining("translationContext must be in [0, 15] but was 16");
    assertThatThrownBy(() -> new MemoryDomainDescriptor(0, true, 0, 1, true, 0, 0, 0, PageSize.SIZE_4K, 2048, false))
        .hasMessageContaining("completionQueue must be -1 (none) or in [0, 2047] but was 2048");
  }

  @Test
  void registrationValidatesLikeTheDescriptor() {
    MemoryRegistration r = MemoryRegistration.of(0x20_0000, 4096, 1, 2);
    assertThat(r.withPageSize(PageSize.SIZE_2M).pageSize()).isEqualTo(PageSize.SIZE_2M);
    assertThat(r.withWritable(false).writable()).isFalse();
    assertThat(r.withCompletionQueue(9).completionQueue()).isEqualTo(9);
    assertThat(r.withPrefetch(true).prefetch()).isTrue();
    assertThat(r.withTranslationContext(15).translationContext()).isEqualTo(15);
    assertThatThrownBy(() -> r.withTranslationContext(16)).hasMessageContaining("but was 16");
    assertThatThrownBy(() -> MemoryRegistration.of(0x1000, 4096, 1, 2).withPageSize(PageSize.SIZE_2M))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("virtualBase")
        .hasMessageContaining("0x1000");
  }
}
