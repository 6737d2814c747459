package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory;

/**
 * How an {@link Iommu} is built: PTE-cache geometry and policy, miss-pipeline resources and timing. Immutable; make
 * one with {@link #defaults()} or {@link #builder()}.
 *
 * <p>Defaults and where they come from (keys from aries-facts.md):
 *
 * <table>
 *   <caption>defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>source</th></tr>
 *   <tr><td>ways × sets</td><td>4 × 32 = 128 lines</td><td>derived from the tag RAM widths (5-bit set, 2-bit way)
 *       [S6c]</td></tr>
 *   <tr><td>PTEs per line</td><td>8 (64 B)</td><td>derived from the data RAM (two 72-bit segments per way)
 *       [S6c]</td></tr>
 *   <tr><td>in-flight limit</td><td>32</td><td>"maximum(32) valid translation requests" [S6c]</td></tr>
 *   <tr><td>outstanding fetch buffers</td><td>8</td><td>assumed: the OFBs exist [S6c] but their number is not
 *       published</td></tr>
 *   <tr><td>PTE fetch latency</td><td>500 ns</td><td>assumed: one host-memory read over PCIe Gen3 [S3 via S1];
 *       no PTE-miss cost is published (aries-facts §7)</td></tr>
 *   <tr><td>hit latency</td><td>5 ns (4 cycles)</td><td>assumed, at the 800 MHz NIC clock [S2 via S1]</td></tr>
 *   <tr><td>issue interval</td><td>1.25 ns (1 cycle)</td><td>assumed: one request accepted per 800 MHz cycle
 *       [S2 via S1]</td></tr>
 *   <tr><td>prefetch</td><td>on (acts only for MDDs with the {@code mmu_prefetch} hint)</td><td>[S6b]</td></tr>
 *   <tr><td>policy</td><td>LRU, seed 0</td><td>assumed: the hardware policy is not published</td></tr>
 *   <tr><td>page tables</td><td>per translation context: one set for each context and page size, registrations
 *       placed first fit in its IO virtual space</td><td>[S6c] {@code pt_root_ptr} per TCR; the placement is
 *       assumed</td></tr>
 * </table>
 *
 * @param ways ways per set, 1..64
 * @param sets sets, a power of two in [1, 2^20]
 * @param ptesPerLine 8-byte PTEs per cache line, a power of two in [1, 512]; {@code sets × ways × ptesPerLine} at most
 *     {@link #MAX_CACHED_PTES}
 * @param policy makes the replacement policy (the built-in pseudo-LRU needs a power-of-two number of ways)
 * @param seed seed for the policy's random choices
 * @param maxInFlight translations admitted to the pipeline at once, 1..4096
 * @param fetchBuffers outstanding fetch buffers (concurrent PTE-line reads), 1..4096
 * @param pteFetchLatencyPs time of one PTE-line read from host memory, picoseconds, ≥ 0
 * @param hitLatencyPs time from a lookup that hits to the result, picoseconds, ≥ 0
 * @param issueIntervalPs minimum time between two requests entering the pipeline, picoseconds, ≥ 0
 * @param prefetch whether the MDD's prefetch hint is honoured (a miss then also fetches the next PTE line)
 * @param reuseMdhs whether a deregistered MDH may be handed out again (true, the hardware's behaviour: after 4,095
 *     further registrations a stale handle then reaches the new owner's memory with status OK); false makes every
 *     MDH single-use, so a stale handle always faults with INVALID_MDH, and registration fails with
 *     IllegalStateException once all 4,096 handles have been used
 * @param pageTables where registrations' page tables lie: {@link PageTables#PER_CONTEXT} (the default, the
 *     hardware's shape) or {@link PageTables#PER_REGISTRATION} (this model's first form, for comparison)
 */
public record IommuConfig(
    int ways,
    int sets,
    int ptesPerLine,
    ReplacementPolicyFactory policy,
    long seed,
    int maxInFlight,
    int fetchBuffers,
    long pteFetchLatencyPs,
    long hitLatencyPs,
    long issueIntervalPs,
    boolean prefetch,
    boolean reuseMdhs,
    PageTables pageTables) {

  /**
   * The replacement policy by the name a configuration file chooses it by: a built-in's id, a provider's
   * {@code name()}; a library user's other factory, which no file names, by its class.
   *
   * @return the name
   */
  public String policyName() {
    return policy instanceof BuiltInPolicy b ? b.id()
        : policy instanceof io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider named ? named.name()
        : policy.getClass().getName();
  }

  /** The settings, the replacement policy by its name ({@link #policyName()}) rather than a factory's identity hash. */
  @Override
  public String toString() {
    return "IommuConfig[ways=" + ways + ", sets=" + sets + ", ptesPerLine=" + ptesPerLine + ", policy=" + policyName()
        + ", seed=" + seed + ", maxInFlight=" + maxInFlight + ", fetchBuffers=" + fetchBuffers
        + ", pteFetchLatencyPs=" + pteFetchLatencyPs + ", hitLatencyPs=" + hitLatencyPs + ", issueIntervalPs="
        + issueIntervalPs + ", prefetch=" + prefetch + ", reuseMdhs=" + reuseMdhs + ", pageTables=" + pageTables
        + "]";
  }

  /** Default ways per set. */
  public static final int DEFAULT_WAYS = 4;
  /** Default sets. */
  public static final int DEFAULT_SETS = 32;
  /** Default PTEs per line. */
  public static final int DEFAULT_PTES_PER_LINE = 8;
  /** Default in-flight limit. */
  public static final int DEFAULT_MAX_IN_FLIGHT = 32;
  /** Default number of outstanding fetch buffers (assumed). */
  public static final int DEFAULT_FETCH_BUFFERS = 8;
  /** Default PTE fetch latency, ps (assumed). */
  public static final long DEFAULT_PTE_FETCH_LATENCY_PS = 500_000L;
  /** Default hit latency, ps (assumed). */
  public static final long DEFAULT_HIT_LATENCY_PS = 5_000L;
  /** Default issue interval, ps: one 800 MHz cycle. */
  public static final long DEFAULT_ISSUE_INTERVAL_PS = 1_250L;

  /**
   * The most PTEs a cache may hold, {@code sets × ways × ptesPerLine}: 2^24 (128 MiB of PTE data). Assumed: 16,384
   * times the Aries cache's 1,024 and beyond any geometry a study uses; it keeps the cache's arrays, made at the
   * first translation, within an array's index and a heap's reach, so a geometry the configuration accepts never
   * fails later.
   */
  public static final int MAX_CACHED_PTES = 1 << 24;

  /** Validates every field; messages name the parameter, the range and the value. */
  public IommuConfig {
    BuiltInPolicy.checkGeometry(1, ways);
    if (sets < 1 || sets > (1 << 20) || Integer.bitCount(sets) != 1) {
      throw new IllegalArgumentException("sets must be a power of two in [1, 1048576] but was " + sets);
    }
    if (ptesPerLine < 1 || ptesPerLine > 512 || Integer.bitCount(ptesPerLine) != 1) {
      throw new IllegalArgumentException("ptesPerLine must be a power of two in [1, 512] but was " + ptesPerLine);
    }
    long cached = (long) sets * ways * ptesPerLine;
    if (cached > MAX_CACHED_PTES) {
      throw new IllegalArgumentException("sets * ways * ptesPerLine (the PTEs the cache holds) must be at most "
          + MAX_CACHED_PTES + " but was " + sets + " * " + ways + " * " + ptesPerLine + " = " + cached);
    }
    if (policy == null) {
      throw new IllegalArgumentException("policy must not be null");
    }
    if (pageTables == null) {
      throw new IllegalArgumentException("pageTables must not be null");
    }
    if (policy == BuiltInPolicy.PSEUDO_LRU && Integer.bitCount(ways) != 1) {
      throw new IllegalArgumentException("ways must be a power of two in [1, 64] for pseudo-LRU but was " + ways);
    }
    if (!(policy instanceof BuiltInPolicy)) {
      probe(policy, sets, ways, seed);
    }
    if (maxInFlight < 1 || maxInFlight > 4096) {
      throw new IllegalArgumentException("maxInFlight must be in [1, 4096] but was " + maxInFlight);
    }
    if (fetchBuffers < 1 || fetchBuffers > 4096) {
      throw new IllegalArgumentException("fetchBuffers must be in [1, 4096] but was " + fetchBuffers);
    }
    checkTime("pteFetchLatencyPs", pteFetchLatencyPs);
    checkTime("hitLatencyPs", hitLatencyPs);
    checkTime("issueIntervalPs", issueIntervalPs);
  }

  /**
   * Asks a user's factory for one policy of this geometry, as the IOMMU will at its first translation, so that a
   * factory that refuses the geometry (as {@link ReplacementPolicyFactory#create} may), fails (any other runtime
   * exception, named with its class) or makes no policy is refused here, naming it, and not from inside a NIC's event in the middle of a run. The policy made is dropped. (The
   * built-in policies' geometry is checked above without making one.)
   */
  private static void probe(ReplacementPolicyFactory policy, int sets, int ways, long seed) {
    String name = policy.getClass().getName();
    ReplacementPolicy made;
    try {
      made = policy.create(sets, ways, seed);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("policy " + name + " refuses sets " + sets + " and ways " + ways + ": "
          + e.getMessage(), e);
    } catch (RuntimeException e) { // (escaped build() bare, naming no factory, until stop 74)
      throw new IllegalArgumentException("policy " + name + " failed to make a policy for sets " + sets + " and ways "
          + ways + ": " + e, e);
    }
    if (made == null) {
      throw new IllegalArgumentException("policy " + name + " made no policy (null) for sets " + sets + " and ways "
          + ways);
    }
  }

  /**
   * A time of the pipeline: at most 1 ms (10^9 ps; assumed, as the router fabric's injection latency: beyond it a
   * value is a unit mistake, and the pipeline's sums of times must stay inside the clock).
   */
  private static void checkTime(String name, long ps) {
    if (ps < 0 || ps > SimTime.MAX_LATENCY_PS) {
      throw new IllegalArgumentException(name + " must be in [0, 1e9] ps but was " + ps);
    }
  }

  /** @return the Aries defaults (see the class javadoc) */
  public static IommuConfig defaults() {
    return builder().build();
  }

  /** @return a builder holding the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return a builder holding this configuration */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.ways = ways;
    b.sets = sets;
    b.ptesPerLine = ptesPerLine;
    b.policy = policy;
    b.seed = seed;
    b.maxInFlight = maxInFlight;
    b.fetchBuffers = fetchBuffers;
    b.pteFetchLatencyPs = pteFetchLatencyPs;
    b.hitLatencyPs = hitLatencyPs;
    b.issueIntervalPs = issueIntervalPs;
    b.prefetch = prefetch;
    b.reuseMdhs = reuseMdhs;
    b.pageTables = pageTables;
    return b;
  }

  /** @return lines in the cache, ways × sets */
  public int lines() {
    return ways * sets;
  }

  /** @return bytes of one cache line, 8 × ptesPerLine */
  public int lineBytes() {
    return ptesPerLine * 8;
  }

  /** Builds an {@link IommuConfig}; every setter returns the builder. */
  public static final class Builder {
    private int ways = DEFAULT_WAYS;
    private int sets = DEFAULT_SETS;
    private int ptesPerLine = DEFAULT_PTES_PER_LINE;
    private ReplacementPolicyFactory policy = BuiltInPolicy.LRU;
    private long seed;
    private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
    private int fetchBuffers = DEFAULT_FETCH_BUFFERS;
    private long pteFetchLatencyPs = DEFAULT_PTE_FETCH_LATENCY_PS;
    private long hitLatencyPs = DEFAULT_HIT_LATENCY_PS;
    private long issueIntervalPs = DEFAULT_ISSUE_INTERVAL_PS;
    private boolean prefetch = true;
    private boolean reuseMdhs = true;
    private PageTables pageTables = PageTables.PER_CONTEXT;

    private Builder() {}

    /** @param v ways per set @return this */
    public Builder ways(int v) {
      ways = v;
      return this;
    }

    /** @param v sets @return this */
    public Builder sets(int v) {
      sets = v;
      return this;
    }

    /** @param v PTEs per line @return this */
    public Builder ptesPerLine(int v) {
      ptesPerLine = v;
      return this;
    }

    /** @param v policy factory @return this */
    public Builder policy(ReplacementPolicyFactory v) {
      policy = v;
      return this;
    }

    /** @param v policy seed @return this */
    public Builder seed(long v) {
      seed = v;
      return this;
    }

    /** @param v in-flight limit @return this */
    public Builder maxInFlight(int v) {
      maxInFlight = v;
      return this;
    }

    /** @param v outstanding fetch buffers @return this */
    public Builder fetchBuffers(int v) {
      fetchBuffers = v;
      return this;
    }

    /** @param v PTE fetch latency, ps @return this */
    public Builder pteFetchLatencyPs(long v) {
      pteFetchLatencyPs = v;
      return this;
    }

    /** @param v hit latency, ps @return this */
    public Builder hitLatencyPs(long v) {
      hitLatencyPs = v;
      return this;
    }

    /** @param v issue interval, ps @return this */
    public Builder issueIntervalPs(long v) {
      issueIntervalPs = v;
      return this;
    }

    /** @param v honour prefetch hints @return this */
    public Builder prefetch(boolean v) {
      prefetch = v;
      return this;
    }

    /**
     * Whether deregistered MDHs are handed out again (default true, as the hardware does); see
     * {@link IommuConfig#reuseMdhs()}.
     *
     * @param v false for single-use handles
     * @return this builder
     */
    public Builder reuseMdhs(boolean v) {
      this.reuseMdhs = v;
      return this;
    }

    /**
     * Where registrations' page tables lie (default {@link PageTables#PER_CONTEXT}); see {@link PageTables}.
     *
     * @param v the choice
     * @return this builder
     */
    public Builder pageTables(PageTables v) {
      this.pageTables = v;
      return this;
    }

    /** @return the validated configuration */
    public IommuConfig build() {
      return new IommuConfig(ways, sets, ptesPerLine, policy, seed, maxInFlight, fetchBuffers, pteFetchLatencyPs,
          hitLatencyPs, issueIntervalPs, prefetch, reuseMdhs, pageTables);
    }
  }
}
