package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider;
import org.junit.jupiter.api.Test;

/** Policies by name: built-ins, a user's policy found through ServiceLoader (test services file), and the error. */
class ReplacementPoliciesTest {

  @Test
  void builtInsAreFoundByTheirShortAndEnumNames() {
    assertThat(ReplacementPolicies.byName("lru")).isSameAs(BuiltInPolicy.LRU);
    assertThat(ReplacementPolicies.byName(" PLRU ")).isSameAs(BuiltInPolicy.PSEUDO_LRU);
    assertThat(ReplacementPolicies.byName("pseudo_lru")).isSameAs(BuiltInPolicy.PSEUDO_LRU);
    assertThat(ReplacementPolicies.byName("Random")).isSameAs(BuiltInPolicy.RANDOM);
  }

  @Test
  void aUsersPolicyRegisteredThroughServiceLoaderIsFoundByName() {
    assertThat(ReplacementPolicies.names()).containsExactly("lru", "plru", "random", "fifo");
    var factory = ReplacementPolicies.byName("FIFO");
    assertThat(factory).isInstanceOf(FifoPolicyProvider.class);
    assertThat(((ReplacementPolicyProvider) factory).description()).contains("first in");
    ReplacementPolicy p = factory.create(1, 4, 0);
    for (int w = 0; w < 4; w++) {
      p.onFill(0, w);
    }
    p.onAccess(0, 0); // FIFO ignores use: way 0 is still the oldest fill
    assertThat(p.victim(0, 0b1111)).isZero();
    assertThat(p.victim(0, 0b1100)).isEqualTo(2);
  }

  @Test
  void anIommuRunsWithAPolicyChosenByName() {
    Rig rig = new Rig(IommuConfig.builder().ways(2).sets(1).policy(ReplacementPolicies.byName("fifo")).build());
    int mdh = rig.iommu.register(MemoryRegistration.of(0, 64L << 21, Rig.TAG, Rig.KEY)
        .withPageSize(PageSize.SIZE_2M)).mdh();
    long line = 8L << 21; // pages 0, 8, 16 are in lines 0, 1, 2 of the table
    rig.translate(mdh, 0, 0);
    rig.loop.run();
    rig.translate(mdh, line, 1);
    rig.loop.run();
    rig.translate(mdh, 0, 2); // a hit on line 0: LRU would now evict line 1, FIFO still line 0
    rig.loop.run();
    rig.translate(mdh, 2 * line, 3); // evicts line 0
    rig.loop.run();
    rig.translate(mdh, line, 4); // still cached under FIFO
    rig.loop.run();
    var t = rig.iommu.statistics().total();
    assertThat(t.misses()).isEqualTo(3);
    assertThat(t.hits()).isEqualTo(2);
    assertThat(t.evictions()).isEqualTo(1);
  }

  /**
   * A user's factory that refuses the geometry (as the SPI allows) or makes no policy is refused when the
   * configuration is made, naming the factory; both used to surface at the first translation, from inside a NIC's
   * event (a NullPointerException for the null), and left the system's later jobs stuck.
   */
  @Test
  void aFactoryThatRefusesTheGeometryOrMakesNothingIsRefusedWithTheConfiguration() {
    int[] calls = new int[1];
    io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory needsEight = (sets, ways, seed) -> {
      calls[0]++;
      if (ways != 8) {
        throw new IllegalArgumentException("my policy needs 8 ways but was " + ways);
      }
      return BuiltInPolicy.LRU.create(sets, ways, seed);
    };
    assertThatThrownBy(() -> IommuConfig.builder().ways(2).sets(1).policy(needsEight).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("policy " + needsEight.getClass().getName() + " refuses sets 1 and ways 2: ")
        .hasMessageEndingWith("my policy needs 8 ways but was 2");
    assertThat(IommuConfig.builder().ways(8).sets(4).policy(needsEight).build().ways()).isEqualTo(8);
    assertThat(calls[0]).isEqualTo(2);
    io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory none = (sets, ways, seed) -> null;
    assertThatThrownBy(() -> IommuConfig.builder().ways(2).sets(1).policy(none).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("policy " + none.getClass().getName() + " made no policy (null) for sets 1 and ways 2");
  }

  /** Stop 74: a factory that fails otherwise (a bug of its own) is named too; the exception escaped build() bare. */
  @Test
  void aFactoryThatFailsIsNamedWithTheConfiguration() {
    io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory broken = (sets, ways, seed) -> {
      throw new IllegalStateException("boom");
    };
    assertThatThrownBy(() -> IommuConfig.builder().ways(2).sets(1).policy(broken).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("policy " + broken.getClass().getName() + " failed to make a policy for sets 1 and ways 2:"
            + " java.lang.IllegalStateException: boom");
  }

  @Test
  void anUnknownNameListsEveryValidName() {
    assertThatThrownBy(() -> ReplacementPolicies.byName("mru"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("policy must be one of lru, plru, random, fifo but was \"mru\"");
    assertThatThrownBy(() -> ReplacementPolicies.byName(null)).hasMessageContaining("but was \"null\"");
  }

  /** The configuration prints its policy by name, as a user gave it, not as a factory's identity hash (user walk). */
  @Test
  void theConfigurationPrintsItsPolicyByName() {
    assertThat(IommuConfig.builder().policy(ReplacementPolicies.byName("fifo")).build().toString())
        .contains(", policy=fifo, ").doesNotContain("@");
    assertThat(IommuConfig.defaults().toString()).startsWith("IommuConfig[ways=4, sets=32, ptesPerLine=8, policy=")
        .doesNotContain("@");
  }

  /** A policy whose victim() throws is named with the set and candidates it was asked about (it escaped bare). */
  @Test
  void aPolicyThatThrowsIsNamedWithWhatItWasAsked() {
    ReplacementPolicy throwing = new ReplacementPolicy() {
      @Override
      public void onAccess(int set, int way) {}

      @Override
      public void onFill(int set, int way) {}

      @Override
      public void onInvalidate(int set, int way) {}

      @Override
      public int victim(int set, long candidates) {
        throw new UnsupportedOperationException("todo");
      }
    };
    io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory factory = (sets, ways, seed) -> throwing;
    Rig rig = new Rig(IommuConfig.builder().ways(2).sets(1).policy(factory).build());
    int mdh = rig.iommu.register(MemoryRegistration.of(0, 64L << 21, Rig.TAG, Rig.KEY)
        .withPageSize(PageSize.SIZE_2M)).mdh();
    long line = 8L << 21;
    for (int k = 0; k < 2; k++) {
      rig.translate(mdh, k * line, k);
      rig.loop.run();
    }
    // a third line in a two-way set: the policy must choose (on the request's own call, nothing queued ahead)
    assertThatThrownBy(() -> rig.translate(mdh, 2 * line, 2)).isInstanceOf(IllegalStateException.class)
        .hasMessage("replacement policy " + throwing.getClass().getName() + " threw choosing a victim in set 0 among"
            + " the candidates 0b11: java.lang.UnsupportedOperationException: todo")
        .hasCauseInstanceOf(UnsupportedOperationException.class);
  }
}
