package io.github.ariesmodel.network;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.RoutingProvider;
import io.github.ariesmodel.network.spi.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Routing algorithms by name, the one place their names live: the built-ins ({@code minimal}, {@code in-order},
 * {@code valiant}, {@code nmin-hash}, {@code ugal}, {@code adaptive0} to {@code adaptive3}; see {@link #names()}),
 * then every {@link RoutingProvider} registered through {@link ServiceLoader}. Besides these, a fabric may route each
 * packet by its delivery mode ({@value #BY_DELIVERY_MODE}, see {@link RouterFabric.Builder#routingByDeliveryMode()}):
 * a fabric-level choice among built-ins rather than one algorithm, so {@link #create} does not make it but
 * {@link #descriptions()} lists it for help texts.
 */
public final class Routings {

  /** The name of routing each packet by its {@link DeliveryMode} ({@link #nameFor}). */
  public static final String BY_DELIVERY_MODE = "by-delivery-mode";

  /** The built-in routings, in the order help texts list them. */
  private enum BuiltIn {
    MINIMAL("minimal", BuiltInRouting.Kind.MINIMAL, 0,
        "minimal; one minimal path per flow and address, by hash (Aries MIN_HASH)"),
    IN_ORDER("in-order", BuiltInRouting.Kind.IN_ORDER, 0,
        "minimal; one path per source-destination pair, so delivery is in order (Aries IN_ORDER)"),
    VALIANT("valiant", BuiltInRouting.Kind.VALIANT, 0,
        "Valiant: minimal to a random intermediate group (or router, inside a group), then to the destination"),
    NMIN_HASH("nmin-hash", BuiltInRouting.Kind.NMIN_HASH, 0,
        "Valiant with the intermediate chosen by a flow hash (Aries NMIN_HASH)"),
    UGAL("ugal", BuiltInRouting.Kind.UGAL, 0,
        "UGAL-L: minimal or Valiant at the source router by local congestion x path hops"),
    ADAPTIVE0("adaptive0", BuiltInRouting.Kind.ADAPTIVE, 0,
        "Aries adaptive, no bias toward minimal (ADAPTIVE_0)"),
    ADAPTIVE1("adaptive1", BuiltInRouting.Kind.ADAPTIVE, 1,
        "Aries adaptive, bias toward minimal growing with hops (ADAPTIVE_1)"),
    ADAPTIVE2("adaptive2", BuiltInRouting.Kind.ADAPTIVE, 2,
        "Aries adaptive, small fixed bias toward minimal (ADAPTIVE_2)"),
    ADAPTIVE3("adaptive3", BuiltInRouting.Kind.ADAPTIVE, 3,
        "Aries adaptive, large fixed bias toward minimal (ADAPTIVE_3)");

    final String id;
    final BuiltInRouting.Kind kind;
    final int mode;
    final String description;

    BuiltIn(String id, BuiltInRouting.Kind kind, int mode, String description) {
      this.id = id;
      this.kind = kind;
      this.mode = mode;
      this.description = description;
    }

    static BuiltIn find(String lowerCaseName) {
      if (lowerCaseName.equals("min-hash")) {
        return MINIMAL; // the uGNI mode's name, accepted as an alias
      }
      for (BuiltIn b : values()) {
        if (b.id.equals(lowerCaseName)) {
          return b;
        }
      }
      return null;
    }
  }

  private Routings() {}

  /** @return the built-in routing names */
  public static List<String> builtInNames() {
    List<String> names = new ArrayList<>();
    for (BuiltIn b : BuiltIn.values()) {
      names.add(b.id);
    }
    return Collections.unmodifiableList(names);
  }

  /** @return built-in names followed by the names of registered providers (what {@link #create} accepts) */
  public static List<String> names() {
    List<String> all = new ArrayList<>(builtInNames());
    for (RoutingProvider p : providers()) {
      all.add(p.name());
    }
    return all;
  }

  /**
   * Every routing name a fabric accepts with a one-line description, for help texts: the built-ins, then
   * {@value #BY_DELIVERY_MODE}, then the registered providers (their {@link RoutingProvider#description()}).
   *
   * @return name → description, in that order
   */
  public static Map<String, String> descriptions() {
    Map<String, String> all = new LinkedHashMap<>();
    for (BuiltIn b : BuiltIn.values()) {
      all.put(b.id, b.description);
    }
    all.put(BY_DELIVERY_MODE, "each packet routed as its delivery mode asks: ADAPTIVE_n -> adaptiveN, MIN_HASH -> "
        + "minimal, NMIN_HASH -> nmin-hash, IN_ORDER -> in-order");
    for (RoutingProvider p : providers()) {
      all.putIfAbsent(p.name(), p.description());
    }
    return Collections.unmodifiableMap(all);
  }

  /**
   * Makes a routing by name.
   *
   * @param name a built-in name or a registered provider's name (case-insensitive)
   * @param topology the topology it routes on
   * @param seed seed of its random choices
   * @return a new instance
   * @throws IllegalArgumentException listing the known names when none matches
   */
  public static RoutingAlgorithm create(String name, Topology topology, long seed) {
    if (topology == null) {
      throw new IllegalArgumentException("topology must not be null");
    }
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    BuiltIn b = BuiltIn.find(n);
    if (b != null) {
      return new BuiltInRouting(b.kind, b.mode, topology, seed);
    }
    for (RoutingProvider p : providers()) {
      if (p.name().equalsIgnoreCase(n)) {
        return p.create(topology, seed);
      }
    }
    if (n.equals(BY_DELIVERY_MODE)) {
      throw new IllegalArgumentException("routing " + BY_DELIVERY_MODE + " picks a routing per packet and is chosen "
          + "on the fabric (RouterFabric.Builder.routingByDeliveryMode()), not made by Routings.create");
    }
    throw new IllegalArgumentException("routing must be one of " + names() + " (or " + BY_DELIVERY_MODE
        + " for a whole fabric) but was \"" + io.github.ariesmodel.core.Texts.abbreviate(name) + "\"");
  }

  /**
   * The built-in routing that models a uGNI delivery mode.
   *
   * @param mode the mode
   * @return ADAPTIVE_n → {@code adaptiveN}, MIN_HASH → {@code minimal}, NMIN_HASH → {@code nmin-hash}, IN_ORDER →
   *     {@code in-order}
   */
  public static String nameFor(DeliveryMode mode) {
    if (mode == null) {
      throw new IllegalArgumentException("mode must be a DeliveryMode but was null");
    }
    switch (mode) {
      case ADAPTIVE_0:
        return BuiltIn.ADAPTIVE0.id;
      case ADAPTIVE_1:
        return BuiltIn.ADAPTIVE1.id;
      case ADAPTIVE_2:
        return BuiltIn.ADAPTIVE2.id;
      case ADAPTIVE_3:
        return BuiltIn.ADAPTIVE3.id;
      case MIN_HASH:
        return BuiltIn.MINIMAL.id;
      case NMIN_HASH:
        return BuiltIn.NMIN_HASH.id;
      case IN_ORDER:
        return BuiltIn.IN_ORDER.id;
      default:
        throw new IllegalArgumentException("mode must be a DeliveryMode but was " + mode);
    }
  }

  private static List<RoutingProvider> providers() {
    List<RoutingProvider> list = new ArrayList<>();
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    for (RoutingProvider p : ServiceLoader.load(RoutingProvider.class, cl != null ? cl : Routings.class.getClassLoader())) {
      list.add(p);
    }
    return list;
  }
}
