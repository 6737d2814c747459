package io.github.ariesmodel.system.process;

import io.github.ariesmodel.core.Texts;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Objects;

/**
 * Operating-system noise on the nodes: the node's kernel takes the CPU from the process running there for a detour
 * of fixed length once every period (a timer interrupt and the work it starts; the form of the FTQ/FWQ measurements of
 * OS noise), so that a process's work that spans a detour ends that much later, and a process whose wait ends inside
 * a detour runs again only when the detour is over. A wait itself is not lengthened: a detour while the process has
 * nothing to do costs nothing.
 *
 * <p>Every detour has the same length and every node the same period; a node's detours start at its phase, which is
 * either 0 on every node ({@link Phase#ALIGNED}: the nodes' kernels tick together, as co-scheduled noise) or drawn per
 * node from the run's seed ({@link Phase#RANDOM}: uncoordinated nodes). All processes of one node share its detours.
 * No value is a default: the period and the detour are the user's (published FTQ measurements of XC compute nodes
 * were not found; docs/mpi.md, "Operating-system noise"). {@link #none()} is a node with no noise, the model's
 * default, where a process's work takes exactly its length.
 */
public final class OsNoise {

  /** How the nodes' detours line up. */
  public enum Phase {
    /** Every node's detours start at the same times (period multiples). */
    ALIGNED,
    /** Each node's detours start at an offset in [0, period) drawn from the run's seed and the node's id. */
    RANDOM
  }

  /** When a node's CPU is there for a process: the function of a node's detours the process runner applies. */
  public interface CpuTime {

    /**
     * When work of {@code workPs} started at {@code startPs} ends, the detours in between added.
     *
     * @param startPs when the work starts
     * @param workPs the work's length, ≥ 0 (0 ends at once)
     * @return the end, ≥ startPs + workPs
     */
    long finish(long startPs, long workPs);

    /**
     * When a process that could run at {@code atPs} does: at once, or at the end of the detour it falls in.
     *
     * @param atPs a time
     * @return the time, or the end of the detour that covers it
     * @throws IllegalArgumentException when that detour would end past the clock's end (it wrapped round before)
     */
    long resume(long atPs);
  }

  private static final OsNoise NONE = new OsNoise(0, 0, Phase.ALIGNED);

  /** The smallest period, 1 ns: one below would make every detour of whole picoseconds the whole period. */
  public static final long MIN_PERIOD_PS = 1_000;

  private final long periodPs;
  private final long detourPs;
  private final Phase phase;

  private OsNoise(long periodPs, long detourPs, Phase phase) {
    this.periodPs = periodPs;
    this.detourPs = detourPs;
    this.phase = phase;
  }

  /** @return no noise: every process's work takes exactly its length */
  public static OsNoise none() {
    return NONE;
  }

  /**
   * Detours of {@code detourPs} once every {@code periodPs} on every node.
   *
   * @param periodPs the period, at least {@link #MIN_PERIOD_PS}
   * @param detourPs each detour, 0 (no noise) to period − 1
   * @param phase how the nodes' detours line up
   * @return the noise
   * @throws IllegalArgumentException for a value out of range, naming it
   */
  public static OsNoise periodic(long periodPs, long detourPs, Phase phase) {
    if (periodPs < MIN_PERIOD_PS) {
      throw new IllegalArgumentException("noise period must be at least " + MIN_PERIOD_PS + " ps (1 ns) but was "
          + periodPs + " ps");
    }
    if (detourPs < 0 || detourPs >= periodPs) {
      throw new IllegalArgumentException("noise detour must be in [0, " + (periodPs - 1) + "] ps (shorter than the "
          + "period) but was " + detourPs + " ps");
    }
    if (phase == null) {
      throw new IllegalArgumentException("noise phase must be ALIGNED or RANDOM but was null");
    }
    return detourPs == 0 ? NONE : new OsNoise(periodPs, detourPs, phase);
  }

  /**
   * Reads a noise spec: {@code none}, or {@code period=P,detour=D[,phase=aligned|random]} with each duration a number
   * and a unit ({@code ps}, {@code ns}, {@code us}, {@code ms}; {@code 2.5us}), phase {@code random} when left out.
   *
   * @param spec the spec
   * @return the noise
   * @throws IllegalArgumentException naming what was wrong, in one line
   */
  public static OsNoise parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("noise must be none or period=P,detour=D[,phase=aligned|random] but was"
          + " empty");
    }
    String s = spec.trim();
    if (s.equals("none")) {
      return NONE;
    }
    Long period = null;
    Long detour = null;
    Phase phase = Phase.RANDOM;
    for (String part : s.split(",", -1)) {
      int eq = part.indexOf('=');
      String key = eq < 0 ? part.trim() : part.substring(0, eq).trim();
      String value = eq < 0 ? "" : part.substring(eq + 1).trim();
      switch (key) {
        case "period" -> period = duration("noise period", value, period);
        case "detour" -> detour = duration("noise detour", value, detour);
        case "phase" -> {
          if (!value.equals("aligned") && !value.equals("random")) {
            throw new IllegalArgumentException("noise phase must be aligned or random but was \""
                + Texts.abbreviate(value) + "\"");
          }
          phase = value.equals("aligned") ? Phase.ALIGNED : Phase.RANDOM;
        }
        default -> throw new IllegalArgumentException("noise must be none or period=P,detour=D[,phase=aligned|random]"
            + " but had \"" + Texts.abbreviate(part.trim()) + "\" in \"" + Texts.abbreviate(s) + "\"");
      }
    }
    if (period == null || detour == null) {
      throw new IllegalArgumentException("noise must give both period= and detour= (or be none) but was \""
          + Texts.abbreviate(s) + "\"");
    }
    return periodic(period, detour, phase);
  }

  private static long duration(String name, String text, Long already) {
    if (already != null) {
      throw new IllegalArgumentException(name + " is given twice");
    }
    String t = text.toLowerCase(Locale.ROOT);
    long scale;
    String digits;
    if (t.endsWith("ps")) {
      scale = 1;
      digits = t.substring(0, t.length() - 2);
    } else if (t.endsWith("ns")) {
      scale = 1_000;
      digits = t.substring(0, t.length() - 2);
    } else if (t.endsWith("us")) {
      scale = 1_000_000;
      digits = t.substring(0, t.length() - 2);
    } else if (t.endsWith("ms")) {
      scale = 1_000_000_000;
      digits = t.substring(0, t.length() - 2);
    } else {
      throw new IllegalArgumentException(name + " must be a number and a unit (ps, ns, us or ms), such as 25us, but was"
          + " \"" + Texts.abbreviate(text) + "\"");
    }
    BigDecimal v;
    try {
      v = new BigDecimal(digits.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number and a unit (ps, ns, us or ms), such as 25us, but was"
          + " \"" + Texts.abbreviate(text) + "\"", e);
    }
    BigDecimal ps = v.multiply(BigDecimal.valueOf(scale));
    // at most one second: a detour or period longer than a simulation is surely a mistyped unit
    if (ps.signum() < 0 || ps.compareTo(BigDecimal.valueOf(1_000_000_000_000L)) > 0) {
      // (in units it accepts: it said "1 s", which it refuses)
      throw new IllegalArgumentException(name + " must be in [0 ps, 1000 ms] (a number and a unit: ps, ns, us or ms)"
          + " but was \"" + Texts.abbreviate(text) + "\"");
    }
    try {
      return ps.longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(name + " must be a whole number of picoseconds but was \""
          + Texts.abbreviate(text) + "\"", e);
    }
  }

  /** @return whether there is no noise */
  public boolean isNone() {
    return detourPs == 0;
  }

  /** @return the period, ps (0 for none) */
  public long periodPs() {
    return periodPs;
  }

  /** @return each detour, ps (0 for none) */
  public long detourPs() {
    return detourPs;
  }

  /** @return how the nodes' detours line up */
  public Phase phase() {
    return phase;
  }

  /** @return the share of a node's time its kernel takes, detour / period (0 for none) */
  public double fraction() {
    return isNone() ? 0 : (double) detourPs / periodPs;
  }

  /**
   * The CPU time of one node.
   *
   * @param seed the run's seed (for random phases)
   * @param node the node's id, ≥ 0
   * @return its CPU time, or null for no noise (the process runner then adds nothing)
   */
  public CpuTime forNode(long seed, int node) {
    if (node < 0) {
      throw new IllegalArgumentException("node must be >= 0 but was " + node);
    }
    if (isNone()) {
      return null;
    }
    long offset = phase == Phase.ALIGNED ? 0 : Math.floorMod(mix(seed, node), periodPs);
    return new Periodic(periodPs, detourPs, offset);
  }

  /** SplitMix64's finalizer over the seed and the node: a phase that depends on both and on nothing else. */
  private static long mix(long seed, int node) {
    long z = seed * 0x9E3779B97F4A7C15L + (node + 1L) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The spec {@link #parse} reads back: {@code none} or {@code period=...ps,detour=...ps,phase=...}. */
  @Override
  public String toString() {
    return isNone() ? "none" : "period=" + periodPs + "ps,detour=" + detourPs + "ps,phase="
        + phase.name().toLowerCase(Locale.ROOT);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OsNoise n && n.periodPs == periodPs && n.detourPs == detourPs && n.phase == phase;
  }

  @Override
  public int hashCode() {
    return Objects.hash(periodPs, detourPs, phase);
  }

  /**
   * Detours [offset + kP, offset + kP + D) for every whole k. The CPU time a node has had by time t, counted from
   * offset, is k(P − D) + max(0, r − D) with k = ⌊(t − offset) / P⌋ and r the remainder; work ends where that count
   * has grown by its length.
   */
  private record Periodic(long periodPs, long detourPs, long offsetPs) implements CpuTime {

    @Override
    public long finish(long startPs, long workPs) {
      if (workPs <= 0) {
        return startPs;
      }
      long end = end(detourPs, startPs, workPs);
      if (end < 0) {
        // one line of its own, no cause: a report that takes a failure's root message gave "long overflow"
        throw new IllegalArgumentException("noise detour must be in [0, " + largestDetour(startPs, workPs) + "] ps for"
            + " work of " + workPs + " ps from " + startPs + " ps to end within the simulated clock (Long.MAX_VALUE ps)"
            + " with a period of " + periodPs + " ps, but was " + detourPs + " ps");
      }
      return end;
    }

    /** The end of the work with detours of {@code detour}, or -1 when it would pass the clock's end. */
    private long end(long detour, long startPs, long workPs) {
      long free = periodPs - detour;
      long rel = startPs - offsetPs;
      long k = Math.floorDiv(rel, periodPs);
      long r = rel - k * periodPs;
      long had = Math.max(0, r - detour); // CPU time of period k already behind
      try {
        long target = Math.addExact(had, workPs); // from the start of period k
        long periods = target / free;
        long rest = target - periods * free;
        // ends in a period's free part, or exactly where a free part ends (at the next detour's start)
        long periodStart = Math.addExact(offsetPs, Math.multiplyExact(Math.addExact(k, periods), periodPs));
        return rest == 0 ? periodStart : Math.addExact(periodStart, detour + rest);
      } catch (ArithmeticException e) {
        return -1;
      }
    }

    /** The longest detour with which the work still ends within the clock (the end grows with the detour). */
    private long largestDetour(long startPs, long workPs) {
      long lo = 0; // ends: work from a time within the clock, with no detour, ends within it (the caller checked)
      long hi = detourPs; // does not
      while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (end(mid, startPs, workPs) >= 0) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    @Override
    public long resume(long atPs) {
      long rel = atPs - offsetPs;
      long k = Math.floorDiv(rel, periodPs);
      long r = rel - k * periodPs;
      if (r >= detourPs) {
        return atPs;
      }
      long end = atPs - r + detourPs; // after atPs unless it passed the clock's end and wrapped
      if (end < atPs) {
        throw new IllegalArgumentException("a wait ending at " + atPs + " ps would go on past the simulated clock's end"
            + " (Long.MAX_VALUE ps) with the node's detours of " + detourPs + " ps (noise detour must end within the"
            + " clock)");
      }
      return end;
    }
  }
}
