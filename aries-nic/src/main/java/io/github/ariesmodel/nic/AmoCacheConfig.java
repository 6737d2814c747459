package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.Texts;

/**
 * The settings of the NIC's AMO cache, the datastore of the AMO unit that the cached AMO commands ({@code _C},
 * {@code _SC}) use (docs/memory-hierarchy.md, "AMO cache").
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>source</th></tr>
 *   <tr><td>{@code entries}</td><td>64 words</td><td>derived: the datastore's address is 6 bits [S6d]
 *       ({@code ar_nic_amo_dbg_errinj_datastore.address})</td></tr>
 *   <tr><td>{@code writeBack}</td><td>{@link AmoWriteBack#IDLE}</td><td>derived from [S6d], see the enum</td></tr>
 * </table>
 *
 * <p>Assumed, not configurable: each entry holds one naturally aligned 8-byte word (a 32-bit AMO uses its half),
 * entries are fully associative with least-recently-used replacement among idle entries (the hardware's tag store
 * organisation is unpublished).
 *
 * @param entries words the cache holds, 0 to {@link #MAX_ENTRIES}; 0 turns it off (cached commands then execute as
 *     their uncached twins, as without {@code GNI_CDM_MODE_CACHED_AMO_ENABLED})
 * @param writeBack when dirty entries reach host memory
 */
public record AmoCacheConfig(int entries, AmoWriteBack writeBack) {

  /** Largest number of entries accepted (a model limit: the lookup scans the entries). */
  public static final int MAX_ENTRIES = 4096;

  /** Validates the fields. */
  public AmoCacheConfig {
    checkArgument(entries >= 0 && entries <= MAX_ENTRIES, "amoCache.entries must be in [0, %s] but was %s",
        MAX_ENTRIES, entries);
    checkArgument(writeBack != null, "amoCache.writeBack must be one of idle, eviction but was null");
  }

  /**
   * The documented defaults: 64 entries, write-back when idle.
   *
   * @return the defaults
   */
  public static AmoCacheConfig defaults() {
    return new AmoCacheConfig(64, AmoWriteBack.IDLE);
  }

  /**
   * No AMO cache: every AMO, cached command or not, is a memory AMO.
   *
   * @return a configuration with 0 entries
   */
  public static AmoCacheConfig off() {
    return new AmoCacheConfig(0, AmoWriteBack.IDLE);
  }

  /** @return whether the cache exists (entries above 0) */
  public boolean enabled() {
    return entries > 0;
  }

  /** @param n entries, 0 to 4096 @return a copy with them */
  public AmoCacheConfig withEntries(int n) {
    return new AmoCacheConfig(n, writeBack);
  }

  /** @param w the write-back policy @return a copy with it */
  public AmoCacheConfig withWriteBack(AmoWriteBack w) {
    return new AmoCacheConfig(entries, w);
  }

  /**
   * Reads {@code entries=N,writeBack=idle|eviction} (either key may be left out and takes its default; neither may be
   * given twice), as
   * {@link #toString()} writes it.
   *
   * @param text the settings
   * @return the configuration
   * @throws IllegalArgumentException naming the key, range and value when a setting is invalid or unknown
   */
  public static AmoCacheConfig parse(String text) {
    checkArgument(text != null, "amoCache settings must not be null");
    AmoCacheConfig c = defaults();
    boolean entriesGiven = false;
    boolean writeBackGiven = false;
    for (String part : text.split(",")) {
      String p = part.trim();
      if (p.isEmpty()) {
        continue;
      }
      int eq = p.indexOf('=');
      checkArgument(eq > 0, "amoCache setting must be key=value (keys entries, writeBack) but was \"%s\"",
          Texts.abbreviate(p));
      String key = p.substring(0, eq).trim();
      String value = p.substring(eq + 1).trim();
      switch (key) {
        case "entries" -> {
          checkArgument(!entriesGiven, "amoCache setting entries must be given once but was given twice: \"%s\"",
              Texts.abbreviate(text));
          entriesGiven = true;
          int n;
          try {
            n = Integer.parseInt(value);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                "amoCache.entries must be an integer in [0, " + MAX_ENTRIES + "] but was \"" + Texts.abbreviate(value)
                + "\"");
          }
          c = c.withEntries(n);
        }
        case "writeBack" -> {
          checkArgument(!writeBackGiven,
              "amoCache setting writeBack must be given once but was given twice: \"%s\"",
              Texts.abbreviate(text));
          writeBackGiven = true;
          c = c.withWriteBack(AmoWriteBack.parse(value));
        }
        default -> throw new IllegalArgumentException(
            "amoCache setting must be one of entries, writeBack but was \"" + Texts.abbreviate(key) + "\"");
      }
    }
    return c;
  }

  /** @return {@code entries=N,writeBack=...}, which {@link #parse} reads back */
  @Override
  public String toString() {
    return "entries=" + entries + ",writeBack=" + writeBack;
  }
}
