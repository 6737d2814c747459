package io.github.ariesmodel.core.cache;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.ByteCount;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.core.spi.NicWritePolicy;
import java.util.Locale;

/**
 * The geometry, timing and NIC write policy of a {@link SetAssociativeHostCache}.
 *
 * <p>Defaults ({@link #xc40()}): one socket of a Cray XC40 compute node, an Intel Xeon E5-2698 v3 (Haswell-EP,
 * 16 cores, 2.3 GHz), whose socket holds the PCIe link to the Aries NIC.
 * <ul>
 *   <li>capacity 40 MB: 2.5 MB of shared, inclusive L3 per core × 16 cores (Intel's description of the Xeon E5
 *       v3/v4 last-level cache, "2.5 MB per core"; Intel support article 000027820). The node's second socket is
 *       not modelled (assumed: the NIC's traffic and the polling thread live on the NIC's socket).
 *   <li>64-byte lines (Intel's line size on every Xeon of the XC generation; 7-cpu.com's Westmere/Ivy Bridge pages).
 *   <li>20 ways (assumed: the 20-way L3 slices of Sandy Bridge-EP through Broadwell-EP; not read in a primary source
 *       here), so 32,768 sets (derived).
 *   <li>hit latency 17.4 ns (derived: about 40 core cycles for an unshared L3 hit, the figure of Intel's Xeon 5500
 *       Performance Analysis Guide as quoted in the stackoverflow question 4087280, at 2.3 GHz; assumed to carry
 *       over to Haswell-EP, whose measured L3 latency is of the same order).
 *   <li>memory latency 82 ns (derived: 7-cpu.com measures a Xeon X5650's local RAM at 40 cycles + 67 ns at
 *       2.67 GHz = 82 ns; assumed for Haswell-EP's DDR4-2133).
 * </ul>
 * The replacement policy is LRU (Intel's L3 uses an undocumented pseudo-LRU or adaptive policy; LRU is the assumed
 * stand-in).
 *
 * <p>{@link #toString()} gives {@code capacity=40M,line=64,ways=20,hitPs=17400,memoryPs=82000,policy=update}, which
 * {@link #parse} reads back; {@code parse} also accepts any subset of the keys (the rest keep the defaults).
 *
 * @param capacityBytes bytes of data the cache holds: a multiple of lineBytes × ways
 * @param lineBytes bytes per line: a power of two from 8 to 4096
 * @param ways lines per set, 1 to 64
 * @param hitLatencyPs latency of an access that hits, ≥ 0
 * @param memoryLatencyPs latency of an access that goes to memory, ≥ hitLatencyPs
 * @param nicWritePolicy what a NIC write of a cached line does
 */
public record HostCacheConfig(
    long capacityBytes, int lineBytes, int ways, long hitLatencyPs, long memoryLatencyPs,
    NicWritePolicy nicWritePolicy) {

  /** Default capacity: 40 MB (one XC40 Haswell-EP socket, see the class comment). */
  public static final long DEFAULT_CAPACITY = 40L << 20;
  /** Default line size in bytes. */
  public static final int DEFAULT_LINE = 64;
  /** Default associativity (assumed, see the class comment). */
  public static final int DEFAULT_WAYS = 20;
  /** Default hit latency in ps (derived, see the class comment). */
  public static final long DEFAULT_HIT_PS = 17_400;
  /** Default memory latency in ps (derived, see the class comment). */
  public static final long DEFAULT_MEMORY_PS = 82_000;

  /** Validates the combination. */
  public HostCacheConfig {
    checkArgument(lineBytes >= 8 && lineBytes <= 4096 && Integer.bitCount(lineBytes) == 1,
        "lineBytes must be a power of two from 8 to 4096 but was %s", lineBytes);
    checkArgument(ways >= 1 && ways <= 64, "ways must be 1..64 but was %s", ways);
    checkArgument(capacityBytes > 0 && capacityBytes % ((long) lineBytes * ways) == 0
            && capacityBytes / ((long) lineBytes * ways) <= Integer.MAX_VALUE,
        "capacityBytes must be a positive multiple of lineBytes × ways (%s) with at most 2^31 - 1 sets but was %s",
        (long) lineBytes * ways, capacityBytes);
    SimTime.checkLatency("hitLatencyPs", hitLatencyPs);
    SimTime.checkLatency("memoryLatencyPs", memoryLatencyPs);
    checkArgument(memoryLatencyPs >= hitLatencyPs, "memoryLatencyPs must be >= hitLatencyPs (%s) but was %s",
        hitLatencyPs, memoryLatencyPs);
    checkArgument(nicWritePolicy != null, "nicWritePolicy must not be null");
  }

  /** @return the XC40 (Haswell-EP socket) defaults with the {@link NicWritePolicy#UPDATE} policy */
  public static HostCacheConfig xc40() {
    return new HostCacheConfig(DEFAULT_CAPACITY, DEFAULT_LINE, DEFAULT_WAYS, DEFAULT_HIT_PS, DEFAULT_MEMORY_PS,
        NicWritePolicy.UPDATE);
  }

  /** @return sets in the cache: capacity / (line × ways) */
  public int sets() {
    return (int) (capacityBytes / ((long) lineBytes * ways));
  }

  /** @param policy the NIC write policy @return this configuration with it */
  public HostCacheConfig withNicWritePolicy(NicWritePolicy policy) {
    return new HostCacheConfig(capacityBytes, lineBytes, ways, hitLatencyPs, memoryLatencyPs, policy);
  }

  /**
   * @param capacity bytes
   * @param line bytes per line
   * @param associativity ways
   * @return this configuration with that geometry
   */
  public HostCacheConfig withGeometry(long capacity, int line, int associativity) {
    return new HostCacheConfig(capacity, line, associativity, hitLatencyPs, memoryLatencyPs, nicWritePolicy);
  }

  /**
   * @param hitPs hit latency
   * @param memoryPs memory latency
   * @return this configuration with those latencies
   */
  public HostCacheConfig withLatencies(long hitPs, long memoryPs) {
    return new HostCacheConfig(capacityBytes, lineBytes, ways, hitPs, memoryPs, nicWritePolicy);
  }

  /**
   * Reads a configuration: comma-separated {@code key=value} pairs over the {@link #xc40()} defaults. Keys:
   * {@code capacity} (a byte count: {@code 40M}), {@code line}, {@code ways}, {@code hitPs}, {@code memoryPs},
   * {@code policy} ({@code update}, {@code invalidate}, {@code bypass}, {@code allocate}), each at most once. An empty
   * text gives the defaults.
   *
   * @param text the configuration
   * @return the configuration
   * @throws IllegalArgumentException naming the bad key or value
   */
  public static HostCacheConfig parse(String text) {
    checkArgument(text != null, "host cache configuration must not be null");
    HostCacheConfig c = xc40();
    long capacity = c.capacityBytes;
    long line = c.lineBytes;
    long ways = c.ways;
    long hit = c.hitLatencyPs;
    long mem = c.memoryLatencyPs;
    NicWritePolicy policy = c.nicWritePolicy;
    java.util.Set<String> given = new java.util.HashSet<>();
    for (String part : text.split(",", -1)) {
      if (part.isBlank() && text.isBlank()) {
        continue;
      }
      int eq = part.indexOf('=');
      checkArgument(eq > 0, "host cache setting must be key=value with key one of capacity, line, ways, hitPs, "
          + "memoryPs, policy but was '%s'", Texts.abbreviate(part));
      String key = part.substring(0, eq).trim();
      String value = part.substring(eq + 1).trim();
      // a repeated key is a mistake (the later value used to win in silence), as in the other option texts
      checkArgument(!known(key) || given.add(key.toLowerCase(Locale.ROOT)),
          "host cache key %s must be given once but was given twice: '%s'", canonical(key), Texts.abbreviate(text));
      switch (key.toLowerCase(Locale.ROOT)) {
        case "capacity" -> capacity = ByteCount.parse("capacity", value);
        case "line" -> line = ByteCount.parse("line", value);
        case "ways" -> ways = number("ways", value);
        case "hitps" -> hit = number("hitPs", value);
        case "memoryps" -> mem = number("memoryPs", value);
        case "policy" -> policy = NicWritePolicy.parse(value);
        default -> throw new IllegalArgumentException("host cache key must be one of capacity, line, ways, hitPs, "
            + "memoryPs, policy but was '" + Texts.abbreviate(key) + "'");
      }
    }
    checkArgument(line <= 4096, "lineBytes must be a power of two from 8 to 4096 but was %s", line);
    checkArgument(ways <= 64, "ways must be 1..64 but was %s", ways);
    return new HostCacheConfig(capacity, (int) line, (int) ways, hit, mem, policy);
  }

  private static final java.util.List<String> KEYS =
      java.util.List.of("capacity", "line", "ways", "hitPs", "memoryPs", "policy");

  private static boolean known(String key) {
    return canonical(key) != null;
  }

  /** @return the key as the documentation spells it, or null for none */
  private static String canonical(String key) {
    for (String k : KEYS) {
      if (k.equalsIgnoreCase(key)) {
        return k;
      }
    }
    return null;
  }

  private static long number(String key, String value) {
    checkArgument(!value.isEmpty() && value.length() <= 18 && value.chars().allMatch(ch -> ch >= '0' && ch <= '9'),
        "%s must be a whole number of at most 18 ASCII digits but was '%s'", key, Texts.abbreviate(value));
    return Long.parseLong(value);
  }

  /** @return the text {@link #parse} reads back */
  @Override
  public String toString() {
    return "capacity=" + ByteCount.format(capacityBytes) + ",line=" + lineBytes + ",ways=" + ways + ",hitPs="
        + hitLatencyPs + ",memoryPs=" + memoryLatencyPs + ",policy=" + nicWritePolicy;
  }
}
