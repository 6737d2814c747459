package io.github.ariesmodel.testkit.core;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
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
