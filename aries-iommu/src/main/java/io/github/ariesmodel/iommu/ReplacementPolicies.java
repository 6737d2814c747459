package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/**
 * PTE-cache replacement policies by name: the built-ins ({@link BuiltInPolicy}: {@code lru}, {@code plru},
 * {@code random}), then every {@link ReplacementPolicyProvider} registered through {@link ServiceLoader} (looked up
 * with the thread's context class loader, else this class's). A built-in name wins over a provider of the same name.
 */
public final class ReplacementPolicies {

  private ReplacementPolicies() {}

  /** @return the built-in names followed by the names of registered providers, in discovery order */
  public static List<String> names() {
    List<String> all = new ArrayList<>();
    for (BuiltInPolicy p : BuiltInPolicy.values()) {
      all.add(p.id());
    }
    for (ReplacementPolicyProvider p : providers()) {
      all.add(p.name());
    }
    return List.copyOf(all);
  }

  /**
   * The policy with a name.
   *
   * @param name a built-in name (as {@link BuiltInPolicy#parse} accepts it, e.g. {@code lru}, {@code pseudo-lru}) or
   *     a registered provider's name, case-insensitive, surrounding blanks ignored
   * @return its factory
   * @throws IllegalArgumentException listing every valid name when none matches
   */
  public static ReplacementPolicyFactory byName(String name) {
    String n = name == null ? "" : name.trim();
    for (BuiltInPolicy p : BuiltInPolicy.values()) {
      String canonical = n.toLowerCase(Locale.ROOT).replace('_', '-');
      if (p.id().equals(canonical) || p.name().toLowerCase(Locale.ROOT).replace('_', '-').equals(canonical)) {
        return p;
      }
    }
    for (ReplacementPolicyProvider p : providers()) {
      if (p.name().equalsIgnoreCase(n)) {
        return p;
      }
    }
    throw new IllegalArgumentException("policy must be one of " + String.join(", ", names()) + " but was \""
        + Texts.abbreviate(String.valueOf(name)) + "\"");
  }

  private static List<ReplacementPolicyProvider> providers() {
    List<ReplacementPolicyProvider> list = new ArrayList<>();
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    for (ReplacementPolicyProvider p : ServiceLoader.load(
        ReplacementPolicyProvider.class, cl != null ? cl : ReplacementPolicies.class.getClassLoader())) {
      list.add(p);
    }
    return list;
  }
}
