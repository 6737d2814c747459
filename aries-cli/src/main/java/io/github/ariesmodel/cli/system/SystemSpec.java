package io.github.ariesmodel.cli.system;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Texts;
import java.util.Locale;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.FabricKind;
import io.github.ariesmodel.system.TranslatorKind;
import io.github.ariesmodel.system.trace.PacketTrace;

/**
 * How a workload builds its systems: the system (a preset or a topology spec), the routing, the seed and the
 * adapters. A workload may build several systems from one spec (e.g. one per distance), each the same way.
 *
 * @param system a preset name ({@code ./aries systems}) or topology spec ({@code aries:groups=2}), without the
 *     whitespace around it
 * @param routing a routing name, or {@code by-delivery-mode}, without the whitespace around it
 * @param seed the seed
 * @param fabric routers or ideal
 * @param translator IOMMU or flat
 * @param iommu the IOMMU configuration of every node
 * @param nic the NIC configuration of every node
 * @param trace where every built system records its packets' journeys, or null for none
 * @param built where every built system's statistics are summed, or null for nowhere
 * @param threads 0: the single event loop; N ≥ 1: the partitioned engine on N threads ({@link
 *     AriesSystem.Builder#threads(int)})
 */
public record SystemSpec(
    String system, String routing, long seed, FabricKind fabric, TranslatorKind translator, IommuConfig iommu,
    NicConfig nic, PacketTrace trace, BuiltSystems built, int threads) {

  /**
   * A spec on the single event loop.
   *
   * @param system a preset name or topology spec
   * @param routing a routing name, or {@code by-delivery-mode}
   * @param seed the seed
   * @param fabric routers or ideal
   * @param translator IOMMU or flat
   * @param iommu the IOMMU configuration of every node
   * @param nic the NIC configuration of every node
   * @param trace where every built system records its packets, or null for none
   * @param built where every built system's statistics are summed, or null for nowhere
   */
  public SystemSpec(String system, String routing, long seed, FabricKind fabric, TranslatorKind translator,
      IommuConfig iommu, NicConfig nic, PacketTrace trace, BuiltSystems built) {
    this(system, routing, seed, fabric, translator, iommu, nic, trace, built, 0);
  }

  /**
   * A spec whose systems' statistics are not collected.
   *
   * @param system a preset name or topology spec
   * @param routing a routing name, or {@code by-delivery-mode}
   * @param seed the seed
   * @param fabric routers or ideal
   * @param translator IOMMU or flat
   * @param iommu the IOMMU configuration of every node
   * @param nic the NIC configuration of every node
   * @param trace where every built system records its packets, or null for none
   */
  public SystemSpec(String system, String routing, long seed, FabricKind fabric, TranslatorKind translator,
      IommuConfig iommu, NicConfig nic, PacketTrace trace) {
    this(system, routing, seed, fabric, translator, iommu, nic, trace, null);
  }

  /** Validates the fields. */
  public SystemSpec {
    checkArgument(system != null && !system.isBlank(), "system must not be blank");
    checkArgument(routing != null && !routing.isBlank(), "routing must not be blank");
    checkArgument(fabric != null, "fabric must not be null");
    checkArgument(translator != null, "translator must not be null");
    checkArgument(iommu != null, "iommu must not be null");
    checkArgument(nic != null, "nic must not be null");
    checkArgument(threads >= 0, "threads must be >= 0 (0: the single event loop) but was %s", threads);
    // as a sweep's values and -p's are: --system ' default' built the default system but recorded " default"
    system = canonicalSystem(system);
    routing = canonicalRouting(routing);
  }

  /**
   * A system spec as it is recorded: stripped, a preset's name in its own (lower) case, as the systems command reads
   * it, and a topology spec in its canonical form ({@link io.github.ariesmodel.network.Topologies#canonical}: kinds,
   * keys and prefixes in lower case, options in the grammar's order, defaults left out), so that every spelling of one
   * system records the same text. {@code --system Theta} ran and was recorded as "Theta", while {@code --system
   * DEFAULT} was refused (until stop 75); {@code ARIES:groups=2} and {@code aries:groups=2} recorded two texts
   * (until stop 78). A link list's path keeps its case: it is the file system's. A spec whose text the canonical form
   * refuses is kept as it is (stripped), for the build to refuse with its own message.
   *
   * @param system a system spec
   * @return it, canonical
   */
  public static String canonicalSystem(String system) {
    String s = system.strip();
    for (io.github.ariesmodel.system.SystemPreset p : io.github.ariesmodel.system.SystemPreset.values()) {
      if (p.id().equalsIgnoreCase(s)) {
        return p.id();
      }
    }
    try {
      return io.github.ariesmodel.network.Topologies.canonical(s);
    } catch (IllegalArgumentException e) {
      return s; // (malformed: the build refuses it, located where the system was chosen)
    }
  }

  /**
   * A routing name as it is recorded: stripped, and a known routing's name (built in, {@code by-delivery-mode} or a
   * registered provider's) in its own case: {@code --routing MINIMAL} ran and was recorded as "MINIMAL", so a sweep
   * over minimal and MINIMAL ran one point twice (until stop 75).
   *
   * @param routing a routing name
   * @return it, canonical
   */
  public static String canonicalRouting(String routing) {
    String r = routing.strip();
    if (r.equalsIgnoreCase(io.github.ariesmodel.system.AriesSystem.Builder.BY_DELIVERY_MODE)) {
      return io.github.ariesmodel.system.AriesSystem.Builder.BY_DELIVERY_MODE;
    }
    for (String name : io.github.ariesmodel.network.Routings.names()) {
      if (name.equalsIgnoreCase(r)) {
        return name;
      }
    }
    return r;
  }

  /**
   * The default spec for a system.
   *
   * @param system a preset or topology spec
   * @param seed the seed
   * @return routing by delivery mode, routers, IOMMU with its defaults
   */
  public static SystemSpec of(String system, long seed) {
    return new SystemSpec(system, AriesSystem.Builder.BY_DELIVERY_MODE, seed, FabricKind.ROUTERS,
        TranslatorKind.IOMMU, IommuConfig.defaults(), NicConfig.defaults(), null);
  }

  /** @param r routing name @return a copy with it */
  public SystemSpec withRouting(String r) {
    return new SystemSpec(system, r, seed, fabric, translator, iommu, nic, trace, built, threads);
  }

  /** @param s seed @return a copy with it */
  public SystemSpec withSeed(long s) {
    return new SystemSpec(system, routing, s, fabric, translator, iommu, nic, trace, built, threads);
  }

  /** @param f fabric kind @return a copy with it */
  public SystemSpec withFabric(FabricKind f) {
    return new SystemSpec(system, routing, seed, f, translator, iommu, nic, trace, built, threads);
  }

  /** @param c IOMMU configuration @return a copy with it */
  public SystemSpec withIommu(IommuConfig c) {
    return new SystemSpec(system, routing, seed, fabric, translator, c, nic, trace, built, threads);
  }

  /** @param c NIC configuration @return a copy with it */
  public SystemSpec withNic(NicConfig c) {
    return new SystemSpec(system, routing, seed, fabric, translator, iommu, c, trace, built, threads);
  }

  /** @param t a packet trace for every system built, or null @return a copy with it */
  public SystemSpec withTrace(PacketTrace t) {
    return new SystemSpec(system, routing, seed, fabric, translator, iommu, nic, t, built, threads);
  }

  /** @param b where every built system's statistics are summed, or null @return a copy with it */
  public SystemSpec withBuiltSystems(BuiltSystems b) {
    return new SystemSpec(system, routing, seed, fabric, translator, iommu, nic, trace, b, threads);
  }

  /** @param n 0 for the single event loop, else the engine's threads @return a copy with it */
  public SystemSpec withThreads(int n) {
    return new SystemSpec(system, routing, seed, fabric, translator, iommu, nic, trace, built, n);
  }

  /**
   * @return a new system built to this spec
   * @throws SystemSpecException when the system spec names no system (an unknown preset, a bad link list)
   * @throws IllegalArgumentException when the settings conflict (a routing other than by-delivery-mode with the
   *     ideal fabric, for example)
   */
  public AriesSystem build() {
    return build(b -> { });
  }

  /**
   * A system built to this spec with a workload's own settings on top (the host cache of a mode, for example).
   *
   * @param customize applied to the builder last
   * @return the system
   */
  public AriesSystem build(java.util.function.Consumer<AriesSystem.Builder> customize) {
    AriesSystem s = make(customize);
    if (built != null) {
      built.built(s);
    }
    return s;
  }

  /**
   * A system built to this spec that a run uses while its main system is still in use (a replay's baseline, each
   * trace alone): it does not finish the main system's statistics, as {@link #build} would; give it to {@link
   * #finishedAside} once it has run, so that results.json's statistics count it.
   *
   * @param customize applied to the builder last
   * @return the system
   */
  public AriesSystem buildAside(java.util.function.Consumer<AriesSystem.Builder> customize) {
    return make(customize);
  }

  /** @param s a system from {@link #buildAside} that has finished its run: its statistics join the run's */
  public void finishedAside(AriesSystem s) {
    if (built != null) {
      built.aside(s);
    }
  }

  private AriesSystem make(java.util.function.Consumer<AriesSystem.Builder> customize) {
    AriesSystem.Builder b = AriesSystem.builder();
    try {
      b.system(system);
    } catch (IllegalArgumentException e) {
      throw new SystemSpecException(e); // (commands locate it where the system was chosen)
    }
    b.routing(routing).seed(seed).fabric(fabric).translator(translator).nic(nic).trace(trace);
    if (translator == TranslatorKind.IOMMU) {
      b.iommu(iommu); // the flat translator has none (the builder refuses one)
    }
    if (threads > 0) {
      b.threads(threads);
    }
    customize.accept(b);
    return b.build();
  }

  /** @return the page size workloads register with unless told otherwise */
  public static PageSize defaultPageSize() {
    return PageSize.SIZE_4K;
  }

  /**
   * @param f {@code routers} or {@code ideal}
   * @return the fabric kind
   */
  public static FabricKind parseFabric(String f) {
    return switch (f.toLowerCase(Locale.ROOT)) {
      case "routers" -> FabricKind.ROUTERS;
      case "ideal" -> FabricKind.IDEAL;
      default -> throw new IllegalArgumentException("fabric must be routers or ideal but was \"" + Texts.abbreviate(f) + "\"");
    };
  }

  /**
   * @param t {@code iommu} or {@code flat}
   * @return the translator kind
   */
  public static TranslatorKind parseTranslator(String t) {
    return switch (t.toLowerCase(Locale.ROOT)) {
      case "iommu" -> TranslatorKind.IOMMU;
      case "flat" -> TranslatorKind.FLAT;
      default -> throw new IllegalArgumentException("translator must be iommu or flat but was \"" + Texts.abbreviate(t) + "\"");
    };
  }
}
