package io.github.ariesmodel.system.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The arithmetic of a node's detours, the spec's reading, and a process that runs under them. */
class OsNoiseTest {

  private static final long NS = 1_000;

  /** Detours [10k, 10k + 2) ns on every node. */
  private static OsNoise.CpuTime tenTwo() {
    return OsNoise.periodic(10 * NS, 2 * NS, OsNoise.Phase.ALIGNED).forNode(1, 0);
  }

  @Test
  void workIsStretchedOverTheDetoursItSpansAndAWakeInsideOneWaitsForItsEnd() {
    OsNoise.CpuTime cpu = tenTwo();
    // from inside a detour: the rest of it first
    assertThat(cpu.finish(0, 1 * NS)).isEqualTo(3 * NS);
    assertThat(cpu.finish(1 * NS, 1 * NS)).isEqualTo(3 * NS);
    // 8 ns of work fill the free part exactly, up to the next detour's start
    assertThat(cpu.finish(2 * NS, 8 * NS)).isEqualTo(10 * NS);
    assertThat(cpu.finish(2 * NS, 9 * NS)).isEqualTo(13 * NS);
    // 20 ns of work from 5 ns: 5 ns to 10, detour, 8 to 20, detour, 7 to 29
    assertThat(cpu.finish(5 * NS, 20 * NS)).isEqualTo(29 * NS);
    assertThat(cpu.finish(5 * NS, 0)).isEqualTo(5 * NS);
    assertThat(cpu.resume(0)).isEqualTo(2 * NS);
    assertThat(cpu.resume(11 * NS + 999)).isEqualTo(12 * NS);
    assertThat(cpu.resume(12 * NS)).isEqualTo(12 * NS);
    assertThat(cpu.resume(19 * NS)).isEqualTo(19 * NS);
    // work that would end past the clock with its detours is refused, naming it, not wrapped round
    assertThatThrownBy(() -> cpu.finish(2 * NS, Long.MAX_VALUE - 2 * NS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("noise detour must be in [0, ")
        .hasMessageEndingWith("] ps for work of " + (Long.MAX_VALUE - 2 * NS) + " ps from 2000 ps to end within the"
            + " simulated clock (Long.MAX_VALUE ps) with a period of 10000 ps, but was 2000 ps");
  }

  /**
   * For any period, detour, phase, start and work: the CPU time between the start and the end, counted period by period
   * from the detours' places (found with {@code resume} alone), is the work; the end is at least start + work and never
   * inside a detour; more work never ends sooner; and a resume is the start itself or the end of the detour it falls in.
   */
  @Test
  void theClosedFormAgreesWithCountingTheDetoursOneByOne() {
    qt().withExamples(400).forAll(longs().between(1_000, 50_000), integers().between(0, 999), longs().all(),
        longs().between(0, 10_000_000)).checkAssert((period, detourPerMille, seed, start) -> {
          long detour = Math.max(1, period * detourPerMille / 1000);
          OsNoise.CpuTime cpu = OsNoise.periodic(period, detour, OsNoise.Phase.RANDOM).forNode(seed, (int) (start % 97));
          long offset = offsetOf(cpu, period, detour);
          long work = Math.floorMod(seed, 20 * period) + 1;
          long end = cpu.finish(start, work);
          assertThat(end).isGreaterThanOrEqualTo(start + work);
          assertThat(free(offset, period, detour, start, end)).isEqualTo(work);
          assertThat(cpu.resume(end)).as("ends outside a detour (or where one starts)").isIn(end, end + detour);
          assertThat(cpu.finish(start, work + 1)).isGreaterThan(end);
          long r = cpu.resume(start);
          assertThat(r).isBetween(start, start + detour);
          assertThat(free(offset, period, detour, start, r)).isZero();
        });
  }

  /**
   * Where a node's detours start, mod the period, from resume alone: steps of the detour's length land in every detour,
   * and the first that resume moves names its end.
   */
  private static long offsetOf(OsNoise.CpuTime cpu, long period, long detour) {
    for (long t = 0; ; t += detour) {
      long r = cpu.resume(t);
      if (r != t) {
        return Math.floorMod(r - detour, period);
      }
    }
  }

  /** CPU time in [from, to): the overlap with each period's free part [offset + kP + D, offset + (k + 1)P). */
  private static long free(long offset, long period, long detour, long from, long to) {
    long sum = 0;
    for (long k = Math.floorDiv(from - offset, period); offset + k * period < to; k++) {
      long a = Math.max(from, offset + k * period + detour);
      long b = Math.min(to, offset + (k + 1) * period);
      sum += Math.max(0, b - a);
    }
    return sum;
  }

  @Test
  void alignedNodesShareTheirDetoursAndRandomOnesDrawTheirsFromTheSeed() {
    long period = 1_000 * NS;
    long detour = 10 * NS;
    OsNoise aligned = OsNoise.periodic(period, detour, OsNoise.Phase.ALIGNED);
    OsNoise random = OsNoise.periodic(period, detour, OsNoise.Phase.RANDOM);
    Set<Long> offsets = new HashSet<>();
    for (int node = 0; node < 50; node++) {
      assertThat(offsetOf(aligned.forNode(7, node), period, detour)).isZero();
      long offset = offsetOf(random.forNode(7, node), period, detour);
      assertThat(offsetOf(random.forNode(7, node), period, detour)).isEqualTo(offset);
      offsets.add(offset);
    }
    assertThat(offsets).hasSizeGreaterThan(45);
    assertThat(offsetOf(random.forNode(8, 3), period, detour)).isNotEqualTo(offsetOf(random.forNode(7, 3), period,
        detour));
    assertThat(OsNoise.none().forNode(7, 3)).isNull();
    assertThat(OsNoise.periodic(period, 0, OsNoise.Phase.RANDOM)).isEqualTo(OsNoise.none());
    assertThatThrownBy(() -> random.forNode(7, -1)).hasMessage("node must be >= 0 but was -1");
  }

  @Test
  void specsReadAndPrintBackAndBadOnesAreNamedInOneLine() {
    OsNoise n = OsNoise.parse("period=1ms,detour=2.5us,phase=aligned");
    assertThat(n.periodPs()).isEqualTo(1_000_000_000L);
    assertThat(n.detourPs()).isEqualTo(2_500_000L);
    assertThat(n.phase()).isEqualTo(OsNoise.Phase.ALIGNED);
    assertThat(n.fraction()).isEqualTo(0.0025);
    assertThat(OsNoise.parse(n.toString())).isEqualTo(n);
    assertThat(OsNoise.parse(" detour=20us, period=1ms ").phase()).isEqualTo(OsNoise.Phase.RANDOM);
    assertThat(OsNoise.parse("none")).isEqualTo(OsNoise.none());
    assertThat(OsNoise.none().toString()).isEqualTo("none");
    List<String[]> bad = new ArrayList<>();
    bad.add(new String[] {"period=1ms", "noise must give both period= and detour= (or be none) but was \"period=1ms\""});
    bad.add(new String[] {"period=1ms,detour=1ms",
        "noise detour must be in [0, 999999999] ps (shorter than the period) but was 1000000000 ps"});
    bad.add(new String[] {"period=999ps,detour=1ps", "noise period must be at least 1000 ps (1 ns) but was 999 ps"});
    bad.add(new String[] {"period=1mz,detour=1us",
        "noise period must be a number and a unit (ps, ns, us or ms), such as 25us, but was \"1mz\""});
    bad.add(new String[] {"period=1ms,detour=0.5ps", "noise detour must be a whole number of picoseconds but was"
        + " \"0.5ps\""});
    // the range in units the parser takes (it said "1 s", which it refuses)
    bad.add(new String[] {"period=2000ms,detour=1us", "noise period must be in [0 ps, 1000 ms] (a number and a unit:"
        + " ps, ns, us or ms) but was \"2000ms\""});
    bad.add(new String[] {"period=1ms,detour=-1us", "noise detour must be in [0 ps, 1000 ms] (a number and a unit:"
        + " ps, ns, us or ms) but was \"-1us\""});
    bad.add(new String[] {"period=1ms,period=2ms,detour=1us", "noise period is given twice"});
    bad.add(new String[] {"period=1ms,detour=1us,phase=odd", "noise phase must be aligned or random but was \"odd\""});
    bad.add(new String[] {"period=1ms,jitter=1us", "noise must be none or period=P,detour=D[,phase=aligned|random]"
        + " but had \"jitter=1us\" in \"period=1ms,jitter=1us\""});
    bad.add(new String[] {" ", "noise must be none or period=P,detour=D[,phase=aligned|random] but was empty"});
    for (String[] b : bad) {
      assertThatThrownBy(() -> OsNoise.parse(b[0])).as(b[0]).isInstanceOf(IllegalArgumentException.class)
          .hasMessage(b[1]);
    }
  }

  /**
   * A long or control-character spec is echoed abbreviated and escaped (stop 75's hunt: 100,000 characters of
   * {@code -p osNoise} came back whole), and numbers with extreme exponents are refused in one line.
   */
  @Test
  void aLongOrUnprintableSpecIsEchoedShortAndExtremeExponentsAreRefused() {
    String longSpec = "period=1ms,detour=" + "9".repeat(100_000) + "us";
    Throwable t = catchThrowable(() -> OsNoise.parse(longSpec));
    assertThat(t).isInstanceOf(IllegalArgumentException.class);
    assertThat(t.getMessage()).hasSizeLessThan(300).contains("(100002 characters)").doesNotContain("\n");
    Throwable junk = catchThrowable(() -> OsNoise.parse("period=1ms,detour=1us," + "x".repeat(5_000)));
    assertThat(junk.getMessage()).hasSizeLessThan(400).contains("(5000 characters)").contains("(5022 characters)");
    Throwable esc = catchThrowable(() -> OsNoise.parse("period=1ms,detour=1us,phase=ali\u0007gned"));
    assertThat(esc.getMessage()).doesNotContain("\u0007").contains("ali\\u0007gned");
    for (String number : new String[] {"1e2147483647", "1e-2147483647", "1e-2147483648", "1e999999999999"}) {
      String spec = "period=1ms,detour=" + number + "us";
      assertThatThrownBy(() -> OsNoise.parse(spec)).as(spec).isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("noise detour must be");
    }
  }

  private static final List<String> PIECES = List.of("period=", "detour=", "phase=", ",", "=", "ms", "us", "ns", "ps",
      "1", "0", "-1", ".5", "2.5", "1e3", "9".repeat(40), "aligned", "random", "none", " ", "", "\u0000", "é");

  /**
   * Mutated specs either read, and then print back to a spec that reads as the same noise, or are refused with an
   * IllegalArgumentException of one line: never another exception, never a noise out of its ranges.
   */
  @Test
  void mutatedSpecsReadBackOrAreRefusedInOneLine() {
    int[] outcomes = new int[2];
    qt().withExamples(500).withFixedSeed(59).forAll(longs().all()).checkAssert(seed -> {
      java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
      StringBuilder spec = new StringBuilder("period=1ms,detour=25us,phase=random");
      for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
        int at = rnd.nextInt(spec.length() + 1);
        switch (rnd.nextInt(3)) {
          case 0 -> spec.insert(at, PIECES.get(rnd.nextInt(PIECES.size())));
          case 1 -> spec.delete(at, Math.min(spec.length(), at + 1 + rnd.nextInt(8)));
          default -> spec.replace(at, Math.min(spec.length(), at + 1), String.valueOf((char) ('0' + rnd.nextInt(75))));
        }
      }
      OsNoise n;
      try {
        n = OsNoise.parse(spec.toString());
      } catch (IllegalArgumentException e) {
        assertThat(e.getMessage()).as(spec.toString()).isNotBlank().doesNotContain("\n").startsWith("noise");
        outcomes[1]++;
        return;
      }
      outcomes[0]++;
      assertThat(OsNoise.parse(n.toString())).as(spec.toString()).isEqualTo(n);
      if (!n.isNone()) {
        assertThat(n.periodPs()).isGreaterThanOrEqualTo(OsNoise.MIN_PERIOD_PS);
        assertThat(n.detourPs()).isPositive().isLessThan(n.periodPs());
      }
    });
    assertThat(outcomes[0]).as("specs read").isPositive();
    assertThat(outcomes[1]).as("specs refused").isPositive();
  }

  /**
   * A process on a noisy node: its work is stretched, a wake inside a detour waits for the detour's end, and idle time
   * and a wait are not stretched (nothing to do, so a detour then costs nothing).
   */
  @Test
  void aProcessRunsOnlyWhereItsNodesCpuIsFree() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<Long> log = new ArrayList<>();
    boolean[] flag = new boolean[1];
    try (ProcessRunner runner = new ProcessRunner(loop, ProcessRunner.ThreadKind.PLATFORM)) {
      SimProcess p = runner.spawn("noisy", 0, tenTwo(), self -> {
        log.add(self.now()); // spawned at 0, inside a detour: starts at 2 ns
        self.sleep(9 * NS); // 8 ns to 10, detour, 1 more: 13 ns
        log.add(self.now());
        self.idle(8 * NS); // 21 ns is inside [20, 22): goes on at 22
        log.add(self.now());
        self.waitUntil(() -> flag[0]); // the flag is set at 31 ns, inside [30, 32): goes on at 32
        log.add(self.now());
        self.idle(3 * NS); // 35: free, not stretched
        log.add(self.now());
      });
      loop.scheduleAt(31 * NS, (now, ref, arg) -> {
        flag[0] = true;
        runner.wake(p);
      }, null, 0);
      runner.run();
      assertThat(runner.unfinished()).isEmpty();
    }
    assertThat(log).containsExactly(2 * NS, 13 * NS, 22 * NS, 32 * NS, 35 * NS);
  }

  @Test
  void aResumePastTheClocksEndAndANullPhaseAreRefusedInOneLine() {
    // resume wrapped round to a negative time near Long.MAX_VALUE (stop 60's hunt), and a null phase threw an NPE
    OsNoise.CpuTime cpu = OsNoise.periodic(1_000_000, 900_000, OsNoise.Phase.ALIGNED).forNode(1, 0);
    long inDetour = Long.MAX_VALUE - Long.MAX_VALUE % 1_000_000; // a period's start: its detour ends past the clock
    assertThatThrownBy(() -> cpu.resume(inDetour)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a wait ending at " + inDetour + " ps would go on past the simulated clock's end (Long.MAX_VALUE"
            + " ps) with the node's detours of 900000 ps (noise detour must end within the clock)");
    assertThat(cpu.resume(inDetour - 1)).isEqualTo(inDetour - 1); // free: at once
    assertThat(cpu.resume(1_000_000)).isEqualTo(1_900_000);
    assertThatThrownBy(() -> OsNoise.periodic(1000, 10, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("noise phase must be ALIGNED or RANDOM but was null");
  }

  @Test
  void noiseThatStretchesWorkPastTheClocksEndIsOneLineNamingTheLongestDetourThatFits() {
    // a detour of all but a picosecond of each 1-s period stretches work 10^12 times: half a second of it ends past
    // the clock. The message was the overflow's own, "long overflow", once a report took the root cause
    long period = 1_000_000_000_000L;
    OsNoise.CpuTime cpu = OsNoise.periodic(period, period - 1, OsNoise.Phase.ALIGNED).forNode(1, 0);
    long work = 500_000_000_000L;
    Throwable t = catchThrowable(() -> cpu.finish(0, work));
    assertThat(t).isInstanceOf(IllegalArgumentException.class).hasNoCause()
        .hasMessageStartingWith("noise detour must be in [0, ")
        .hasMessageEndingWith("] ps for work of 500000000000 ps from 0 ps to end within the simulated clock"
            + " (Long.MAX_VALUE ps) with a period of 1000000000000 ps, but was 999999999999 ps");
    String m = t.getMessage();
    long largest = Long.parseLong(m.substring("noise detour must be in [0, ".length(), m.indexOf(']')));
    // the longest that fits: it ends within the clock, one picosecond more does not
    assertThat(OsNoise.periodic(period, largest, OsNoise.Phase.ALIGNED).forNode(1, 0).finish(0, work))
        .isBetween(work, Long.MAX_VALUE);
    assertThatThrownBy(() -> OsNoise.periodic(period, largest + 1, OsNoise.Phase.ALIGNED).forNode(1, 0)
        .finish(0, work)).isInstanceOf(IllegalArgumentException.class);
  }
}
