package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.CompletionEvent;

/**
 * Observes a NIC's completion events at their simulated time: every LOCAL and GLOBAL event of the posts it
 * initiated and every REMOTE event written at it, whether or not a completion queue holds it (a probe, not a
 * hardware structure).
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
