package io.github.ariesmodel.network;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.RoutingProvider;
import io.github.ariesmodel.network.spi.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/**
 * Routing algorithms by name: the built-ins ({@code minimal}, {@code in-order}, {@code valiant}, {@code nmin-hash},
 * {@code ugal}, {@code adaptive0} to {@code adaptive3}; see {@link #names()}), then every {@link RoutingProvider}
 * registered through {@link ServiceLoader}.
 */
public final class Routings {

  private static final String[] BUILT_IN = {
    "minimal", "in-order", "valiant", "nmin-hash", "ugal", "adaptive0", "adaptive1", "adaptive2", "adaptive3"
  };

  private Routings() {}

  /** @return the built-in routing names */
  public static List<String> builtInNames() {
    return List.of(BUILT_IN);
  }

  /** @return built-in names followed by the names of registered providers */
  public static List<String> names() {
    List<String> all = new ArrayList<>(List.of(BUILT_IN));
    for (RoutingProvider p : providers()) {
      all.add(p.name());
    }
    return all;
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
    switch (n) {
      case "minimal":
      case "min-hash":
        return new BuiltInRouting(BuiltInRouting.Kind.MINIMAL, 0, topology, seed);
      case "in-order":
        return new BuiltInRouting(BuiltInRouting.Kind.IN_ORDER, 0, topology, seed);
      case "valiant":
        return new BuiltInRouting(BuiltInRouting.Kind.VALIANT, 0, topology, seed);
      case "nmin-hash":
        return new BuiltInRouting(BuiltInRouting.Kind.NMIN_HASH, 0, topology, seed);
      case "ugal":
        return new BuiltInRouting(BuiltInRouting.Kind.UGAL, 0, topology, seed);
      case "adaptive0":
      case "adaptive1":
      case "adaptive2":
      case "adaptive3":
        return new BuiltInRouting(BuiltInRouting.Kind.ADAPTIVE, n.charAt(8) - '0', topology, seed);
      default:
        break;
    }
    for (RoutingProvider p : providers()) {
      if (p.name().equalsIgnoreCase(n)) {
        return p.create(topology, seed);
      }
    }
    throw new IllegalArgumentException("routing must be one of " + names() + " but was \"" + name + "\"");
  }

  /**
   * The built-in routing that models a uGNI delivery mode.
   *
   * @param mode the mode
   * @return ADAPTIVE_n → {@code adaptiveN}, MIN_HASH → {@code minimal}, NMIN_HASH → {@code nmin-hash}, IN_ORDER →
   *     {@code in-order}
   */
  public static String nameFor(DeliveryMode mode) {
    switch (mode) {
      case ADAPTIVE_0:
        return "adaptive0";
      case ADAPTIVE_1:
        return "adaptive1";
      case ADAPTIVE_2:
        return "adaptive2";
      case ADAPTIVE_3:
        return "adaptive3";
      case MIN_HASH:
        return "minimal";
      case NMIN_HASH:
        return "nmin-hash";
      case IN_ORDER:
        return "in-order";
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
