package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The AMO cache changes timing, never values: random programs of AMOs (every operation, 32 and 64 bits, cached and
 * uncached commands interleaved on a few words, several in flight at once), PUTs and GETs of those words, with host
 * reads of the words between batches, give the same fetched values, GET data, host reads and final memory as the
 * same program with every AMO uncached.
 */
class AmoCacheProperties {

  private static final AmoOperation[] FORMS = AmoOperation.allForms();
  /** The words the programs touch: three in one 64-byte line, one in another page. */
  private static final long[] WORDS = {0, 8, 16, 4096 + 24};
  private static final long[] OPERANDS = {0, 1, -1, 2, 5, 0xFFFF_FFFFL, Long.MIN_VALUE, Long.MAX_VALUE,
      Double.doubleToRawLongBits(1.5), Float.floatToRawIntBits(2.25f)};

  /** What a program observed. */
  private record Outcome(List<Long> observed, long cacheHits) {}

  /**
   * Runs the program a seed describes on a two-node cluster (node 1 posts to node 0).
   *
   * @param allUncached whether to replace every cached command by its uncached twin
   * @param flushBeforeReads whether to invalidate the target's AMO cache before each host read (for write-back on
   *     eviction, under which host memory is stale until then)
   */
  private static Outcome run(long seed, int batches, AmoCacheConfig cache, boolean allUncached,
      boolean flushBeforeReads) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Cluster c = new Cluster(2, NicConfig.defaults().withAmoCache(cache));
    MemoryDomainDescriptor target = c.register(0, 8192);
    MemoryDomainDescriptor local = c.register(1, 8192);
    List<Long> observed = new ArrayList<>();
    long id = 0;
    for (int b = 0; b < batches; b++) {
      c.events.clear();
      int n = rnd.nextInt(1, 9);
      long firstId = id;
      List<Integer> getSlots = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        long word = WORDS[rnd.nextInt(WORDS.length)];
        int kind = rnd.nextInt(10);
        if (kind == 0) {
          int slot = getSlots.size();
          getSlots.add(slot);
          c.nics[1].post(Post.get(id++, local.mdh(), 8L * slot, NetworkAddress.of(0, target.mdh(), word), 8));
        } else if (kind == 1) {
          long src = 1024 + 8L * k;
          int len = rnd.nextBoolean() ? 8 : 4;
          long at = word + (len == 4 && rnd.nextBoolean() ? 4 : 0);
          c.write(1, local.mdh(), src, le(OPERANDS[rnd.nextInt(OPERANDS.length)] ^ rnd.nextLong(16)));
          c.nics[1].post(Post.put(id++, local.mdh(), src, NetworkAddress.of(0, target.mdh(), at), len));
        } else {
          AmoOperation op = FORMS[rnd.nextInt(FORMS.length)];
          long at = word + (op.widthBits() == 32 && rnd.nextBoolean() ? 4 : 0);
          long a = OPERANDS[rnd.nextInt(OPERANDS.length)];
          long o2 = OPERANDS[rnd.nextInt(OPERANDS.length)];
          c.nics[1].post(Post.amo(id++, allUncached ? op.uncached() : op, NetworkAddress.of(0, target.mdh(), at),
              a, o2));
        }
      }
      c.run();
      c.events(1).stream().filter(e -> e.postId() >= firstId).sorted(Comparator.comparingLong(CompletionEvent::postId))
          .forEach(e -> {
            observed.add(e.postId());
            observed.add(e.userData());
            observed.add((long) e.status().ordinal());
          });
      for (int slot : getSlots) {
        observed.add(c.readLong(1, local.mdh(), 8L * slot));
      }
      if (flushBeforeReads) {
        c.nics[0].invalidateAmoCache();
        c.run(); // the write-backs cross the host link
      }
      for (long w : WORDS) {
        observed.add(c.readLong(0, target.mdh(), w));
      }
    }
    return new Outcome(observed, c.nics[0].statistics().amoCacheHits());
  }

  private static byte[] le(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }

  @Test
  void cachedAmosGiveExactlyWhatUncachedAmosGive() {
    long[] hits = {0};
    qt().withExamples(150)
        .forAll(longs().all(), integers().between(1, 12))
        .check((seed, batches) -> {
          Outcome cached = run(seed, batches, AmoCacheConfig.defaults(), false, false);
          Outcome uncached = run(seed, batches, AmoCacheConfig.defaults(), true, false);
          hits[0] += cached.cacheHits();
          return cached.observed().equals(uncached.observed()) && uncached.cacheHits() == 0;
        });
    assertThat(hits[0]).as("the programs exercised the cache").isPositive();
  }

  @Test
  void aSmallCacheThatEvictsGivesTheSameValuesToo() {
    qt().withExamples(100)
        .forAll(longs().all(), integers().between(1, 12))
        .check((seed, batches) -> run(seed, batches, AmoCacheConfig.defaults().withEntries(2), false, false)
            .observed().equals(run(seed, batches, AmoCacheConfig.off(), false, false).observed()));
  }

  @Test
  void underEvictionWriteBackTheNicSeesTheSameValuesAndMemoryCatchesUpOnInvalidation() {
    AmoCacheConfig lazy = AmoCacheConfig.defaults().withEntries(3).withWriteBack(AmoWriteBack.EVICTION);
    qt().withExamples(100)
        .forAll(longs().all(), integers().between(1, 12))
        .check((seed, batches) -> run(seed, batches, lazy, false, true).observed()
            .equals(run(seed, batches, AmoCacheConfig.off(), false, false).observed()));
  }
}
