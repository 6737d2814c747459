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
    AtomicReference<Throwable> seen = new AtomicReference<>();
    Thread intruder = new Thread(() -> {
      try {
        check.enter();
      } catch (Throwable t) {
        seen.set(t);
      }
    }, "intruder");
    intruder.start();
    intruder.join();
    assertThat(seen.get()).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Nic of node 3 is not thread-safe")
        .hasMessageContaining("\"intruder\"").hasMessageContaining("\"" + Thread.currentThread().getName() + "\"");
    check.exit();
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
}
