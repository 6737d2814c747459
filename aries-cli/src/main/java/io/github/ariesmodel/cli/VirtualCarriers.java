package io.github.ariesmodel.cli;

/**
 * Sizes the JVM's pool of carrier threads for simulated processes on virtual threads ({@code ProcessRunner}'s {@code
 * VIRTUAL} kind, the default from Java 24 on). On the single event loop one process runs at a time and control passes
 * from process to process; with one carrier the next process is mounted on the same carrier thread as the last
 * unmounts, while with more an idle carrier is woken and may take it, a kernel hand-off again: 0.29 against 2.2 µs a
 * suspension, and the 256-rank ring replay 5.7-6.3 against 7.0-7.4 s (docs/performance.md, "Stop 45"). So a command sets the
 * JDK's {@code jdk.virtualThreadScheduler.parallelism} to the number of process lanes that may run at once (the
 * engine's threads, a sweep's jobs), unless the user set it. The JDK reads it once, when the first virtual thread is
 * made, so a command calls this before it builds anything; later calls in the same JVM change nothing.
 */
final class VirtualCarriers {

  /** The JDK's system property for the default virtual-thread scheduler's parallelism. */
  static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

  private VirtualCarriers() {}

  /**
   * Asks for {@code lanes} carrier threads (at least one, at most {@link #MAX_PARALLELISM}) if nobody has chosen a
   * number.
   *
   * @param lanes how many processes may run at the same time
   */
  static void forLanes(int lanes) {
    if (System.getProperty(PARALLELISM) == null) {
      System.setProperty(PARALLELISM, Integer.toString(Math.max(1, Math.min(MAX_PARALLELISM, lanes))));
    }
  }

  /**
   * Most carriers asked for: the JDK's own limit (its ForkJoinPool takes at most 32,767 threads, and a larger
   * parallelism fails the scheduler's initialisation with an ExceptionInInitializerError at the first virtual thread).
   */
  static final int MAX_PARALLELISM = 32_767;
}
