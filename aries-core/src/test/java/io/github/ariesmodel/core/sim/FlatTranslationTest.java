package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import io.github.ariesmodel.core.spi.TranslationClient;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlatTranslationTest {

  private static final int TAG = 9;
  private static final int KEY = 99;

  private final DeterministicEventLoop loop = new DeterministicEventLoop();
  private final SparsePhysicalMemory memory = new SparsePhysicalMemory(1L << 32);
  private final FlatTranslation flat = new FlatTranslation(memory, loop, 250);

  @Test
  void memoryIsGivenBackOnlyWhenNoTimedTranslationIsOnItsWay() {
    long before = memory.allocatedBytes();
    MemoryDomainDescriptor a = flat.register(MemoryRegistration.of(0x10_0000, 2 * 4096, TAG, KEY));
    long aFrames = flat.translateNow(a.mdh(), 0, 8, AccessKind.READ, TAG, KEY).physicalAddress();
    flat.translate(TranslationClient.NETWORK_REQUEST, a.mdh(), 0, 8, AccessKind.WRITE, TAG, KEY,
        (now, status, pa, contiguous, ref, arg) -> { }, null, 0);
    assertThat(flat.deregisterAndFree(a.mdh(), memory)).as("with a's translation on its way").isFalse();
    assertThat(memory.allocatedBytes()).isEqualTo(before + 2 * 4096);
    loop.run();
    MemoryDomainDescriptor b = flat.register(MemoryRegistration.of(0x20_0000, 2 * 4096, TAG, KEY));
    assertThat(flat.translateNow(b.mdh(), 0, 8, AccessKind.READ, TAG, KEY).physicalAddress())
        .as("b takes a's frames, given back as it registered").isEqualTo(aFrames);
    assertThat(flat.deregisterAndFree(b.mdh(), memory)).as("nothing on its way").isTrue();
    assertThat(memory.allocatedBytes()).as("a's and b's frames given back").isEqualTo(before);
  }

  /**
   * Every node's memory has the same capacity, so a capacity check alone let frames be given back to another node's
   * memory, freeing the registration that node held there (the stop 74 IOMMU hunt's finding, the flat translator's
   * too).
   */
  @Test
  void framesAreNotGivenBackThroughAnotherNodesMemoryAndNothingChanges() {
    SparsePhysicalMemory other = new SparsePhysicalMemory(1L << 32);
    FlatTranslation otherFlat = new FlatTranslation(other, loop, 250);
    MemoryDomainDescriptor theirs = otherFlat.register(MemoryRegistration.of(0x10_0000, 2 * 4096, TAG, KEY));
    MemoryDomainDescriptor a = flat.register(MemoryRegistration.of(0x10_0000, 2 * 4096, TAG, KEY));
    long otherAllocated = other.allocatedBytes();

    assertThatThrownBy(() -> flat.deregisterAndFree(a.mdh(), other))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("memory must be this translator's memory or a view of it but is a view of another memory"
            + " (another node's?); mdh " + a.mdh() + " stays registered");
    assertThat(other.allocatedBytes()).as("the other node's registration").isEqualTo(otherAllocated);
    assertThat(flat.translateNow(a.mdh(), 0, 8, AccessKind.READ, TAG, KEY).ok()).as("a still registered").isTrue();
    assertThat(flat.deregisterAndFree(a.mdh(), memory)).isTrue();
    assertThat(otherFlat.translateNow(theirs.mdh(), 0, 8, AccessKind.READ, TAG, KEY).ok()).isTrue();
  }

  /**
   * A memory that does not say what it views ({@code physicalMemory()} null) is taken on trust; if it refuses the
   * range, nothing changes: the registration stays, and the translator registers again afterwards (the refused range
   * used to stay listed, and every later registration failed on it).
   */
  @Test
  void aMemoryThatRefusesTheRangeChangesNothingAndLeavesNothingListed() {
    io.github.ariesmodel.core.spi.HostMemory anonymous = anonymous();
    MemoryDomainDescriptor a = flat.register(MemoryRegistration.of(0x10_0000, 2 * 4096, TAG, KEY));

    assertThatThrownBy(() -> flat.deregisterAndFree(a.mdh(), anonymous))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(flat.translateNow(a.mdh(), 0, 8, AccessKind.READ, TAG, KEY).ok()).as("a still registered").isTrue();
    MemoryDomainDescriptor b = flat.register(MemoryRegistration.of(0x20_0000, 4096, TAG, KEY));
    assertThat(flat.translateNow(b.mdh(), 0, 8, AccessKind.READ, TAG, KEY).ok()).isTrue();
    assertThat(flat.deregisterAndFree(a.mdh(), memory)).isTrue();
  }

  /** A memory of the translator's capacity that does not say what it is, and holds nothing reserved. */
  private static io.github.ariesmodel.core.spi.HostMemory anonymous() {
    return new io.github.ariesmodel.core.spi.ForwardingHostMemory(new SparsePhysicalMemory(1L << 32)) {
      @Override
      public io.github.ariesmodel.core.spi.HostMemory physicalMemory() {
        return null;
      }
    };
  }

  /**
   * The stop 74 review: a range refused later, as it is given back, makes that call throw once and leaves the list;
   * the registration given back in that call stays deregistered (it had been put back, valid over frames just given
   * to the memory, which handed them to another owner); and later registrations work.
   */
  @Test
  void aRangeRefusedLaterThrowsOnceAndLeavesNoRegistrationOverFramesGivenBack() {
    MemoryDomainDescriptor x = flat.register(MemoryRegistration.of(0x10_0000, 2 * 4096, TAG, KEY));
    MemoryDomainDescriptor y = flat.register(MemoryRegistration.of(0x20_0000, 4096, TAG, KEY));
    flat.translate(TranslationClient.NETWORK_REQUEST, x.mdh(), 0, 8, AccessKind.READ, TAG, KEY,
        (now, status, pa, contiguous, ref, arg) -> { }, null, 1);
    assertThat(flat.deregisterAndFree(x.mdh(), anonymous())).as("x, with a translation on its way").isFalse();
    loop.run();
    long before = memory.allocatedBytes();

    assertThatThrownBy(() -> flat.deregisterAndFree(y.mdh(), memory)).as("x's range, refused as it is given back")
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(memory.allocatedBytes()).as("y's frames given back").isEqualTo(before - 4096);
    assertThat(flat.translateNow(y.mdh(), 0, 8, AccessKind.READ, TAG, KEY).ok()).as("y not registered").isFalse();
    MemoryDomainDescriptor z = flat.register(MemoryRegistration.of(0x30_0000, 4096, TAG, KEY));
    assertThat(flat.translateNow(z.mdh(), 0, 8, AccessKind.READ, TAG, KEY).ok()).as("a later registration").isTrue();
  }

  /** The stop 74 review: a handle out of range is the one-line refusal deregister gives, not an index exception. */
  @Test
  void aHandleOutOfRangeIsRefusedNamingIt() {
    assertThatThrownBy(() -> flat.deregisterAndFree(-1, memory)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mdh must be in [0, 4095] (12 bits) but was -1");
    assertThatThrownBy(() -> flat.deregisterAndFree(4096, memory)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mdh must be in [0, 4095] (12 bits) but was 4096");
  }

  @Test
  void translationsAreBlockPlusOffsetAndRegionsDoNotOverlap() {
    MemoryDomainDescriptor a = flat.register(MemoryRegistration.of(0x10_0000, 3 * 4096, TAG, KEY));
    MemoryDomainDescriptor b = flat.register(
        MemoryRegistration.of(0x4000_0000L, 1 << 21, TAG, KEY).withPageSize(PageSize.SIZE_2M));
    assertThat(a.mdh()).isEqualTo(0);
    assertThat(b.mdh()).isEqualTo(1);
    TranslationResult ra = flat.translateNow(a.mdh(), 0, 8, AccessKind.WRITE, TAG, KEY);
    TranslationResult rb = flat.translateNow(b.mdh(), 0, 8, AccessKind.WRITE, TAG, KEY);
    assertThat(ra.ok()).isTrue();
    assertThat(rb.ok()).isTrue();
    assertThat(rb.physicalAddress() % (1 << 21)).as("2M registrations are 2M aligned").isZero();
    assertThat(rb.physicalAddress()).isGreaterThanOrEqualTo(ra.physicalAddress() + 3 * 4096);
    TranslationResult last = flat.translateNow(a.mdh(), 3 * 4096 - 16, 16, AccessKind.READ, TAG, KEY);
    assertThat(last.physicalAddress()).isEqualTo(ra.physicalAddress() + 3 * 4096 - 16);
    assertThat(last.contiguousBytes()).isEqualTo(16);
    assertThat(memory.allocatedBytes()).isGreaterThanOrEqualTo(3 * 4096 + (1 << 21));
  }

  @Test
  void aNullRegistrationIsRefused() {
    assertThatThrownBy(() -> flat.register(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("registration must not be null");
  }

  @Test
  void aRegistrationTheMemoryCannotHoldTakesNoMdh() {
    SparsePhysicalMemory small = new SparsePhysicalMemory(1 << 20);
    FlatTranslation t = new FlatTranslation(small, loop, 0);
    assertThatThrownBy(() -> t.register(MemoryRegistration.of(0, 1 << 20, TAG, KEY)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("physical memory exhausted");
    // The failed call took no MDH: the next registration gets the one it would have got without it.
    assertThat(t.register(MemoryRegistration.of(0, 4096, TAG, KEY)).mdh()).isZero();
  }

  @Test
  void faultsAreResultsInCheckOrder() {
    MemoryDomainDescriptor ro = flat.register(MemoryRegistration.of(0x10_0000, 4096, TAG, KEY).withWritable(false));
    assertThat(flat.translateNow(ro.mdh(), 4090, 8, AccessKind.READ, TAG, KEY).status())
        .isEqualTo(Status.OUT_OF_BOUNDS);
    assertThat(flat.translateNow(ro.mdh(), 0, 8, AccessKind.ATOMIC, TAG, KEY).status())
        .isEqualTo(Status.NOT_WRITABLE);
    assertThat(flat.translateNow(ro.mdh(), 0, 8, AccessKind.READ, TAG, KEY + 1).status())
        .isEqualTo(Status.PROTECTION_VIOLATION);
    TranslationResult never = flat.translateNow(77, 0, 8, AccessKind.READ, TAG, KEY);
    assertThat(never.status()).isEqualTo(Status.INVALID_MDH);
    assertThat(never.physicalAddress()).isZero();
    assertThat(flat.descriptor(77)).isEmpty();
  }

  @Test
  void deregisteredHandlesGoStaleAndAreNotReusedAtOnce() {
    MemoryDomainDescriptor a = flat.register(MemoryRegistration.of(0x10_0000, 4096, TAG, KEY));
    flat.deregister(a.mdh());
    assertThat(flat.translateNow(a.mdh(), 0, 8, AccessKind.READ, TAG, KEY).status()).isEqualTo(Status.INVALID_MDH);
    assertThat(flat.descriptor(a.mdh())).hasValueSatisfying(d -> assertThat(d.valid()).isFalse());
    MemoryDomainDescriptor b = flat.register(MemoryRegistration.of(0x10_0000, 4096, TAG, KEY));
    assertThat(b.mdh()).isNotEqualTo(a.mdh());
    assertThatThrownBy(() -> flat.deregister(a.mdh()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not registered");
    assertThatThrownBy(() -> flat.descriptor(4096)).hasMessageContaining("mdh must be in [0, 4095]");
  }

  @Test
  void allHandlesInUseIsAnIllegalState() {
    FlatTranslation small = new FlatTranslation(new SparsePhysicalMemory(1L << 40), loop, 0);
    for (int i = 0; i < 4096; i++) {
      small.register(MemoryRegistration.of(0, 4096, TAG, KEY));
    }
    assertThatThrownBy(() -> small.register(MemoryRegistration.of(0, 4096, TAG, KEY)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("4096");
  }

  @Test
  void timedTranslationCompletesAfterTheLatencyWithTheSameResult() {
    MemoryDomainDescriptor a = flat.register(MemoryRegistration.of(0x10_0000, 4096, TAG, KEY));
    TranslationResult now = flat.translateNow(a.mdh(), 64, 8, AccessKind.WRITE, TAG, KEY);
    List<Object> seen = new ArrayList<>();
    Object token = "token";
    loop.scheduleAt(1000, (t, r, x) -> flat.translate(TranslationClient.NETWORK_REQUEST, a.mdh(), 64, 8,
        AccessKind.WRITE, TAG, KEY, (time, status, pa, contiguous, ref, arg) -> {
          seen.add(time);
          seen.add(status);
          seen.add(pa);
          seen.add(contiguous);
          seen.add(ref);
          seen.add(arg);
        }, token, 42), null, 0);
    loop.run();
    assertThat(seen).containsExactly(1250L, Status.OK, now.physicalAddress(), 8, token, 42L);
  }

  @Test
  void constructorRejectsCallerMistakes() {
    assertThatThrownBy(() -> new FlatTranslation(memory, loop, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("latencyPs must be in [0, 1e9] ps (1 ms) but was -1");
    // a latency that would leave the clock once added to it (it used to fail at the first translation with a
    // negative time)
    assertThatThrownBy(() -> new FlatTranslation(memory, loop, Long.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("latencyPs must be in [0, 1e9] ps (1 ms) but was " + Long.MAX_VALUE);
    assertThatThrownBy(() -> new FlatTranslation(null, loop, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> flat.translateNow(0, 0, -1, AccessKind.READ, TAG, KEY))
        .hasMessageContaining("length must be >= 0 but was -1");
  }
}
