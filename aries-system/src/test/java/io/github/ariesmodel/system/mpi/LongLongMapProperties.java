package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/**
 * {@link LongLongMap}, the map of the call sites senders named ({@code Rank.sendersSites}), against
 * {@link java.util.HashMap}: every put, get and remove of a random sequence answers as the reference does, whatever the
 * keys' spread (a few keys that collide and are removed and put again, keys of {@code Rank}'s shape, sender << 40 |
 * sequence, and any non-negative key), and the sizes agree; senders on threads of their own, putting while a receiver
 * removes, lose nothing.
 */
class LongLongMapProperties {

  /** A key of the sequence's kind: from a pool of a few, of Rank's shape, or any non-negative long. */
  private static long key(SplittableRandom rnd, int kind, long[] pool) {
    return switch (kind) {
      case 0 -> pool[rnd.nextInt(pool.length)];
      case 1 -> (long) rnd.nextInt(64) << 40 | rnd.nextInt(200);
      default -> rnd.nextLong(Long.MAX_VALUE);
    };
  }

  @Test
  void everyOperationAnswersAsAHashMapDoes() {
    qt().withExamples(300).forAll(longs().all(), integers().between(0, 2)).checkAssert((seed, kind) -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      long[] pool = new long[1 + rnd.nextInt(40)];
      for (int i = 0; i < pool.length; i++) {
        pool[i] = rnd.nextInt(4) == 0 ? i : rnd.nextLong(Long.MAX_VALUE);
      }
      LongLongMap map = new LongLongMap();
      Map<Long, Long> reference = new HashMap<>();
      List<Long> seen = new ArrayList<>();
      for (int step = 0; step < 2000; step++) {
        // a key seen before half of the time, so that removes find their entries
        long k = !seen.isEmpty() && rnd.nextBoolean() ? seen.get(rnd.nextInt(seen.size())) : key(rnd, kind, pool);
        int op = rnd.nextInt(10);
        String what = "step " + step + " key " + k;
        if (op < 4) {
          long v = rnd.nextLong();
          map.put(k, v);
          reference.put(k, v);
          seen.add(k);
        } else if (op < 8) {
          Long r = reference.remove(k);
          assertThat(map.remove(k, -7)).as(what).isEqualTo(r == null ? -7 : r);
        } else {
          Long r = reference.get(k);
          assertThat(map.get(k, -7)).as(what).isEqualTo(r == null ? -7 : r);
        }
        assertThat(map.size()).as(what).isEqualTo(reference.size());
        assertThat(map.isEmpty()).as(what).isEqualTo(reference.isEmpty());
      }
      for (long k : seen) {
        assertThat(map.get(k, -7)).isEqualTo(reference.getOrDefault(k, -7L));
      }
      for (Map.Entry<Long, Long> e : reference.entrySet()) {
        assertThat(map.remove(e.getKey(), -7)).isEqualTo(e.getValue());
      }
      assertThat(map.isEmpty()).isTrue();
    });
  }

  @Test
  void aNegativeKeyIsRefusedOnPutAndAbsentOtherwise() {
    LongLongMap map = new LongLongMap();
    assertThatThrownBy(() -> map.put(-1, 5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key must be >= 0 but was -1");
    assertThat(map.get(-1, 3)).isEqualTo(3);
    assertThat(map.remove(Long.MIN_VALUE, 3)).isEqualTo(3);
    assertThat(map.isEmpty()).isTrue();
  }

  @Test
  void onceGrownItAllocatesNothing() {
    java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
    org.junit.jupiter.api.Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported()
        && threads.isThreadAllocatedMemoryEnabled());
    LongLongMap map = new LongLongMap();
    // a receiver's pattern: 64 senders with up to 8 messages each in flight, taken in order
    int senders = 64;
    int inFlight = 8;
    long total = 0;
    long before = 0;
    for (int pass = 0; pass < 2; pass++) {
      if (pass == 1) {
        before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
      }
      for (long seq = 0; seq < 20_000; seq++) {
        for (int s = 0; s < senders; s++) {
          map.put((long) s << 40 | seq, seq + 1);
          if (seq >= inFlight) {
            total += map.remove((long) s << 40 | (seq - inFlight), 0);
          }
        }
      }
      for (long seq = 20_000 - inFlight; seq < 20_000; seq++) {
        for (int s = 0; s < senders; s++) {
          total += map.remove((long) s << 40 | seq, 0);
        }
      }
    }
    long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
    assertThat(map.isEmpty()).isTrue();
    assertThat(total).isEqualTo(2L * senders * (20_000L * 20_001 / 2));
    // 1,280,000 puts and removes: a Map<Long, Long> boxed at least 16 bytes a key, tens of megabytes (the bound
    // leaves room for what the measurement itself may allocate)
    assertThat(allocated).isLessThan(64 * 1024);
  }

  @Test
  void sendersOnThreadsOfTheirOwnLoseNothingWhileTheReceiverRemoves() throws InterruptedException {
    int senders = 4;
    int perSender = 20_000;
    LongLongMap map = new LongLongMap();
    // each sender's count of messages put, published after its put, as a message arrives after its send
    AtomicLongArray sent = new AtomicLongArray(senders);
    List<Thread> threads = new ArrayList<>();
    for (int s = 0; s < senders; s++) {
      int sender = s;
      threads.add(new Thread(() -> {
        for (long seq = 0; seq < perSender; seq++) {
          map.put((long) sender << 40 | seq, seq * 31 + sender + 1);
          sent.set(sender, seq + 1);
        }
      }));
    }
    threads.forEach(Thread::start);
    long[] received = new long[senders];
    long wrong = 0;
    for (int done = 0; done < senders; ) {
      done = 0;
      for (int s = 0; s < senders; s++) {
        long upTo = sent.get(s);
        for (; received[s] < upTo; received[s]++) {
          long seq = received[s];
          if (map.remove((long) s << 40 | seq, 0) != seq * 31 + s + 1) {
            wrong++;
          }
        }
        done += received[s] == perSender ? 1 : 0;
      }
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(wrong).isZero();
    assertThat(map.isEmpty()).isTrue();
    assertThat(map.size()).isZero();
  }
}
