package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.IdealFabric;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A NIC is used from the thread that owns its clock: a call from another thread that would change its state and then
 * schedule is refused before anything changes, and the entry points that change state without scheduling are guarded
 * against overlapping calls (found by stop 77's concurrency hunt).
 */
class NicThreadOwnershipTest {

  /** Runs a call on a thread of its own and returns what it threw, or null. */
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
  void aPostFromAThreadOtherThanTheClocksOwnerIsRefusedBeforeItIsCountedOrBooked() throws Exception {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor local = c.register(0, 4096);
    MemoryDomainDescriptor remote = c.register(1, 4096);
    c.nics[0].post(Post.put(1, local.mdh(), 0, NetworkAddress.of(1, remote.mdh(), 0), 8));
    c.run(); // the main thread owns the loop from here on
    long posts = c.nics[0].statistics().posts();
    long storesDone = c.nics[0].postStoresDoneAt(0);
    int events = c.events.size();

    Throwable refused = onAnotherThread(
        () -> c.nics[0].post(Post.put(2, local.mdh(), 0, NetworkAddress.of(1, remote.mdh(), 0), 8)));

    assertThat(refused).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Nic.post").hasMessageContaining("\"second\"").hasMessageContaining("\"main\"");
    // nothing changed: before the fix the post was counted, held one unfinished post for good and moved the stores
    assertThat(c.nics[0].statistics().posts()).isEqualTo(posts);
    assertThat(c.nics[0].unfinishedPosts()).isZero();
    assertThat(c.nics[0].postStoresDoneAt(0)).isEqualTo(storesDone);
    // and the owner's next post runs to its completion as usual
    c.nics[0].post(Post.put(3, local.mdh(), 0, NetworkAddress.of(1, remote.mdh(), 0), 8));
    c.run();
    assertThat(c.nics[0].unfinishedPosts()).isZero();
    assertThat(events).isPositive();
    assertThat(c.events).hasSize(2 * events); // the second accepted post's events, as many as the first's
  }

  @Test
  void creatingACompletionQueueFromAnotherThreadIsRefusedAndMakesNone() throws Exception {
    Cluster c = new Cluster(2, NicConfig.defaults());
    c.loop.bindOwner(Thread.currentThread());

    Throwable refused = onAnotherThread(() -> c.nics[0].createCompletionQueue(16));

    assertThat(refused).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Nic.createCompletionQueue");
    assertThat(c.nics[0].completionQueueCount()).isZero();
  }

  @Test
  void anyThreadMayUseANicWhoseLoopHasNoOwnerYet() throws Exception {
    Cluster c = new Cluster(2, NicConfig.defaults());

    assertThat(onAnotherThread(() -> c.nics[0].createCompletionQueue(16))).isNull();
    assertThat(c.loop.owner()).isNull(); // the check does not claim the loop: only scheduling does
  }

  /**
   * Calls each entry point while another thread is inside the NIC (held in its translation's register): each is
   * refused as overlapping use. Before the fix these four were accepted and changed the NIC under the other thread.
   */
  @Test
  void entryPointsThatChangeStateWithoutSchedulingAreGuardedAgainstOverlappingUse() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Cluster c = new Cluster(1, NicConfig.defaults(), loop -> new IdealFabric(loop, 1, 0, Double.POSITIVE_INFINITY),
        (m, l) -> new DelegatingTranslation(new FlatTranslation(m, l, 0)) {
          @Override
          public MemoryDomainDescriptor register(MemoryRegistration r) {
            if (Thread.currentThread().getName().equals("holder")) {
              inside.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return super.register(r);
          }
        });
    Nic nic = c.nics[0];
    Thread holder = new Thread(() -> nic.register(MemoryRegistration.of(0x10_0000L, 4096, Cluster.PTAG,
        Cluster.PKEY)), "holder");
    holder.start();
    inside.await();
    List<String> accepted = new ArrayList<>();
    try {
      String[] names = {"createCompletionQueue", "completionListener", "addCompletionProbe", "injectionReady"};
      Runnable[] calls = {
        () -> nic.createCompletionQueue(16),
        () -> nic.completionListener(e -> { }),
        () -> nic.addCompletionProbe(e -> { }),
        () -> nic.injectionReady(0),
      };
      for (int i = 0; i < calls.length; i++) {
        try {
          calls[i].run();
          accepted.add(names[i]);
        } catch (IllegalStateException e) {
          assertThat(e).hasMessageContaining("is not thread-safe").hasMessageContaining("\"holder\"");
        }
      }
    } finally {
      release.countDown();
      holder.join();
    }
    assertThat(accepted).isEmpty();
    assertThat(nic.completionQueueCount()).isZero();
  }
}
