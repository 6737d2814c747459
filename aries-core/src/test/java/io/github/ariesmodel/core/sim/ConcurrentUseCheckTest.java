package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The guard against two threads using a component at once: overlapping calls fail fast naming both threads;
 * nested calls and hand-over between threads (one at a time) pass. No timing: the overlap is made with joins.
 */
class ConcurrentUseCheckTest {

  @Test
  void anotherThreadEnteringWhileOneIsInsideFailsNamingBoth() throws InterruptedException {
    ConcurrentUseCheck check = new ConcurrentUseCheck("Nic of node 3");
    assertThat(check.enter()).isTrue();
    assertThat(check.enter()).as("nested call of the same thread").isFalse();
    assertThat(enterOn("intruder", check)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Nic of node 3 is not thread-safe")
        .hasMessageContaining("\"intruder\"").hasMessageContaining("\"" + Thread.currentThread().getName() + "\"");
    check.exit();
  }

  @Test
  void theThreadThatEnteredLastEntersAgainAndIsStillGuarded() throws InterruptedException {
    // The first entry is a compare-and-set; the next ones, by the thread that entered last, an opaque store.
    ConcurrentUseCheck check = new ConcurrentUseCheck("Iommu");
    for (int i = 0; i < 3; i++) {
      assertThat(check.enter()).as("outer call %d", i).isTrue();
      assertThat(check.enter()).as("nested call %d", i).isFalse();
      assertThat(enterOn("intruder-" + i, check)).as("intruder %d", i).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("\"intruder-" + i + "\"")
          .hasMessageContaining("\"" + Thread.currentThread().getName() + "\"");
      check.exit();
    }
    // Another thread enters and ends without leaving: the thread that had entered last is refused now.
    assertThat(enterOn("holder", check)).isNull();
    assertThatThrownBy(check::enter).isInstanceOf(IllegalStateException.class).hasMessageContaining("\"holder\"");
  }

  @Test
  void handingOverBetweenThreadsOneAtATimePasses() throws InterruptedException {
    ConcurrentUseCheck check = new ConcurrentUseCheck("Iommu");
    for (int i = 0; i < 3; i++) {
      AtomicReference<Boolean> entered = new AtomicReference<>();
      Thread t = new Thread(() -> {
        entered.set(check.enter());
        check.exit();
      });
      t.start();
      t.join();
      assertThat(entered.get()).isTrue();
    }
    assertThat(check.enter()).isTrue();
    check.exit();
  }

  @Test
  void aTornPageTableFailsInsteadOfSpinning() throws Exception {
    SparsePhysicalMemory m = new SparsePhysicalMemory(1L << 30);
    java.lang.reflect.Field keys = SparsePhysicalMemory.class.getDeclaredField("keys");
    keys.setAccessible(true);
    long[] k = (long[]) keys.get(m);
    java.util.Arrays.fill(k, 123_456L); // what a reader may see mid-rehash: no empty slot, no match
    assertThatThrownBy(() -> m.readLong(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not thread-safe");
  }

  @Test
  void aRefusedIntruderLeavesTheHolderInsideAndTheNextThreadEntersAfterItsExit() throws InterruptedException {
    ConcurrentUseCheck check = new ConcurrentUseCheck("Iommu");
    assertThat(check.enter()).isTrue();
    assertThat(enterOn("intruder", check)).isInstanceOf(IllegalStateException.class);
    assertThat(check.enter()).as("the holder is still inside: a nested call").isFalse();
    check.exit();
    AtomicReference<Boolean> entered = new AtomicReference<>();
    Thread next = new Thread(() -> {
      entered.set(check.enter());
      check.exit();
    }, "next");
    next.start();
    next.join();
    assertThat(entered.get()).as("the exit (a release store) is seen by a thread that starts after it").isTrue();
  }

  @Test
  void threadsTakingTurnsThroughASemaphoreNeverTrip() throws InterruptedException {
    // The simulated-process runner's pattern: two threads run alternately, handing over through semaphores; each
    // turn enters, nests, and exits. No turn overlaps another, so none may fail.
    ConcurrentUseCheck check = new ConcurrentUseCheck("Nic of node 0");
    java.util.concurrent.Semaphore[] turn = {new java.util.concurrent.Semaphore(1),
        new java.util.concurrent.Semaphore(0)};
    AtomicReference<Throwable> failure = new AtomicReference<>();
    int turns = 2_000;
    Thread[] runners = new Thread[2];
    for (int r = 0; r < 2; r++) {
      int me = r;
      runners[r] = new Thread(() -> {
        try {
          for (int i = 0; i < turns; i++) {
            turn[me].acquire();
            boolean outer = check.enter();
            boolean nested = check.enter();
            if (!outer || nested) {
              throw new AssertionError("turn " + i + " of runner " + me + ": outer " + outer + ", nested " + nested);
            }
            check.exit();
            turn[1 - me].release();
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
          turn[1 - me].release(turns);
        }
      }, "process-" + r);
      runners[r].start();
    }
    for (Thread t : runners) {
      t.join();
    }
    assertThat(failure.get()).isNull();
  }

  /** Calls {@code check.enter()} on a new thread of that name and waits for it. @return what it threw, or null */
  private static Throwable enterOn(String threadName, ConcurrentUseCheck check) throws InterruptedException {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        check.enter();
      } catch (Throwable e) {
        thrown.set(e);
      }
    }, threadName);
    t.start();
    t.join();
    return thrown.get();
  }
}
