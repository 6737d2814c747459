package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.Status;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A {@link CompletionQueue} against a plain model of its ring: slots taken in turn, events visible in slot order once
 * written, a failed write's slot skipped, a full ring dropping events. The queue's array starts small and grows as
 * more events are outstanding; the model has no array, so a slot that moved wrongly in a growth shows up as a wrong,
 * missing or extra event.
 */
class CompletionQueueProperties {
  private static final int[] CAPACITIES = {1, 2, 7, 16, 33, 48, 64, 100, 16_384};
  private static final Object LOST = new Object();

  @Test
  void theQueueGivesWhatItsModelGivesWhateverItsArrayHolds() {
    qt().withExamples(400).forAll(longs().all(), integers().between(0, CAPACITIES.length - 1)).checkAssert(
        (seed, c) -> {
          int capacity = CAPACITIES[c];
          Random random = new Random(seed);
          CompletionQueue q = new CompletionQueue(3, capacity, null);
          ArrayDeque<Integer> order = new ArrayDeque<>(); // reserved slots, oldest first
          Map<Integer, Object> state = new HashMap<>(); // slot -> event or LOST once written
          List<Integer> unwritten = new ArrayList<>();
          long dropped = 0;
          long lost = 0;
          boolean overrun = false;
          long written = 0;
          int size = 0;
          int mostOutstanding = 0;
          int steps = 50 + random.nextInt(capacity > 100 ? 3_000 : 300);
          // phases of filling and draining, so that the ring wraps and the array grows at every offset
          boolean filling = true;
          for (int step = 0; step < steps; step++) {
            if (random.nextInt(40) == 0) {
              filling = !filling;
            }
            int op = random.nextInt(10);
            if (op < (filling ? 5 : 2)) {
              int slot = q.reserve();
              if (order.size() == capacity) {
                assertThat(slot).isEqualTo(-1);
                dropped++;
                overrun = true;
              } else {
                int expected = order.isEmpty() ? -1 : (order.peekLast() + 1) % capacity;
                if (expected >= 0) {
                  assertThat(slot).isEqualTo(expected);
                }
                order.addLast(slot);
                unwritten.add(slot);
                mostOutstanding = Math.max(mostOutstanding, order.size());
              }
            } else if (op < 8 && !unwritten.isEmpty()) {
              int slot = unwritten.remove(random.nextInt(unwritten.size()));
              assertThat(q.awaitsWrite(slot)).as("slot %d reserved, not written", slot).isTrue();
              if (random.nextInt(8) == 0) {
                q.abandon(slot);
                state.put(slot, LOST);
                lost++;
              } else {
                CompletionEvent e = new CompletionEvent(CompletionType.REMOTE, Status.OK, step, 1, 2, slot, step);
                q.commit(slot, e);
                state.put(slot, e);
                written++;
                size++;
              }
              assertThat(q.awaitsWrite(slot)).as("slot %d written or abandoned", slot).isFalse();
            } else {
              while (!order.isEmpty() && state.get(order.peekFirst()) == LOST) {
                state.remove(order.pollFirst());
              }
              Object expected = order.isEmpty() ? null : state.get(order.peekFirst());
              CompletionEvent got = q.getEvent();
              assertThat(got).as("step %d", step).isSameAs(expected);
              if (expected != null) {
                state.remove(order.pollFirst());
                size--;
              }
            }
            assertThat(q.size()).isEqualTo(size);
            assertThat(q.overrun()).isEqualTo(overrun);
            assertThat(q.droppedEvents()).isEqualTo(dropped);
            assertThat(q.lostEvents()).isEqualTo(lost);
            assertThat(q.writtenEvents()).isEqualTo(written);
            assertThat(q.heldSlots()).isBetween(Math.min(mostOutstanding, capacity), capacity);
          }
          assertThat(q.capacity()).isEqualTo(capacity);
        });
  }

  @Test
  void aLargeQueueHoldsLittleUntilManyEventsAreOutstanding() {
    CompletionQueue q = new CompletionQueue(0, 16_384, null);
    assertThat(q.heldSlots()).isEqualTo(16);
    for (int i = 0; i < 16; i++) {
      int slot = q.reserve();
      q.commit(slot, new CompletionEvent(CompletionType.LOCAL, Status.OK, i, 0, 0, 0, 0));
      assertThat(q.getEvent().postId()).isEqualTo(i);
    }
    assertThat(q.heldSlots()).as("one outstanding at a time").isEqualTo(16);
    for (int i = 0; i < 17; i++) {
      q.reserve();
    }
    assertThat(q.heldSlots()).isEqualTo(32);
  }
}
