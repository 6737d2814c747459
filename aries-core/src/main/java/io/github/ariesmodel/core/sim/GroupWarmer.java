package io.github.ariesmodel.core.sim;

/**
 * Reads a group's state into the caches just before the group runs a window of a {@link PartitionedEngine}.
 *
 * <p>On a large model a group's state has left the caches by the time its turn comes round again (on the full Aries
 * system the fabric's port state alone is about 129 MB over 241 groups), and its first events each wait for a few
 * lines from memory, one after another. A warmer reads the same lines front to back before the first event runs,
 * where the hardware's prefetchers stream them in (docs/performance.md, "Stop 24"). A sweep costs the same however few
 * events follow it, so a warmer that reads much should skip quiet groups: the router fabric's sweeps a group only
 * after a busy window ({@link GroupScheduler#eventsExecuted()} tells how busy).
 *
 * <p><b>Contract.</b> {@link #warm} is called on the thread that runs the group's window, after the events handed to
 * the group for the window are in its loop and before the first of them runs, and only for a group that has an event
 * in that window. It may read anything of that group, and must change nothing a simulation reads, schedule nothing
 * and draw no random number: a model's results are the same with and without its warmers.
 */
@FunctionalInterface
public interface GroupWarmer {

  /**
   * Reads {@code group}'s state.
   *
   * @param group the group about to run, in [0, groups)
   */
  void warm(int group);
}
