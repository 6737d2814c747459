package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Scheduler;

/**
 * A host write to the NIC that the CPU makes later than now (a post's doorbell, after the CPU's stores of the posts
 * before it): an event at the time of the write books its crossing of the {@link HostLink} then, and the crossing's
 * end schedules the handler given. Booking the crossing at once, at its future time, held the node-to-NIC channel
 * until then in front of every transfer booked before it came (the NIC's reads of host memory, say), although the
 * channel was idle; so the write waits for its time as an event, one a post.
 */
final class HostWriteEvent implements EventHandler {
  private final Scheduler scheduler;
  private final HostLink host;
  private final EventHandler arrives;

  /**
   * @param scheduler the NIC's clock
   * @param host the host link the write crosses
   * @param arrives the handler called when the write has reached the NIC, with the ref given to {@link #at}
   */
  HostWriteEvent(Scheduler scheduler, HostLink host, EventHandler arrives) {
    this.scheduler = scheduler;
    this.host = host;
    this.arrives = arrives;
  }

  /**
   * Schedules a write.
   *
   * @param writtenPs when the CPU writes, at or after now
   * @param ref what the arrival handler is given (the post)
   * @param bytes the bytes written
   */
  void at(long writtenPs, Object ref, long bytes) {
    scheduler.scheduleAt(writtenPs, this, ref, bytes);
  }

  @Override
  public void onEvent(long now, Object ref, long bytes) {
    scheduler.scheduleAt(host.hostWrite(now, bytes), arrives, ref, 0);
  }
}
