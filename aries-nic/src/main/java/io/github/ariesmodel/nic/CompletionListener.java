package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.CompletionEvent;

/**
 * Observes a NIC's completion events at their simulated time: every LOCAL and GLOBAL event of the posts it
 * initiated and every REMOTE event written at it, whether or not a completion queue holds it (a probe, not a
 * hardware structure).
 *
 * <p>It is called on the thread that runs the NIC's node: on a system with several engine threads, a listener given
 * to NICs of different groups is called from several threads at once, and not in time order across groups (in time
 * order for each NIC). Such a listener must be thread-safe and must not assume one order across nodes.
 */
@FunctionalInterface
public interface CompletionListener {

  /**
   * Called once per event, at {@code event.timePs()}.
   *
   * @param event the event
   */
  void onCompletion(CompletionEvent event);
}
