package io.github.ariesmodel.system.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** How a runner picks the kind of thread its processes run on, and the errors of a wrong choice. */
class ThreadKindTest {

  @Test
  void thePropertyChoosesTheDefaultKindAndAutoIsVirtualFromJava24() {
    assertThat(withProperty("platform", ProcessRunner::defaultThreadKind))
        .isEqualTo(ProcessRunner.ThreadKind.PLATFORM);
    assertThat(withProperty(" Platform ", ProcessRunner::defaultThreadKind))
        .isEqualTo(ProcessRunner.ThreadKind.PLATFORM);
    boolean virtualByDefault = ProcessRunner.virtualThreadsAvailable() && Runtime.version().feature() >= 24;
    ProcessRunner.ThreadKind auto = virtualByDefault
        ? ProcessRunner.ThreadKind.VIRTUAL : ProcessRunner.ThreadKind.PLATFORM;
    assertThat(withProperty("auto", ProcessRunner::defaultThreadKind)).isEqualTo(auto);
    assertThat(withProperty(null, ProcessRunner::defaultThreadKind)).isEqualTo(auto);
    assertThat(withProperty(null, () -> new ProcessRunner(new DeterministicEventLoop()).threadKind()))
        .isEqualTo(auto);
  }

  @Test
  void aPropertyThatNamesNoKindIsRefusedNamingItsValue() {
    assertThatThrownBy(() -> withProperty("green", ProcessRunner::defaultThreadKind))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("system property aries.process-threads must be auto, platform or virtual but was \"green\"");
    assertThatThrownBy(() -> withProperty("green", () -> new ProcessRunner(new DeterministicEventLoop())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("aries.process-threads");
  }

  @Test
  void virtualThreadsAreRefusedOnAJvmWithoutThemAndUsedOnOneWithThem() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    if (ProcessRunner.virtualThreadsAvailable()) {
      assertThat(withProperty("virtual", ProcessRunner::defaultThreadKind))
          .isEqualTo(ProcessRunner.ThreadKind.VIRTUAL);
      List<Boolean> virtual = new ArrayList<>();
      try (ProcessRunner runner = new ProcessRunner(loop, ProcessRunner.ThreadKind.VIRTUAL)) {
        runner.spawn("v", self -> virtual.add(ProcessRunner.isVirtual(Thread.currentThread())));
        runner.run();
      }
      assertThat(virtual).containsExactly(true);
    } else {
      String message = "threadKind VIRTUAL needs Java 21 or later, but this JVM is Java "
          + Runtime.version().feature();
      assertThatThrownBy(() -> new ProcessRunner(loop, ProcessRunner.ThreadKind.VIRTUAL))
          .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
      assertThatThrownBy(() -> withProperty("virtual", ProcessRunner::defaultThreadKind))
          .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }
    assertThatThrownBy(() -> new ProcessRunner(loop, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("threadKind must not be null");
  }

  @Test
  void platformProcessesRunOnDaemonPlatformThreads() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> seen = new ArrayList<>();
    try (ProcessRunner runner = new ProcessRunner(loop, ProcessRunner.ThreadKind.PLATFORM)) {
      runner.spawn("p", self -> seen.add(Thread.currentThread().getName() + " daemon "
          + Thread.currentThread().isDaemon() + " virtual " + ProcessRunner.isVirtual(
              Thread.currentThread())));
      runner.run();
    }
    assertThat(seen).containsExactly("sim-p daemon true virtual false");
  }

  /** Runs {@code body} with the system property set to {@code value} (cleared when null), then restores it. */
  private static <T> T withProperty(String value, Supplier<T> body) {
    String old = System.getProperty(ProcessRunner.THREADS_PROPERTY);
    try {
      if (value == null) {
        System.clearProperty(ProcessRunner.THREADS_PROPERTY);
      } else {
        System.setProperty(ProcessRunner.THREADS_PROPERTY, value);
      }
      return body.get();
    } finally {
      if (old == null) {
        System.clearProperty(ProcessRunner.THREADS_PROPERTY);
      } else {
        System.setProperty(ProcessRunner.THREADS_PROPERTY, old);
      }
    }
  }
}
