package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.spi.EventHandler;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The event loop's owner-thread check: first user or bound thread only, one-line failure naming both threads. */
class EventLoopOwnerTest {

  private static final EventHandler NOTHING = (now, ref, arg) -> { };

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
  void anotherThreadSchedulingOrRunningFailsNamingBothAndChangesNothing() throws InterruptedException {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    loop.scheduleAt(5, NOTHING, null, 0);
    assertThat(loop.owner()).isSameAs(Thread.currentThread());
    String me = Thread.currentThread().getName();
    for (Runnable misuse : new Runnable[] {() -> loop.scheduleAt(6, NOTHING, null, 0), loop::run,
        () -> loop.runUntil(10), () -> loop.runWhile(() -> true), loop::step, loop::reserveSequence,
        () -> loop.scheduleReserved(9, 0, NOTHING, null, 0), loop::continueRun, loop::nextEventTime}) {
      Throwable t = onThread("intruder", misuse);
      assertThat(t).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("event loop owned by thread \"" + me + "\"")
          .hasMessageContaining("from thread \"intruder\"");
      assertThat(t.getMessage()).doesNotContain("\n");
    }
    assertThat(loop.pending()).isEqualTo(1);
    assertThat(loop.run()).isEqualTo(1);
  }

  @Test
  void theFirstThreadToUseTheLoopOwnsIt() throws InterruptedException {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    assertThat(loop.owner()).isNull();
    assertThat(onThread("first", () -> loop.scheduleAt(1, NOTHING, null, 0))).isNull();
    assertThat(loop.owner().getName()).isEqualTo("first");
    assertThatThrownBy(loop::run).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("owned by thread \"first\"");
  }

  @Test
  void bindOwnerHandsTheLoopOver() throws InterruptedException {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    loop.scheduleAt(1, NOTHING, null, 0);
    Thread[] helper = new Thread[1];
    helper[0] = new Thread(() -> {
      loop.scheduleAt(2, NOTHING, null, 0);
      loop.run();
    }, "helper");
    loop.bindOwner(helper[0]);
    helper[0].start();
    helper[0].join();
    assertThat(loop.eventsExecuted()).isEqualTo(2);
    assertThatThrownBy(() -> loop.scheduleAt(3, NOTHING, null, 0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("owned by thread \"helper\"");
    loop.bindOwner(null);
    loop.scheduleAt(3, NOTHING, null, 0);
    assertThat(loop.owner()).isSameAs(Thread.currentThread());
  }
}
