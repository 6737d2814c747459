package io.github.ariesmodel.testkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationHit;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The contract of core's {@link AddressTranslation} port, as an abstract JUnit 5 test: extend it, build your
 * translator over the given memory and scheduler in {@link #create}, and the inherited tests check what the port
 * promises, for registrations of every page size in {@link #pageSizes()} (4 KB and huge pages by default):
 *
 * <ul>
 *   <li>registration fills a valid descriptor that repeats the registration, under an MDH no other live
 *       registration has; {@code descriptor} returns it; the 4,097th live registration is refused with an
 *       {@link IllegalStateException};
 *   <li>translations land in the registration's own frames: inside the physical memory the translator reserved
 *       while registering, linear within each page ({@code pa(offset) - pa(page start) = offset - page start}),
 *       contiguous for the {@code contiguousBytes} they report (at least to the end of the page or of the request,
 *       at most the request), and no two pages of any registrations share a frame; data written at translated
 *       addresses reads back and leaves every translation as it was (frames never overlap the page tables);
 *   <li>the checks come in the documented order (invalid MDH, bounds, write permission, protection tag and key),
 *       checked against a reference model on random requests: a fault is a result with physical address and
 *       contiguous bytes 0, never an exception, and faulting requests write no memory at all;
 *   <li>a never-registered MDH and a deregistered one (even one whose translations were cached) fault with
 *       {@link Status#INVALID_MDH}; a deregistered descriptor stays present and invalid; deregistering twice, an MDH
 *       outside 12 bits and a negative length are caller mistakes ({@link IllegalArgumentException});
 *   <li>timed translations complete through the listener exactly once each, never from inside {@code translate},
 *       no earlier than they were asked, with their {@code ref} and {@code arg}, and with the same outcome as
 *       {@code translateNow} (hundreds in flight at once, in bursts and spread over time);
 *   <li>a fast hit ({@code translateHit} returning true) is given only for a request that translates without a
 *       fault, at the address {@code translateNow} gives, with the whole request contiguous, completing no earlier
 *       than it was asked; a translator that says it {@linkplain #offersFastHits() offers fast hits} gives some once
 *       its cache is warm;
 *   <li>{@code deregisterAndFree} deregisters as {@code deregister} does (a null memory, or one of another size, is
 *       refused first and changes nothing), and gives back only memory reserved while that registration was made,
 *       whichever it answers; the other registrations translate and hold their data as before, and a registration
 *       made after it gets frames of its own;
 *   <li>determinism: the same requests give the same completions at the same times.
 * </ul>
 *
 * <pre>{@code
 * class MyTranslatorContractTest extends AddressTranslationContract<MyTranslator> {
 *   protected MyTranslator create(HostMemory memory, Scheduler scheduler) {
 *     return new MyTranslator(memory, scheduler);
 *   }
 * }
 * }</pre>
 *
 * @param <T> the translator under test
 */
public abstract class AddressTranslationContract<T extends AddressTranslation> {

  /** For subclasses. */
  protected AddressTranslationContract() {}

  /**
   * A fresh translator with nothing registered.
   *
   * @param memory the node's physical memory (1 TiB, sparse): registrations are reserved in it
   * @param scheduler the clock that times translations (the contract runs it)
   * @return the translator
   */
  protected abstract T create(HostMemory memory, Scheduler scheduler);

  /** @return the page sizes registrations are made with (default 4K, 2M and 1G) */
  protected List<PageSize> pageSizes() {
    return List.of(PageSize.SIZE_4K, PageSize.SIZE_2M, PageSize.SIZE_1G);
  }

  /**
   * Where the translator promises a byte of a registration is, when it promises that much more than the port does
   * (the IOMMU: its frames are contiguous from {@code physicalBase}). Checked against every translation when present.
   *
   * @param translator the translator
   * @param descriptor a registered descriptor
   * @param offset an offset inside it
   * @return the physical address, or empty (the default) when the translator promises nothing beyond the port
   */
  protected OptionalLong expectedPhysicalAddress(T translator, MemoryDomainDescriptor descriptor, long offset) {
    return OptionalLong.empty();
  }

  /**
   * Whether the translator completes some cache hits at once through {@link AddressTranslation#translateHit}. When
   * true, the contract also requires that it does so for some requests repeated right after they were translated.
   *
   * @return true if fast hits are promised (default false: the port's default {@code translateHit} never gives one)
   */
  protected boolean offersFastHits() {
    return false;
  }

  private static final long MEMORY_BYTES = 1L << 40;

  // ------------------------------------------------------------------------------------------------------ fixture

  /** A host memory that counts writes and remembers what {@code allocate} handed out. */
  private static final class WatchedMemory implements HostMemory {
    final SparsePhysicalMemory inner = new SparsePhysicalMemory(MEMORY_BYTES);
    final List<long[]> allocations = new ArrayList<>();
    final List<long[]> freed = new ArrayList<>();
    long writes;

    @Override
    public long capacity() {
      return inner.capacity();
    }

    @Override
    public void read(long address, byte[] dst, int dstOffset, int length) {
      inner.read(address, dst, dstOffset, length);
    }

    @Override
    public void write(long address, byte[] src, int srcOffset, int length) {
      writes++;
      inner.write(address, src, srcOffset, length);
    }

    @Override
    public long readLong(long address) {
      return inner.readLong(address);
    }

    @Override
    public void writeLong(long address, long value) {
      writes++;
      inner.writeLong(address, value);
    }

    @Override
    public int readInt(long address) {
      return inner.readInt(address);
    }

    @Override
    public void writeInt(long address, int value) {
      writes++;
      inner.writeInt(address, value);
    }

    @Override
    public long allocate(long bytes, long alignment) {
      long a = inner.allocate(bytes, alignment);
      allocations.add(new long[] {a, bytes});
      return a;
    }

    @Override
    public long allocatedBytes() {
      return inner.allocatedBytes();
    }

    @Override
    public boolean free(long address, long bytes) {
      boolean given = inner.free(address, bytes);
      if (given) {
        freed.add(new long[] {address, bytes});
      }
      return given;
    }
  }

  /** One registration made by the fixture, with the memory reserved while it was made. */
  private record Registered(MemoryDomainDescriptor descriptor, List<long[]> reserved) {
    boolean inReserved(long pa, long bytes) {
      for (long[] r : reserved) {
        if (pa >= r[0] && pa + bytes <= r[0] + r[1]) {
          return true;
        }
      }
      return false;
    }
  }

  /** A translator over a watched memory with, per page size, a writable and a read-only registration. */
  private final class Fixture {
    final DeterministicEventLoop loop = new DeterministicEventLoop();
    final WatchedMemory memory = new WatchedMemory();
    final T translator = create(memory, loop);
    final List<Registered> registered = new ArrayList<>();

    Fixture() {
      int k = 0;
      for (PageSize ps : pageSizes()) {
        long page = ps.bytes();
        register(new MemoryRegistration(page * (4 + 8 * k), 3 * page + 100, ps, true, 10 + k, 1000 + k, k % 16,
            MemoryDomainDescriptor.NO_CQ, false));
        register(new MemoryRegistration(page * (16 + 8 * k), 2 * page, ps, false, 40 + k, 2000 + k, 0,
            MemoryDomainDescriptor.NO_CQ, k % 2 == 0));
        k++;
      }
    }

    Registered register(MemoryRegistration r) {
      int before = memory.allocations.size();
      MemoryDomainDescriptor d = translator.register(r);
      Registered reg = new Registered(d,
          List.copyOf(memory.allocations.subList(before, memory.allocations.size())));
      registered.add(reg);
      return reg;
    }
  }

  /** Offsets worth translating in a registration: its ends and both sides of every page boundary. */
  private static List<Long> sampleOffsets(MemoryDomainDescriptor d) {
    long page = d.pageSize().bytes();
    Set<Long> out = new HashSet<>();
    for (long p = 0; p < d.length(); p += page) {
      for (long o : new long[] {p, p + 1, p + 63, p + page / 2 + 3, p + page - 8, p + page - 1}) {
        if (o < d.length()) {
          out.add(o);
        }
      }
    }
    out.add(d.length() - 1);
    return out.stream().sorted().toList();
  }

  // ------------------------------------------------------------------------------------------------------ tests

  @Test
  void registrationFillsAValidDescriptorUnderAFreshMdh() {
    Fixture f = new Fixture();
    Set<Integer> mdhs = new HashSet<>();
    for (Registered r : f.registered) {
      MemoryDomainDescriptor d = r.descriptor();
      assertThat(d.valid()).as("a new registration's descriptor is valid").isTrue();
      assertThat(mdhs.add(d.mdh())).as("MDH %s handed out twice", d.mdh()).isTrue();
      assertThat(f.translator.descriptor(d.mdh())).as("descriptor(%s)", d.mdh()).contains(d);
      assertThat(r.reserved()).as("physical memory reserved by registering %s", d).isNotEmpty();
    }
    Fixture g = new Fixture();
    MemoryRegistration asked = new MemoryRegistration(0x7_0000_0000L, 5000, PageSize.SIZE_4K, false, 200, 65535, 15,
        2047, true);
    MemoryDomainDescriptor d = g.translator.register(asked);
    assertThat(d).as("the descriptor repeats the registration")
        .extracting(MemoryDomainDescriptor::base, MemoryDomainDescriptor::length, MemoryDomainDescriptor::pageSize,
            MemoryDomainDescriptor::writable, MemoryDomainDescriptor::protectionTag,
            MemoryDomainDescriptor::protectionKey, MemoryDomainDescriptor::translationContext,
            MemoryDomainDescriptor::completionQueue, MemoryDomainDescriptor::prefetch)
        .containsExactly(asked.virtualBase(), asked.length(), asked.pageSize(), asked.writable(),
            asked.protectionTag(), asked.protectionKey(), asked.translationContext(), asked.completionQueue(),
            asked.prefetch());
    assertThat(new Fixture().translator.descriptor(4095)).as("descriptor of a never-registered MDH").isEmpty();
  }

  @Test
  void translationsLandLinearlyInTheRegistrationsOwnFrames() {
    Fixture f = new Fixture();
    List<long[]> frames = new ArrayList<>();
    for (Registered r : f.registered) {
      MemoryDomainDescriptor d = r.descriptor();
      long page = d.pageSize().bytes();
      for (long off : sampleOffsets(d)) {
        int len = (int) Math.min(64, d.length() - off);
        TranslationResult t = f.translator.translateNow(d.mdh(), off, len, AccessKind.READ, d.protectionTag(),
            d.protectionKey());
        String what = d.pageSize() + " registration MDH " + d.mdh() + ", offset 0x" + Long.toHexString(off)
            + ", " + len + " bytes";
        assertThat(t.status()).as(what).isEqualTo(Status.OK);
        long pa = t.physicalAddress();
        long toPageEnd = page - off % page;
        assertThat((long) t.contiguousBytes()).as("contiguous bytes, " + what)
            .isBetween(Math.min(len, toPageEnd), (long) len);
        assertThat(r.inReserved(pa, t.contiguousBytes()))
            .as("[0x%s, +%s) inside the memory reserved while registering (%s)", Long.toHexString(pa),
                t.contiguousBytes(), what).isTrue();
        long pageStart = off - off % page;
        TranslationResult start = f.translator.translateNow(d.mdh(), pageStart, 1, AccessKind.READ,
            d.protectionTag(), d.protectionKey());
        assertThat(pa - start.physicalAddress()).as("distance from the page's first byte, " + what)
            .isEqualTo(off - pageStart);
        if (t.contiguousBytes() > 1) {
          long lastOff = off + t.contiguousBytes() - 1;
          TranslationResult last = f.translator.translateNow(d.mdh(), lastOff, 1, AccessKind.READ,
              d.protectionTag(), d.protectionKey());
          assertThat(last.physicalAddress()).as("last contiguous byte, " + what)
              .isEqualTo(pa + t.contiguousBytes() - 1);
        }
        OptionalLong expected = expectedPhysicalAddress(f.translator, d, off);
        if (expected.isPresent()) {
          assertThat(pa).as("the physical address the translator promises, " + what)
              .isEqualTo(expected.getAsLong());
        }
        if (off == pageStart) {
          frames.add(new long[] {pa, Math.min(page, d.length() - pageStart)});
        }
      }
    }
    frames.sort(Comparator.comparingLong(a -> a[0]));
    for (int i = 1; i < frames.size(); i++) {
      long[] a = frames.get(i - 1);
      long[] b = frames.get(i);
      assertThat(a[0] + a[1]).as("frame [0x%s, +%s) overlaps the next frame at 0x%s", Long.toHexString(a[0]), a[1],
          Long.toHexString(b[0])).isLessThanOrEqualTo(b[0]);
    }
  }

  @Test
  void dataWrittenAtTranslatedAddressesReadsBackAndLeavesTranslationsAlone() {
    Fixture f = new Fixture();
    List<long[]> before = new ArrayList<>();
    for (Registered r : f.registered) {
      MemoryDomainDescriptor d = r.descriptor();
      for (long off : sampleOffsets(d)) {
        TranslationResult t = f.translator.translateNow(d.mdh(), off, 1, AccessKind.READ, d.protectionTag(),
            d.protectionKey());
        before.add(new long[] {d.mdh(), off, t.physicalAddress()});
      }
    }
    for (long[] b : before) {
      f.memory.write(b[2], new byte[] {(byte) (b[0] * 31 + b[1])}, 0, 1);
    }
    for (long[] b : before) {
      MemoryDomainDescriptor d = f.translator.descriptor((int) b[0]).orElseThrow();
      TranslationResult t = f.translator.translateNow(d.mdh(), b[1], 1, AccessKind.READ, d.protectionTag(),
          d.protectionKey());
      assertThat(t.physicalAddress()).as("MDH %s offset 0x%s after data was written into every frame", b[0],
          Long.toHexString(b[1])).isEqualTo(b[2]);
      byte[] one = new byte[1];
      f.memory.read(b[2], one, 0, 1);
      assertThat(one[0]).as("byte written for MDH %s offset 0x%s", b[0], Long.toHexString(b[1]))
          .isEqualTo((byte) (b[0] * 31 + b[1]));
    }
  }

  /** The reference model of the checks, in the port's order. */
  private static Status expectedStatus(
      MemoryDomainDescriptor d, long offset, int length, AccessKind access, int tag, int key) {
    if (!d.valid()) {
      return Status.INVALID_MDH;
    }
    if (offset < 0 || offset > d.length() || length > d.length() - offset) {
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

  /** A random request against one of the fixture's registrations, biased to each check's edge. */
  private record Request(int mdh, long offset, int length, AccessKind access, int tag, int key) {
    static Request random(MemoryDomainDescriptor d, SplittableRandom r) {
      long len = d.length();
      long offset = switch (r.nextInt(5)) {
        case 0 -> 0;
        case 1 -> len - r.nextInt(1, 80);
        case 2 -> len + r.nextInt(0, 3);
        case 3 -> len - 64 + r.nextInt(0, 128);
        default -> r.nextLong(len);
      };
      offset = Math.max(0, offset);
      int length = r.nextInt(4) == 0 ? 0 : r.nextInt(1, 65);
      AccessKind access = AccessKind.values()[r.nextInt(3)];
      int tag = r.nextInt(4) == 0 ? (d.protectionTag() + 1) & 0xFF : d.protectionTag();
      int key = r.nextInt(4) == 0 ? d.protectionKey() ^ (1 << r.nextInt(16)) : d.protectionKey();
      return new Request(d.mdh(), offset, length, access, tag, key);
    }

    TranslationResult now(AddressTranslation t) {
      return t.translateNow(mdh, offset, length, access, tag, key);
    }
  }

  @Test
  void checksComeInTheDocumentedOrderAndFaultsAreResultsThatWriteNothing() {
    Fixture f = new Fixture();
    int deregistered = f.register(MemoryRegistration.of(0x40_0000_0000L, 8192, 1, 1)).descriptor().mdh();
    f.translator.deregister(deregistered);
    long writesBefore = f.memory.writes;
    qt().withExamples(1_000).forAll(integers().between(0, f.registered.size() - 1), integers().all())
        .checkAssert((index, seed) -> {
          MemoryDomainDescriptor d = f.translator.descriptor(f.registered.get(index).descriptor().mdh())
              .orElseThrow();
          Request q = Request.random(d, new SplittableRandom(seed));
          TranslationResult t = q.now(f.translator);
          assertThat(t.status()).as("%s on %s", q, d)
              .isEqualTo(expectedStatus(d, q.offset(), q.length(), q.access(), q.tag(), q.key()));
          if (t.status() != Status.OK) {
            assertThat(t.physicalAddress()).as("physical address of a fault").isZero();
            assertThat(t.contiguousBytes()).as("contiguous bytes of a fault").isZero();
          }
        });
    // faults only, timed: no memory write, one completion each
    SplittableRandom r = new SplittableRandom(99);
    List<Request> faulting = new ArrayList<>();
    while (faulting.size() < 300) {
      MemoryDomainDescriptor d = f.translator.descriptor(
          f.registered.get(r.nextInt(f.registered.size())).descriptor().mdh()).orElseThrow();
      Request q = Request.random(d, r);
      if (expectedStatus(d, q.offset(), q.length(), q.access(), q.tag(), q.key()) != Status.OK) {
        faulting.add(q);
      }
    }
    Completions done = submitAll(f, faulting, r.split());
    f.loop.run();
    done.assertEachCompletedOnceAsUntimed(f);
    assertThat(f.memory.writes - writesBefore).as("host memory writes while translating only faulting requests")
        .isZero();
  }

  @Test
  void deregisterAndFreeGivesBackOnlyWhatItsRegistrationReserved() {
    Fixture f = new Fixture();
    Registered gone = f.register(MemoryRegistration.of(0x60_0000_0000L, 5 * 4096 + 100, 7, 8));
    Registered after = f.register(MemoryRegistration.of(0x61_0000_0000L, 2 * 4096, 7, 8));
    int mdh = gone.descriptor().mdh();
    // every registration's bytes at its sample offsets, written with a value of its own
    List<long[]> written = new ArrayList<>();
    for (int i = 0; i < f.registered.size(); i++) {
      MemoryDomainDescriptor d = f.registered.get(i).descriptor();
      for (long o : sampleOffsets(d)) {
        TranslationResult t = f.translator.translateNow(d.mdh(), o, 1, AccessKind.READ, d.protectionTag(),
            d.protectionKey());
        f.memory.write(t.physicalAddress(), new byte[] {(byte) (i + 1)}, 0, 1);
        written.add(new long[] {i, o, t.physicalAddress()});
      }
    }
    long reserved = f.memory.allocatedBytes();
    assertThatThrownBy(() -> f.translator.deregisterAndFree(mdh, null)).as("deregisterAndFree with no memory")
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> f.translator.deregisterAndFree(mdh, new SparsePhysicalMemory(1L << 30)))
        .as("deregisterAndFree through a memory of another size").isInstanceOf(IllegalArgumentException.class);
    assertThat(f.translator.descriptor(mdh).map(MemoryDomainDescriptor::valid)).as("after the refusals")
        .contains(true);

    boolean given = f.translator.deregisterAndFree(mdh, f.memory);

    assertThat(f.translator.descriptor(mdh).map(MemoryDomainDescriptor::valid)).as("the descriptor after it")
        .contains(false);
    assertThat(f.translator.translateNow(mdh, 0, 8, AccessKind.READ, 7, 8).status())
        .as("a translation of the MDH deregistered and freed").isEqualTo(Status.INVALID_MDH);
    for (long[] g : f.memory.freed) {
      assertThat(gone.inReserved(g[0], g[1]))
          .as("given back [0x%s, +%s), reserved while the freed registration was made", Long.toHexString(g[0]), g[1])
          .isTrue();
    }
    if (given) {
      assertThat(f.memory.freed).as("ranges given back when deregisterAndFree answered true").isNotEmpty();
    } else {
      assertThat(f.memory.allocatedBytes()).as("memory reserved when it answered false").isEqualTo(reserved);
    }
    assertThatThrownBy(() -> f.translator.deregisterAndFree(mdh, f.memory)).as("deregisterAndFree twice")
        .isInstanceOf(IllegalArgumentException.class);
    Registered next = f.register(MemoryRegistration.of(0x62_0000_0000L, 5 * 4096 + 100, 7, 8));
    for (long o : sampleOffsets(next.descriptor())) {
      TranslationResult t = f.translator.translateNow(next.descriptor().mdh(), o, 1, AccessKind.WRITE, 7, 8);
      assertThat(t.status()).as("the next registration's offset %s", o).isEqualTo(Status.OK);
      f.memory.write(t.physicalAddress(), new byte[] {(byte) 99}, 0, 1);
    }
    for (long[] w : written) {
      MemoryDomainDescriptor d = f.registered.get((int) w[0]).descriptor();
      if (d.mdh() == mdh && d.equals(gone.descriptor())) {
        continue;
      }
      TranslationResult t = f.translator.translateNow(d.mdh(), w[1], 1, AccessKind.READ, d.protectionTag(),
          d.protectionKey());
      assertThat(t.physicalAddress()).as("registration %s, offset %s, after another was freed", d.mdh(), w[1])
          .isEqualTo(w[2]);
      byte[] one = new byte[1];
      f.memory.read(w[2], one, 0, 1);
      assertThat(one[0]).as("the byte of registration %s at offset %s", d.mdh(), w[1]).isEqualTo((byte) (w[0] + 1));
    }
    assertThat(after.descriptor().valid()).isTrue();
  }

  @Test
  void unknownAndDeregisteredMdhsFaultAndCallerMistakesThrow() {
    Fixture f = new Fixture();
    Registered r = f.register(MemoryRegistration.of(0x50_0000_0000L, 3 * 4096, 5, 6));
    MemoryDomainDescriptor d = r.descriptor();
    // warm any cache with a timed translation, then deregister
    Completions warm = submitAll(f, List.of(new Request(d.mdh(), 4096, 64, AccessKind.WRITE, 5, 6)),
        new SplittableRandom(1));
    f.loop.run();
    assertThat(warm.byIndex[0]).as("the warm-up translation").hasSize(1);
    assertThat(warm.byIndex[0].get(0).status()).isEqualTo(Status.OK);
    f.translator.deregister(d.mdh());
    assertThat(f.translator.descriptor(d.mdh())).as("a deregistered descriptor")
        .hasValueSatisfying(x -> assertThat(x.valid()).isFalse());
    assertThat(f.translator.translateNow(d.mdh(), 4096, 64, AccessKind.WRITE, 5, 6).status())
        .as("untimed translation of a deregistered MDH").isEqualTo(Status.INVALID_MDH);
    Completions stale = submitAll(f, List.of(new Request(d.mdh(), 4096, 64, AccessKind.WRITE, 5, 6),
        new Request(d.mdh(), 1 << 30, 64, AccessKind.READ, 0, 0)), new SplittableRandom(2));
    f.loop.run();
    stale.assertEachCompletedOnceAsUntimed(f);
    assertThat(stale.byIndex[0].get(0).status()).as("timed translation of a deregistered MDH (was cached)")
        .isEqualTo(Status.INVALID_MDH);
    assertThat(stale.byIndex[1].get(0).status()).as("INVALID_MDH comes before OUT_OF_BOUNDS and protection")
        .isEqualTo(Status.INVALID_MDH);
    assertThatThrownBy(() -> f.translator.deregister(d.mdh())).as("deregistering twice")
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(Integer.toString(d.mdh()));

    Set<Integer> used = new HashSet<>();
    f.registered.forEach(x -> used.add(x.descriptor().mdh()));
    int never = 4095;
    while (used.contains(never)) {
      never--;
    }
    int unused = never;
    assertThat(f.translator.descriptor(unused)).as("descriptor of never-registered MDH %s", unused).isEmpty();
    assertThat(f.translator.translateNow(unused, 0, 8, AccessKind.READ, 0, 0).status())
        .as("never-registered MDH %s", unused).isEqualTo(Status.INVALID_MDH);
    assertThatThrownBy(() -> f.translator.deregister(unused)).as("deregistering a never-registered MDH")
        .isInstanceOf(IllegalArgumentException.class);

    MemoryDomainDescriptor live = f.registered.get(0).descriptor();
    RecordingListener ignored = new RecordingListener();
    for (int bad : new int[] {-1, 4096}) {
      assertThatThrownBy(() -> f.translator.translateNow(bad, 0, 8, AccessKind.READ, 0, 0))
          .as("translateNow with MDH %s", bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> f.translator.translate(TranslationClient.NETWORK_REQUEST, bad, 0, 8, AccessKind.READ,
          0, 0, ignored, null, 0)).as("translate with MDH %s", bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> f.translator.descriptor(bad)).as("descriptor(%s)", bad)
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> f.translator.deregister(bad)).as("deregister(%s)", bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> f.translator.translateNow(live.mdh(), 0, -1, AccessKind.READ, live.protectionTag(),
        live.protectionKey())).as("negative length").isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> f.translator.translate(TranslationClient.LOCAL_READ, live.mdh(), 0, -1, AccessKind.READ,
        live.protectionTag(), live.protectionKey(), ignored, null, 0)).as("negative length, timed")
        .isInstanceOf(IllegalArgumentException.class);
    f.loop.run();
    assertThat(ignored.count).as("completions of refused (thrown) requests").isZero();
  }

  @Test
  void allMddsInUseRefusesTheNextRegistration() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    T t = create(new SparsePhysicalMemory(MEMORY_BYTES), loop);
    int last = -1;
    for (int i = 0; i < 4096; i++) {
      last = t.register(MemoryRegistration.of(4096L * i, 4096, 1, 1)).mdh();
    }
    assertThatThrownBy(() -> t.register(MemoryRegistration.of(0x10_0000_0000L, 4096, 1, 1)))
        .as("the 4,097th live registration").isInstanceOf(IllegalStateException.class);
    t.deregister(last);
    assertThat(t.register(MemoryRegistration.of(0x10_0000_0000L, 4096, 1, 1)).valid())
        .as("a registration after one was deregistered").isTrue();
  }

  @Test
  void aRegistrationTheMemoryCannotHoldIsRefusedAndChangesNothing() {
    Fixture f = new Fixture();
    Fixture twin = new Fixture();
    long allocated = f.memory.allocatedBytes();
    int allocations = f.memory.allocations.size();
    long writes = f.memory.writes;
    // A whole 2^40-byte registration: its frames alone are the memory's capacity, which the fixture has used some of.
    MemoryRegistration tooLarge = MemoryRegistration.of(0, NetworkAddress.MAX_OFFSET + 1, 1, 1);
    assertThatThrownBy(() -> f.translator.register(tooLarge))
        .as("a registration larger than the memory left")
        .isInstanceOfAny(IllegalArgumentException.class, IllegalStateException.class);
    assertThat(f.memory.allocatedBytes()).as("memory reserved after the refusal").isEqualTo(allocated);
    assertThat(f.memory.writes).as("memory writes made by the refused registration").isEqualTo(writes);
    assertThat(f.memory.allocations).as("allocations made by the refused registration").hasSize(allocations);
    MemoryRegistration next = MemoryRegistration.of(0x9_0000_0000L, 8192, 1, 1);
    assertThat(f.register(next).descriptor())
        .as("the next registration is the one a translator that never saw the refused call makes")
        .isEqualTo(twin.register(next).descriptor());
  }

  @Test
  void timedTranslationsCompleteOnceEachAsTheUntimedOnesSay() {
    for (long seed : new long[] {3, 4}) {
      Fixture f = new Fixture();
      SplittableRandom r = new SplittableRandom(seed);
      List<Request> requests = new ArrayList<>();
      for (int i = 0; i < 600; i++) {
        MemoryDomainDescriptor d = f.registered.get(r.nextInt(f.registered.size())).descriptor();
        requests.add(Request.random(d, r));
      }
      Completions done = submitAll(f, requests, r.split());
      f.loop.run();
      done.assertEachCompletedOnceAsUntimed(f);
    }
  }

  @Test
  void fastHitsAgreeWithTheUntimedTranslations() {
    Fixture f = new Fixture();
    SplittableRandom r = new SplittableRandom(12);
    TranslationHit hit = new TranslationHit();
    long writesBefore = f.memory.writes;
    int fastHits = 0;
    for (int i = 0; i < 400; i++) {
      MemoryDomainDescriptor d = f.registered.get(r.nextInt(f.registered.size())).descriptor();
      Request q = Request.random(d, r);
      // the same request first through the timed path, to completion, so that a cache has seen it
      submitAll(f, List.of(q), r.split());
      f.loop.run();
      long asked = f.loop.now();
      boolean fast = f.translator.translateHit(TranslationClient.values()[i % 4], q.mdh(), q.offset(), q.length(),
          q.access(), q.tag(), q.key(), hit);
      if (fast) {
        fastHits++;
        TranslationResult expected = q.now(f.translator);
        assertThat(expected.status()).as("untimed outcome of %s, which got a fast hit", q).isEqualTo(Status.OK);
        assertThat(hit.physicalAddress()).as("physical address of the fast hit for %s", q)
            .isEqualTo(expected.physicalAddress());
        assertThat(expected.contiguousBytes()).as("contiguous bytes of %s, which got a fast hit", q)
            .isGreaterThanOrEqualTo(q.length());
        assertThat(hit.completesAtPs()).as("completion time of the fast hit for %s", q).isGreaterThanOrEqualTo(asked);
      }
      f.loop.run();
    }
    assertThat(f.memory.writes - writesBefore).as("host memory writes while translating").isZero();
    if (offersFastHits()) {
      assertThat(fastHits).as("fast hits among 400 requests each repeated right after its timed translation")
          .isPositive();
    }
  }

  @Test
  void sameRequestsGiveTheSameCompletions() {
    List<String> first = runLog(8);
    assertThat(runLog(8)).as("completions of a second identical run").isEqualTo(first);
  }

  private List<String> runLog(long seed) {
    Fixture f = new Fixture();
    SplittableRandom r = new SplittableRandom(seed);
    List<Request> requests = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      requests.add(Request.random(f.registered.get(r.nextInt(f.registered.size())).descriptor(), r));
    }
    Completions done = submitAll(f, requests, r.split());
    f.loop.run();
    return done.log;
  }

  // ------------------------------------------------------------------------------------------------- machinery

  private record Completion(long time, Status status, long physicalAddress, int contiguousBytes, Object ref,
      long arg) {}

  /** Counts calls; for requests that must never complete. */
  private static final class RecordingListener implements TranslationListener {
    int count;

    @Override
    public void onTranslated(long nowPs, Status status, long physicalAddress, int contiguousBytes, Object ref,
        long arg) {
      count++;
    }
  }

  /** The completions of a batch of requests, by request index. */
  private final class Completions implements TranslationListener {
    final List<Request> requests;
    final List<Completion>[] byIndex;
    final long[] askedAt;
    final TranslationResult[] expected;
    final Object[] refs;
    final List<String> log = new ArrayList<>();
    final DeterministicEventLoop loop;
    final List<String> violations = new ArrayList<>();
    boolean translating;

    @SuppressWarnings("unchecked")
    Completions(List<Request> requests, DeterministicEventLoop loop) {
      this.requests = requests;
      this.loop = loop;
      this.byIndex = new List[requests.size()];
      this.askedAt = new long[requests.size()];
      this.expected = new TranslationResult[requests.size()];
      this.refs = new Object[requests.size()];
      for (int i = 0; i < byIndex.length; i++) {
        byIndex[i] = new ArrayList<>();
        refs[i] = "request " + i;
      }
    }

    @Override
    public void onTranslated(long nowPs, Status status, long physicalAddress, int contiguousBytes, Object ref,
        long arg) {
      if (translating) {
        violations.add("listener called from inside translate() for arg " + arg);
      }
      if (nowPs != loop.now()) {
        violations.add("completion time " + nowPs + " ps differs from the scheduler's now() " + loop.now());
      }
      if (arg < 0 || arg >= byIndex.length) {
        violations.add("completion with an arg nobody gave: " + arg);
        return;
      }
      byIndex[(int) arg].add(new Completion(nowPs, status, physicalAddress, contiguousBytes, ref, arg));
      log.add(nowPs + " #" + arg + " " + status + " 0x" + Long.toHexString(physicalAddress) + " +" + contiguousBytes);
    }

    void assertEachCompletedOnceAsUntimed(Fixture f) {
      assertThat(violations).as("violations of the translation contract").isEmpty();
      for (int i = 0; i < byIndex.length; i++) {
        Request q = requests.get(i);
        assertThat(byIndex[i]).as("completions of %s", q).hasSize(1);
        Completion c = byIndex[i].get(0);
        assertThat(c.ref()).as("ref of %s", q).isSameAs(refs[i]);
        assertThat(c.time()).as("completion time of %s", q).isGreaterThanOrEqualTo(askedAt[i]);
        assertThat(c.status()).as("status of timed %s (translateNow said %s)", q, expected[i])
            .isEqualTo(expected[i].status());
        if (c.status() == Status.OK) {
          assertThat(c.physicalAddress()).as("physical address of timed %s", q)
              .isEqualTo(expected[i].physicalAddress());
          assertThat(c.contiguousBytes()).as("contiguous bytes of timed %s", q)
              .isEqualTo(expected[i].contiguousBytes());
        }
      }
    }
  }

  /**
   * Submits requests in bursts at random times (several at the same instant, each submission from its own event), and
   * records what translateNow said at submission.
   */
  private Completions submitAll(Fixture f, List<Request> requests, SplittableRandom r) {
    Completions c = new Completions(requests, f.loop);
    long t = f.loop.now();
    for (int i = 0; i < requests.size(); i++) {
      if (r.nextInt(8) == 0) {
        t += r.nextLong(1, 2_000_000);
      }
      int index = i;
      f.loop.scheduleAt(t, (now, ref, arg) -> {
        Request q = requests.get(index);
        c.askedAt[index] = now;
        c.expected[index] = q.now(f.translator);
        c.translating = true;
        try {
          f.translator.translate(TranslationClient.values()[index % 4], q.mdh(), q.offset(), q.length(), q.access(),
              q.tag(), q.key(), c, c.refs[index], index);
        } finally {
          c.translating = false;
        }
      }, null, 0);
    }
    return c;
  }
}
