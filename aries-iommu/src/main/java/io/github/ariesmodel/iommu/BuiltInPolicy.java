package io.github.ariesmodel.iommu;

import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The replacement policies that ship with the IOMMU, chosen by name ({@code lru}, {@code plru}, {@code random}). The
 * Aries PTE cache's own policy is not published (aries-facts §4 lists only the geometry); LRU is the model's default.
 */
public enum BuiltInPolicy implements ReplacementPolicyFactory {
  /** Exact least-recently-used (the default). */
  LRU("lru") {
    @Override
    public ReplacementPolicy create(int sets, int ways, long seed) {
      checkGeometry(sets, ways);
      return new LruPolicy(sets, ways);
    }
  },
  /** Tree pseudo-LRU; needs a power-of-two number of ways. */
  PSEUDO_LRU("plru") {
    @Override
    public ReplacementPolicy create(int sets, int ways, long seed) {
      checkGeometry(sets, ways);
      return new TreePseudoLruPolicy(sets, ways);
    }
  },
  /** Uniformly random among the candidates, seeded. */
  RANDOM("random") {
    @Override
    public ReplacementPolicy create(int sets, int ways, long seed) {
      checkGeometry(sets, ways);
      return new RandomPolicy(seed);
    }
  };

  private final String id;

  BuiltInPolicy(String id) {
    this.id = id;
  }

  /** @return the short name the CLI accepts */
  public String id() {
    return id;
  }

  /**
   * The built-in policy with a short name or enum name, case-insensitive ({@code lru}, {@code plru},
   * {@code pseudo-lru}, {@code random}). To also find users' policies, use {@link ReplacementPolicies#byName}.
   *
   * @param name the name
   * @return the policy
   * @throws IllegalArgumentException listing the valid names when none matches
   */
  public static BuiltInPolicy parse(String name) {
    if (name != null) {
      String n = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
      for (BuiltInPolicy p : values()) {
        if (p.id.equals(n) || p.name().toLowerCase(Locale.ROOT).replace('_', '-').equals(n)) {
          return p;
        }
      }
    }
    throw new IllegalArgumentException("policy must be one of "
        + Arrays.stream(values()).map(BuiltInPolicy::id).collect(Collectors.joining(", ")) + " but was \"" + name
        + "\"");
  }

  static void checkGeometry(int sets, int ways) {
    if (sets < 1) {
      throw new IllegalArgumentException("sets must be >= 1 but was " + sets);
    }
    if (ways < 1 || ways > 64) {
      throw new IllegalArgumentException("ways must be in [1, 64] but was " + ways);
    }
  }

  /** @return the short name */
  @Override
  public String toString() {
    return id;
  }
}
