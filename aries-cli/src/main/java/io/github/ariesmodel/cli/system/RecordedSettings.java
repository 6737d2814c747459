package io.github.ariesmodel.cli.system;

import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.nic.NicTiming;
import io.github.ariesmodel.system.FabricKind;
import io.github.ariesmodel.system.TranslatorKind;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A run's system settings as its {@code results.json} records them (the {@code run} block's {@code fabric},
 * {@code translator}, {@code nic} and {@code iommu}), so that two runs that differ only there are told apart: the
 * kinds as {@code --fabric} and {@code --translator} take them, and the NIC and IOMMU settings that differ from the
 * defaults, under the keys and in the units of a configuration file's {@code nic} and {@code iommu} mappings
 * ({@code RunConfig}), as text, in alphabetical key order. A setting equal to its default is left out, so a run
 * whose file spells out a default records what a run without the file does: the same settings give the same block.
 * The keys here are the keys a configuration file may use, the one list of them. Settings no configuration file can
 * change (a NIC's PTAG and PKEY, its inject hold limit and FMA front end, the IOMMU's MDH reuse) are not recorded.
 */
public final class RecordedSettings {

  /** The keys of a configuration file's {@code nic} mapping. */
  public static final Set<String> NIC_KEYS = Set.copyOf(allNic(NicConfig.defaults()).keySet());

  /** The keys of a configuration file's {@code iommu} mapping. */
  public static final Set<String> IOMMU_KEYS = Set.copyOf(allIommu(IommuConfig.defaults()).keySet());

  private RecordedSettings() {}

  /**
   * @param f a fabric kind
   * @return its name as {@code --fabric} takes it ({@code routers}, {@code ideal})
   */
  public static String fabric(FabricKind f) {
    return f.name().toLowerCase(Locale.ROOT);
  }

  /**
   * @param t a translator kind
   * @return its name as {@code --translator} takes it ({@code iommu}, {@code flat})
   */
  public static String translator(TranslatorKind t) {
    return t.name().toLowerCase(Locale.ROOT);
  }

  /**
   * @param c a NIC configuration
   * @return its settings that differ from {@link NicConfig#defaults()}, by configuration-file key, in key order
   */
  public static SortedMap<String, String> nic(NicConfig c) {
    return differences(allNic(c), allNic(NicConfig.defaults()));
  }

  /**
   * @param c an IOMMU configuration
   * @return its settings that differ from {@link IommuConfig#defaults()}, by configuration-file key, in key order
   */
  public static SortedMap<String, String> iommu(IommuConfig c) {
    return differences(allIommu(c), allIommu(IommuConfig.defaults()));
  }

  private static SortedMap<String, String> differences(Map<String, String> values, Map<String, String> defaults) {
    SortedMap<String, String> out = new TreeMap<>();
    values.forEach((k, v) -> {
      if (!v.equals(defaults.get(k))) {
        out.put(k, v);
      }
    });
    return out;
  }

  /** Every NIC setting a configuration file may give, in its units there ({@code RunConfig} reads them back). */
  private static SortedMap<String, String> allNic(NicConfig c) {
    NicTiming t = c.timing();
    SortedMap<String, String> m = new TreeMap<>();
    m.put("requestTags", Integer.toString(c.requestTags()));
    m.put("bteChannels", Integer.toString(c.bteChannels()));
    m.put("fmaBteThreshold", Long.toString(c.fmaBteThreshold()));
    m.put("amoRequestList", Integer.toString(c.amoRequestList()));
    m.put("clockMHz", Double.toString(t.clockHz() / 1e6));
    m.put("packetCycles", Integer.toString(t.packetCycles()));
    m.put("hostGBps", Double.toString(t.hostBytesPerSecond() / 1e9));
    m.put("hostLatencyNs", Double.toString(SimTime.toNs(t.hostLatencyPs())));
    m.put("hostReadLatencyNs", Double.toString(SimTime.toNs(t.hostReadLatencyPs())));
    m.put("hostOverheadBytes", Integer.toString(t.hostOverheadBytes()));
    m.put("txPipelineCycles", Integer.toString(t.txPipelineCycles()));
    m.put("rxPipelineCycles", Integer.toString(t.rxPipelineCycles()));
    m.put("amoUnitCycles", Integer.toString(t.amoUnitCycles()));
    m.put("amoCacheEntries", Integer.toString(c.amoCache().entries()));
    m.put("amoCacheWriteBack", c.amoCache().writeBack().toString());
    return m;
  }

  /** Every IOMMU setting a configuration file may give, in its units there. */
  private static SortedMap<String, String> allIommu(IommuConfig c) {
    SortedMap<String, String> m = new TreeMap<>();
    m.put("ways", Integer.toString(c.ways()));
    m.put("sets", Integer.toString(c.sets()));
    m.put("ptesPerLine", Integer.toString(c.ptesPerLine()));
    m.put("policy", c.policyName()); // (ReplacementPolicies.byName takes it back)
    m.put("maxInFlight", Integer.toString(c.maxInFlight()));
    m.put("fetchBuffers", Integer.toString(c.fetchBuffers()));
    m.put("pteFetchLatencyNs", Double.toString(SimTime.toNs(c.pteFetchLatencyPs())));
    m.put("hitLatencyNs", Double.toString(SimTime.toNs(c.hitLatencyPs())));
    m.put("issueIntervalNs", Double.toString(SimTime.toNs(c.issueIntervalPs())));
    m.put("prefetch", Boolean.toString(c.prefetch()));
    m.put("pageTables", c.pageTables().configName());
    m.put("seed", Long.toString(c.seed()));
    return m;
  }
}
