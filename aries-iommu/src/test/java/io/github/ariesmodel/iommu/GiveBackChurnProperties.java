package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationHit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Registrations come and go through {@link Iommu#deregisterAndFree} (whose bytes later registrations take, page
 * tables included) while timed translations and their PTE fetches are under way, in both page-table modes: every
 * timed translation that completes OK, every fast hit and every untimed translation of a live registration reaches
 * {@code physicalBase + offset} of that registration, and a timed one completes OK only for the registration it was
 * asked for. Until stop 74 a line whose fetch was under way at the deregistration outlived the tables it was read
 * from, and a later owner's walk read it (a wrong frame, status OK).
 */
class GiveBackChurnProperties {

  private static final PageSize[] SIZES =
      {PageSize.SIZE_4K, PageSize.SIZE_4K, PageSize.SIZE_4K, PageSize.SIZE_4K, PageSize.SIZE_2M, new PageSize(23)};

  @Test
  void translationsReachTheirOwnFramesWhileFreedMemoryIsTakenAgainPerRegistration() {
    qt().withExamples(150).forAll(longs().all()).checkAssert(seed -> run(seed, PageTables.PER_REGISTRATION));
  }

  @Test
  void translationsReachTheirOwnFramesWhileFreedMemoryIsTakenAgainPerContext() {
    qt().withExamples(150).forAll(longs().all()).checkAssert(seed -> run(seed, PageTables.PER_CONTEXT));
  }

  /** Seed 15 translated to another registration's frame with status OK before stop 74's fix. */
  @Test
  void seed15() {
    run(15, PageTables.PER_REGISTRATION);
  }

  /** What a timed translation was asked for: the registration (handle and generation) and the address expected. */
  private record Asked(int mdh, int generation, long offset, long expected) {}

  private static void run(long seed, PageTables mode) {
    SplittableRandom rnd = new SplittableRandom(seed);
    IommuConfig config = IommuConfig.builder().pageTables(mode).ways(1 + rnd.nextInt(4)).sets(1 << rnd.nextInt(6))
        .fetchBuffers(1 + rnd.nextInt(4)).maxInFlight(1 + rnd.nextInt(8)).prefetch(rnd.nextBoolean()).build();
    Rig rig = new Rig(config, 1L << 36);
    Iommu io = rig.iommu;
    List<Integer> live = new ArrayList<>();
    Map<Long, Asked> asked = new HashMap<>();
    TranslationHit hit = new TranslationHit();
    long id = 0;
    for (int step = 0; step < 120; step++) {
      int op = rnd.nextInt(20);
      if ((op < 4 && live.size() < 8) || live.isEmpty()) {
        if (rnd.nextBoolean()) {
          rig.loop.run(); // so that memory freed while walks were under way goes back now, to this registration
        }
        PageSize ps = SIZES[rnd.nextInt(SIZES.length)];
        // Mostly a few pages, so that a registration often takes bytes whose tables another's were.
        long length = 1 + rnd.nextLong((ps.isHuge() ? 2 : 1 + rnd.nextInt(rnd.nextInt(8) == 0 ? 1100 : 4)) * ps.bytes());
        live.add(io.register(new MemoryRegistration(0, length, ps, true, Rig.TAG, Rig.KEY, rnd.nextInt(2),
            MemoryDomainDescriptor.NO_CQ, rnd.nextBoolean())).mdh());
      } else if (op < 6) {
        int mdh = live.remove(rnd.nextInt(live.size()));
        if (rnd.nextInt(4) == 0) {
          io.deregister(mdh);
        } else {
          io.deregisterAndFree(mdh, rig.memory);
        }
      } else if (op < 17) {
        int mdh = live.get(rnd.nextInt(live.size()));
        MemoryDomainDescriptor d = io.descriptor(mdh).orElseThrow();
        long pageBytes = d.pageSize().bytes();
        long offset = rnd.nextBoolean()
            ? rnd.nextLong((d.length() + pageBytes - 1) / pageBytes) * pageBytes % d.length()
            : rnd.nextLong(d.length());
        int length = (int) Math.min(8, d.length() - offset);
        long expected = io.physicalBase(mdh) + offset;
        TranslationResult now = io.translateNow(mdh, offset, length, AccessKind.READ, Rig.TAG, Rig.KEY);
        assertThat(now.status()).as("untimed, mdh %d offset %d", mdh, offset).isEqualTo(Status.OK);
        assertThat(now.physicalAddress()).as("untimed, mdh %d offset %d", mdh, offset).isEqualTo(expected);
        if (rnd.nextInt(3) == 0
            && io.translateHit(TranslationClient.NETWORK_REQUEST, mdh, offset, length, AccessKind.READ, Rig.TAG,
                Rig.KEY, hit)) {
          assertThat(hit.physicalAddress()).as("fast hit, mdh %d offset %d", mdh, offset).isEqualTo(expected);
        } else {
          asked.put(id, new Asked(mdh, io.mdhGeneration(mdh), offset, expected));
          rig.translate(TranslationClient.NETWORK_REQUEST, mdh, offset, length, AccessKind.READ, id++);
          if (rnd.nextInt(3) == 0) { // while its walk is under way
            live.remove((Integer) mdh);
            io.deregisterAndFree(mdh, rig.memory);
          }
        }
      } else {
        if (rnd.nextBoolean()) {
          rig.loop.run();
        } else {
          rig.loop.runUntil(rig.loop.now() + rnd.nextLong(1_000_000));
        }
      }
      check(rig, io, asked);
    }
    rig.loop.run();
    check(rig, io, asked);
    assertThat(asked).as("translations never completed").isEmpty();
  }

  /** Checks the timed translations completed since the last look. */
  private static void check(Rig rig, Iommu io, Map<Long, Asked> asked) {
    for (Rig.Done done : rig.done) {
      Asked a = asked.remove(done.id());
      if (done.status() == Status.OK) {
        assertThat(done.physical()).as("timed %s", a).isEqualTo(a.expected());
        assertThat(io.descriptor(a.mdh()).orElseThrow().valid() && io.mdhGeneration(a.mdh()) == a.generation())
            .as("timed %s completed OK, so its registration was live", a).isTrue();
      } else {
        assertThat(done.status()).as("timed %s", a).isEqualTo(Status.INVALID_MDH);
      }
    }
    rig.done.clear();
  }
}
