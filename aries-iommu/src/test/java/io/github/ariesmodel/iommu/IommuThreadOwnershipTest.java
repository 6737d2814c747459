package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An IOMMU is used from the thread that owns its clock (found by stop 77's concurrency hunt): a translation from
 * another thread is refused before the walk starts, reading the statistics writes nothing, and the entry points that
 * change state without scheduling are guarded against overlapping calls.
 */
class IommuThreadOwnershipTest {

  private static Throwable onAnotherThread(Runnable call) throws InterruptedException {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        call.run();
      } catch (Throwable e) {
        thrown.set(e);
      }
    }, "second");
    t.start();
    t.join();
    return thrown.get();
  }

  @Test
  void aTranslationFromAnotherThreadIsRefusedBeforeItLeavesALinePending() throws Exception {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    Iommu io = new Iommu(new SparsePhysicalMemory(1L << 30), loop, IommuConfig.defaults());
    MemoryDomainDescriptor d = io.register(MemoryRegistration.of(0x10_0000L, 1 << 20, 1, 1));
    List<String> done = new ArrayList<>();
    TranslationListener l = (now, st, pa, cb, ref, arg) -> done.add(arg + ":" + st);
    io.translate(TranslationClient.LOCAL_READ, d.mdh(), 0, 8, AccessKind.READ, 1, 1, l, null, 1);
    loop.run(); // the main thread owns the loop
    long translations = io.statistics().total().translations();

    Throwable refused = onAnotherThread(() -> io.translate(TranslationClient.LOCAL_READ, d.mdh(), 8192 * 4, 8,
        AccessKind.READ, 1, 1, l, null, 2));

    assertThat(refused).isInstanceOf(IllegalStateException.class).hasMessageContaining("Iommu.translate")
        .hasMessageContaining("\"second\"");
    assertThat(io.inFlight()).isZero();
    assertThat(io.statistics().total().translations()).isEqualTo(translations);
    // the same page from the owner misses, walks and completes: before the fix its line stayed pending for good,
    // and this translation waited on it for ever
    io.translate(TranslationClient.LOCAL_READ, d.mdh(), 8192 * 4, 8, AccessKind.READ, 1, 1, l, null, 3);
    loop.run();
    assertThat(done).containsExactly("1:OK", "3:OK");
    assertThat(io.inFlight()).isZero();
    assertThat(io.queued()).isZero();
  }

  /**
   * A snapshot is read-only: before the fix it moved the pending fast hits into the counters (on the reading thread,
   * during a run on another: a race with the run's own increments that changed its final counts).
   */
  @Test
  void aSnapshotCountsThePendingFastHitsWithoutWritingThem() {
    IommuCounters c = new IommuCounters();
    c.countFastHit(TranslationClient.NETWORK_REQUEST, false, 100);
    c.countFastHit(TranslationClient.NETWORK_REQUEST, true, 100);
    c.count(TranslationClient.NETWORK_REQUEST, IommuCounters.Event.MISSES);
    long[] before = eventsOf(c);

    IommuStatistics s = IommuCounters.snapshot(c, 0, 0, 0);

    TranslationStatistics t = s.client(TranslationClient.NETWORK_REQUEST);
    assertThat(t.translations()).isEqualTo(2);
    assertThat(t.hits()).isEqualTo(2);
    assertThat(t.misses()).isEqualTo(1);
    assertThat(t.oneLevelWalks()).isEqualTo(1);
    assertThat(t.twoLevelWalks()).isEqualTo(1);
    assertThat(t.totalLatencyPs()).isEqualTo(200);
    assertThat(s.total().hits()).isEqualTo(2);
    assertThat(eventsOf(c)).containsExactly(before);
    assertThat(c.get(TranslationClient.NETWORK_REQUEST, IommuCounters.Event.HITS)).isEqualTo(2);
    assertThat(eventsOf(c)).containsExactly(before);
    // counting on after the reads gives what counting without them gives
    c.countFastHit(TranslationClient.NETWORK_REQUEST, false, 100);
    assertThat(IommuCounters.snapshot(c, 0, 0, 0).client(TranslationClient.NETWORK_REQUEST).hits()).isEqualTo(3);
  }

  /** The counters' own array of one client's events (white-box: what a read must leave as it is). */
  private static long[] eventsOf(IommuCounters c) {
    try {
      java.lang.reflect.Field f = IommuCounters.class.getDeclaredField("events");
      f.setAccessible(true);
      return ((long[][]) f.get(c))[TranslationClient.NETWORK_REQUEST.ordinal()].clone();
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void entryPointsThatChangeStateWithoutSchedulingAreGuardedAgainstOverlappingUse() throws Exception {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    SparsePhysicalMemory real = new SparsePhysicalMemory(1L << 30);
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    HostMemory mem = (HostMemory) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {HostMemory.class},
        (p, m, a) -> {
          if (m.getName().startsWith("write") && Thread.currentThread().getName().equals("holder")
              && inside.getCount() > 0) {
            inside.countDown();
            release.await();
          }
          try {
            return m.invoke(real, a);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    Iommu io = new Iommu(mem, loop, IommuConfig.defaults());
    MemoryDomainDescriptor d = io.register(MemoryRegistration.of(0x10_0000L, 1 << 20, 1, 1));
    io.translate(TranslationClient.LOCAL_READ, d.mdh(), 0, 8, AccessKind.READ, 1, 1, (n, s, pa, c, r, g) -> { },
        null, 0);
    loop.run();
    Thread holder = new Thread(() -> io.register(MemoryRegistration.of(0x40_0000L, 1 << 20, 1, 1)), "holder");
    holder.start();
    inside.await();
    List<String> accepted = new ArrayList<>();
    try {
      String[] names = {"invalidateAll", "invalidateMdd", "invalidateRange", "unmapPage", "resetStatistics"};
      Runnable[] calls = {
        io::invalidateAll,
        () -> io.invalidateMdd(d.mdh()),
        () -> io.invalidateRange(d.mdh(), 0, 4096),
        () -> io.unmapPage(d.mdh(), 8192),
        io::resetStatistics,
      };
      for (int i = 0; i < calls.length; i++) {
        try {
          calls[i].run();
          accepted.add(names[i]);
        } catch (IllegalStateException e) {
          assertThat(e).hasMessageContaining("is not thread-safe").hasMessageContaining("\"holder\"");
        }
      }
      // a snapshot writes nothing: it is answered during another thread's use, and that use goes on unharmed (it held
      // the guard for a while, and a reader on another thread made the running job's next translation fail)
      assertThat(io.statistics().total().translations()).isEqualTo(1);
    } finally {
      release.countDown();
      holder.join();
    }
    assertThat(accepted).isEmpty();
  }
}
