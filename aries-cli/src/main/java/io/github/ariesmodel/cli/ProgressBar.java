package io.github.ariesmodel.cli;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A one-line progress display on standard error for long runs: simulated time done and total, events per second and
 * the estimated time left, for example
 *
 * <pre>
 * [##########----------]  50%  sim 5.000 us / 10.000 us   12.3 M events/s  ETA 0:04
 * </pre>
 *
 * <p>It stays silent for the first {@link #SHOW_AFTER_NANOS} (short runs print nothing), then redraws at most every
 * {@link #REDRAW_NANOS}, in place with a carriage return. It is completely silent when disabled: {@link
 * #forStandardError(boolean, long)} disables it under {@code --quiet} and when standard error is not a terminal
 * (redirected to a file, a pipe, a batch job's log; {@link #isTerminal}). The wall clock is injected, so
 * tests drive it without sleeping.
 *
 * <p>Updating does not touch the simulation, so it never changes results. Call {@link #update(long, long)} between
 * slices of the event loop, as {@link #runUntil(DeterministicEventLoop, long, ProgressBar)} does; the call reads the
 * clock and returns at once when there is nothing to draw.
 */
final class ProgressBar implements AutoCloseable {

  /** Wall time before the bar first appears: 2 s. */
  public static final long SHOW_AFTER_NANOS = 2_000_000_000L;
  /** Shortest wall time between redraws: 250 ms (at most four redraws a second). */
  public static final long REDRAW_NANOS = 250_000_000L;
  /** Events between two progress updates in {@link #runUntil(DeterministicEventLoop, long, ProgressBar)}. */
  public static final int CHECK_EVERY = 4096;

  private static final int WIDTH = 20;

  private final PrintWriter out;
  private final boolean enabled;
  private final LongSupplier nanoClock;
  private final long totalPs;
  private final long startNanos;
  private long lastDrawNanos;
  private boolean drawn;
  private int lastLength;

  /**
   * A progress bar.
   *
   * @param out where to draw (standard error in the CLI)
   * @param enabled false for a bar that never prints
   * @param nanoClock wall clock in nanoseconds, such as {@code System::nanoTime}; read once now as the start
   * @param totalSimulatedPs simulated time the run will cover, picoseconds, {@code > 0}
   * @throws IllegalArgumentException when the total is not positive
   */
  public ProgressBar(PrintWriter out, boolean enabled, LongSupplier nanoClock, long totalSimulatedPs) {
    if (totalSimulatedPs <= 0) {
      throw new IllegalArgumentException("totalSimulatedPs must be > 0 but was " + totalSimulatedPs);
    }
    this.out = Objects.requireNonNull(out, "out");
    this.enabled = enabled;
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.totalPs = totalSimulatedPs;
    this.startNanos = nanoClock.getAsLong();
  }

  /**
   * The CLI's progress bar on standard error: enabled only when not {@code quiet} and standard error is a terminal.
   *
   * @param quiet the {@code --quiet} option
   * @param totalSimulatedPs simulated time the run will cover, picoseconds, {@code > 0}
   * @return the bar
   */
  public static ProgressBar forStandardError(boolean quiet, long totalSimulatedPs) {
    boolean enabled = !quiet && isTerminal(Path.of("/proc/self/fd/2"), System.console() != null);
    return new ProgressBar(AriesCli.utf8(System.err), enabled, System::nanoTime, totalSimulatedPs);
  }

  /**
   * Whether a file descriptor is a terminal, by where its link in {@code /proc/self/fd} leads (Linux): a terminal is a
   * {@code /dev/pts/N}, {@code /dev/ttyX} or {@code /dev/console}; a file, a pipe ({@code pipe:[N]}), a socket or
   * {@code /dev/null} is none. {@code System.console()} tells whether standard input and output are terminals, not
   * standard error: until stop 78 {@code ./aries run mixed 2>log} at a terminal drew the bar into the log, and
   * {@code ./aries run mixed >out} drew none on the terminal. Without such a link (no {@code /proc}) it is {@code
   * console}.
   *
   * @param fdLink the descriptor's link, {@code /proc/self/fd/2} for standard error
   * @param console what to answer when the link cannot be read: {@code System.console() != null}
   * @return whether it is a terminal
   */
  static boolean isTerminal(Path fdLink, boolean console) {
    String target;
    try {
      target = Files.readSymbolicLink(fdLink).toString();
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return console;
    }
    return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
  }

  /** @return whether this bar can print at all */
  public boolean enabled() {
    return enabled;
  }

  /**
   * Reports progress; redraws when enabled, shown (past {@link #SHOW_AFTER_NANOS}) and due (past {@link
   * #REDRAW_NANOS} since the last draw).
   *
   * @param simulatedPs simulated time reached, picoseconds (clamped to the total)
   * @param events events executed so far
   */
  public void update(long simulatedPs, long events) {
    long now = dueNow();
    if (now != NOT_DUE) {
      draw(now, line(Math.max(0, Math.min(simulatedPs, totalPs)), events, now - startNanos));
    }
  }

  /**
   * Reports progress as a share of a job's work, for jobs that run several simulations and so know no total
   * simulated time in advance (a workload of many phases). Same display rules as {@link #update(long, long)}.
   *
   * @param fraction share of the work done, 0 to 1 (clamped)
   * @param simulatedPs simulated time covered so far, picoseconds
   * @param events events executed so far
   */
  public void updateFraction(double fraction, long simulatedPs, long events) {
    long now = dueNow();
    if (now != NOT_DUE) {
      draw(now, fractionLine(Math.max(0, Math.min(1, fraction)), simulatedPs, events, now - startNanos));
    }
  }

  /**
   * The text of the bar in fraction mode.
   *
   * @param fraction share done
   * @param simulatedPs simulated time so far
   * @param events events so far
   * @param elapsedNanos wall time since the start
   * @return one line without line ending
   */
  String fractionLine(double fraction, long simulatedPs, long events, long elapsedNanos) {
    int filled = (int) Math.floor(fraction * WIDTH);
    StringBuilder b = new StringBuilder(96).append('[');
    for (int i = 0; i < WIDTH; i++) {
      b.append(i < filled ? '#' : '-');
    }
    double seconds = elapsedNanos / 1e9;
    b.append(String.format(Locale.ROOT, "] %3d%%  sim %s  %s events/s  ETA %s", (int) Math.floor(fraction * 100),
        simTime(simulatedPs), rate(events / seconds),
        fraction <= 0 ? "?" : clock(seconds * (1 - fraction) / fraction)));
    return b.toString();
  }

  private static final long NOT_DUE = Long.MIN_VALUE;

  /** The wall clock now when a redraw is due (enabled, shown, and past the redraw interval), else NOT_DUE. */
  private long dueNow() {
    if (!enabled) {
      return NOT_DUE;
    }
    long now = nanoClock.getAsLong();
    if (now - startNanos < SHOW_AFTER_NANOS || (drawn && now - lastDrawNanos < REDRAW_NANOS)) {
      return NOT_DUE;
    }
    return now;
  }

  private void draw(long now, String line) {
    StringBuilder b = new StringBuilder(line.length() + 8).append('\r').append(line);
    for (int i = line.length(); i < lastLength; i++) {
      b.append(' ');
    }
    out.print(b);
    out.flush();
    lastLength = line.length();
    lastDrawNanos = now;
    drawn = true;
  }

  /** Ends the display: moves to a new line if anything was drawn, so later output starts clean. */
  @Override
  public void close() {
    if (drawn) {
      out.println();
      out.flush();
      drawn = false;
    }
  }

  /**
   * The text of the bar.
   *
   * @param donePs simulated time reached
   * @param events events so far
   * @param elapsedNanos wall time since the start
   * @return one line without line ending
   */
  String line(long donePs, long events, long elapsedNanos) {
    double fraction = (double) donePs / totalPs;
    int filled = (int) Math.floor(fraction * WIDTH);
    StringBuilder b = new StringBuilder(96).append('[');
    for (int i = 0; i < WIDTH; i++) {
      b.append(i < filled ? '#' : '-');
    }
    double seconds = elapsedNanos / 1e9;
    b.append(String.format(Locale.ROOT, "] %3d%%  sim %s / %s  %s events/s  ETA %s", (int) Math.floor(fraction * 100),
        simTime(donePs), simTime(totalPs), rate(events / seconds),
        donePs == 0 ? "?" : clock(seconds * (totalPs - donePs) / donePs)));
    return b.toString();
  }

  private static String simTime(long ps) {
    if (ps >= 1_000_000_000L) {
      return String.format(Locale.ROOT, "%.3f ms", ps / 1e9);
    }
    if (ps >= 1_000_000L) {
      return String.format(Locale.ROOT, "%.3f us", ps / 1e6);
    }
    return String.format(Locale.ROOT, "%.3f ns", ps / 1e3);
  }

  private static String rate(double perSecond) {
    if (perSecond >= 1e9) {
      return String.format(Locale.ROOT, "%.1f G", perSecond / 1e9);
    }
    if (perSecond >= 1e6) {
      return String.format(Locale.ROOT, "%.1f M", perSecond / 1e6);
    }
    if (perSecond >= 1e3) {
      return String.format(Locale.ROOT, "%.1f k", perSecond / 1e3);
    }
    return String.format(Locale.ROOT, "%.0f", perSecond);
  }

  private static String clock(double seconds) {
    long s = Math.round(seconds);
    return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }

  /**
   * Runs an event loop up to a simulated time like {@code loop.runUntil(limitPs)}, updating the bar every {@link
   * #CHECK_EVERY} events. The same events run in the same order, so results do not change. One corner differs: when a
   * handler calls {@code stop()} during the last event at or before the limit, the clock still advances to the limit.
   *
   * @param loop the event loop
   * @param limitPs last simulated time to run, picoseconds, {@code >= loop.now()}
   * @param bar the progress bar (its total should be {@code limitPs})
   * @return events run by this call
   * @throws IllegalArgumentException when the limit is before the loop's current time
   */
  public static long runUntil(DeterministicEventLoop loop, long limitPs, ProgressBar bar) {
    if (limitPs < loop.now()) {
      throw new IllegalArgumentException("limitPs must be >= loop.now() (" + loop.now() + ") but was " + limitPs);
    }
    long before = loop.eventsExecuted();
    long[] countdown = {CHECK_EVERY};
    loop.runWhile(() -> {
      if (loop.nextEventTime() > limitPs) {
        return false;
      }
      if (--countdown[0] == 0) {
        countdown[0] = CHECK_EVERY;
        bar.update(loop.now(), loop.eventsExecuted());
      }
      return true;
    });
    if (loop.nextEventTime() > limitPs) {
      loop.runUntil(limitPs);
    }
    bar.update(loop.now(), loop.eventsExecuted());
    return loop.eventsExecuted() - before;
  }
}
