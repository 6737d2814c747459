package io.github.ariesmodel.core.spi;

/**
 * What the {@link Scheduler} calls when an event's time comes. The {@code ref} and {@code arg} given at scheduling
 * time come back unchanged, so a component can schedule many kinds of events through one handler object (an int
 * code in {@code arg}, the packet in {@code ref}) without allocating a closure per event.
 */
@FunctionalInterface
public interface EventHandler {

  /**
   * Handles an event.
   *
   * @param nowPs the event's time, picoseconds
   * @param ref the object given when scheduling (may be null)
   * @param arg the long given when scheduling
   */
  void onEvent(long nowPs, Object ref, long arg);
}
