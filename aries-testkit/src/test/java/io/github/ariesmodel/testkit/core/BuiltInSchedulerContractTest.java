package io.github.ariesmodel.testkit.core;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.GroupScheduler;
import io.github.ariesmodel.core.sim.PartitionedEngine;
import io.github.ariesmodel.testkit.fake.ManualScheduler;
import org.junit.jupiter.api.Nested;

/** Every scheduler in the project keeps the scheduler contract. */
class BuiltInSchedulerContractTest {

  @Nested
  class EventLoop extends SchedulerContract<DeterministicEventLoop> {
    @Override
    protected DeterministicEventLoop create() {
      return new DeterministicEventLoop();
    }

    @Override
    protected void runUntil(DeterministicEventLoop s, long timePs) {
      s.runUntil(timePs);
    }

    @Override
    protected void runAll(DeterministicEventLoop s) {
      s.run();
    }
  }

  /** A loop that starts with room for one event, so every test also exercises its growth. */
  @Nested
  class TinyEventLoop extends SchedulerContract<DeterministicEventLoop> {
    @Override
    protected DeterministicEventLoop create() {
      return new DeterministicEventLoop(1);
    }

    @Override
    protected void runUntil(DeterministicEventLoop s, long timePs) {
      s.runUntil(timePs);
    }

    @Override
    protected void runAll(DeterministicEventLoop s) {
      s.run();
    }
  }

  /**
   * A loop with 1-ps buckets and the smallest ring (64 buckets), so the contract's times cross buckets, wrap the
   * ring and go beyond its horizon.
   */
  @Nested
  class NarrowCalendarEventLoop extends SchedulerContract<DeterministicEventLoop> {
    @Override
    protected DeterministicEventLoop create() {
      return new DeterministicEventLoop(1, 0, 6);
    }

    @Override
    protected void runUntil(DeterministicEventLoop s, long timePs) {
      s.runUntil(timePs);
    }

    @Override
    protected void runAll(DeterministicEventLoop s) {
      s.run();
    }
  }

  /** A group of a partitioned engine (one thread: a run's extra threads would outlive these tests). */
  @Nested
  class GroupOfPartitionedEngine extends SchedulerContract<GroupScheduler> {
    @Override
    protected GroupScheduler create() {
      return PartitionedEngine.of(3, 1_000, 1).group(1);
    }

    @Override
    protected void runUntil(GroupScheduler s, long timePs) {
      s.engine().runUntil(timePs);
    }

    @Override
    protected void runAll(GroupScheduler s) {
      s.engine().runUntil(Long.MAX_VALUE);
    }
  }

  @Nested
  class Manual extends SchedulerContract<ManualScheduler> {
    @Override
    protected ManualScheduler create() {
      return new ManualScheduler();
    }

    @Override
    protected void runUntil(ManualScheduler s, long timePs) {
      s.advanceTo(timePs);
    }

    @Override
    protected void runAll(ManualScheduler s) {
      s.runAll(1_000_000);
    }
  }
}
