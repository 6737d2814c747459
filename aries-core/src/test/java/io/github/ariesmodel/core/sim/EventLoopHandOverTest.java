package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The loop's caller check ({@code checkCaller}, for components that change state before they schedule) and its
 * hand-over during a run (found by stop 77's concurrency hunt).
 */
class EventLoopHandOverTest {

  private static Throwable onThread(String name, Runnable r) throws InterruptedException {
    AtomicReference<Throwable> seen = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        r.run();
      } catch (Throwable e) {
        seen.set(e);
      }
    }, name);
    t.start();
    t.join();
    return seen.get();
  }

  @Test
  void checkCallerRefusesAnotherThreadAndPassesTheOwnerWithoutClaimingAnUnownedLoop() throws Exception {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    assertThat(onThread("early", () -> loop.checkCaller("Nic.post"))).isNull();
    assertThat(loop.owner()).isNull(); // passing does not make the caller the owner: scheduling does
    loop.bindOwner(Thread.currentThread());
    loop.checkCaller("Nic.post");
    Throwable t = onThread("intruder", () -> loop.checkCaller("Nic.post"));
    assertThat(t).isInstanceOf(IllegalStateException.class).hasMessageContaining("(Nic.post)")
        .hasMessageContaining("from thread \"intruder\"").hasMessageContaining("(bindOwner hands it over)");
  }

  @Test
  void anEnginesGroupNamesBindControllerAsTheHandOver() throws Exception {
    PartitionedEngine engine = PartitionedEngine.of(2, 1_000, 1);
    try {
      engine.group(0).scheduleAt(1, (now, ref, arg) -> { }, null, 0);
      engine.runUntil(Long.MAX_VALUE);
      Throwable t = onThread("intruder", () -> engine.group(0).checkCaller("Nic.post"));
      assertThat(t).isInstanceOf(IllegalStateException.class).hasMessageContaining("(Nic.post)")
          .hasMessageContaining("PartitionedEngine.bindController hands it over");
      Throwable s = onThread("intruder", () -> engine.group(1).scheduleAt(5, (now, ref, arg) -> { }, null, 0));
      assertThat(s).hasMessageContaining("PartitionedEngine.bindController").hasMessageNotContaining("(bindOwner");
    } finally {
      engine.close();
    }
  }

  /** Before the fix another thread's bindOwner took the loop from the thread running it: both runs then failed. */
  @Test
  void anotherThreadCannotTakeTheLoopWhileItsOwnerRunsIt() throws Exception {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch tried = new CountDownLatch(1);
    AtomicReference<Throwable> seen = new AtomicReference<>();
    loop.scheduleAt(1, (now, ref, arg) -> {
      running.countDown();
      try {
        tried.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      loop.scheduleAt(2, (n, r, a) -> { }, null, 0); // the owner still owns it
    }, null, 0);
    Thread thief = new Thread(() -> {
      try {
        running.await();
        loop.bindOwner(Thread.currentThread());
      } catch (Throwable e) {
        seen.set(e);
      } finally {
        tried.countDown();
      }
    }, "thief");
    thief.start();
    assertThat(loop.run()).isEqualTo(2);
    thief.join();
    assertThat(seen.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("\"thief\" called bindOwner")
        .hasMessageContaining("is running");
    assertThat(loop.owner()).isSameAs(Thread.currentThread());
    // between runs any thread may still bind (set-up, after a join)
    assertThat(onThread("next", () -> loop.bindOwner(null))).isNull();
    assertThat(loop.owner()).isNull();
  }

  @Test
  void anotherThreadCannotTakeTheLoopDuringRunWhile() throws Exception {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    AtomicReference<Throwable> seen = new AtomicReference<>();
    loop.scheduleAt(1, (now, ref, arg) -> {
      try {
        seen.set(onThread("thief", () -> loop.bindOwner(null)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, null, 0);
    loop.runWhile(() -> true);
    assertThat(seen.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("called bindOwner");
    assertThat(loop.owner()).isSameAs(Thread.currentThread());
  }
}
