package io.github.ariesmodel.iommu.spi;

/**
 * A {@link ReplacementPolicyFactory} with a name: how users register their own PTE-cache replacement policy. List the
 * implementing class (public, with a public no-argument constructor) in
 * {@code META-INF/services/io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider}; then
 * {@code ReplacementPolicies.byName(name)} finds it, as {@code Routings.create} finds a {@code RoutingProvider}.
 */
public interface ReplacementPolicyProvider extends ReplacementPolicyFactory {

  /** @return the name the policy is chosen by, e.g. {@code fifo}; compared case-insensitively */
  String name();

  /** @return one line describing the policy */
  default String description() {
    return name();
  }
}
