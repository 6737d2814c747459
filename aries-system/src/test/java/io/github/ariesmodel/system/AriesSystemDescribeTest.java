package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.iommu.BuiltInPolicy;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.iommu.PageTables;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** {@link AriesSystem#describe()} names the IOMMU's settings when the nodes translate with the IOMMU. */
class AriesSystemDescribeTest {

  private static final String DEFAULT_IOMMU = "  iommu PTE cache 4 ways × 32 sets × 8 PTEs a line (1,024 PTEs), lru,"
      + " prefetch on, page tables per-context; 32 in flight, 8 fetch buffers, PTE fetch 500 ns, hit 5 ns,"
      + " issue 1.25 ns\n";

  @Test
  void theIommusDefaultsAreOneLineAfterTheTranslation() {
    String d = AriesSystem.builder().system("two-groups").build().describe();
    assertThat(d).contains("translation IOMMU, seed 1\n" + DEFAULT_IOMMU);
    assertThat(d).endsWith(DEFAULT_IOMMU);
  }

  @Test
  void theLineFollowsTheSystemsIommuConfig() {
    IommuConfig c = IommuConfig.builder().ways(8).sets(64).ptesPerLine(16).policy(BuiltInPolicy.PSEUDO_LRU)
        .prefetch(false).pageTables(PageTables.PER_REGISTRATION).maxInFlight(16).fetchBuffers(4)
        .pteFetchLatencyPs(250_500).hitLatencyPs(0).issueIntervalPs(2_500).build();
    String d = AriesSystem.builder().system("default").iommu(c).build().describe();
    assertThat(d).contains("  iommu PTE cache 8 ways × 64 sets × 16 PTEs a line (8,192 PTEs), plru, prefetch off,"
        + " page tables per-registration; 16 in flight, 4 fetch buffers, PTE fetch 250.5 ns, hit 0 ns,"
        + " issue 2.5 ns\n");
  }

  @Test
  void noIommuLineWithoutAnIommu() {
    String flat = AriesSystem.builder().system("default").translator(TranslatorKind.FLAT).build().describe();
    assertThat(flat).contains("translation FLAT").doesNotContain("iommu", "PTE");
    // a user's translation is neither built-in: it was described as the IOMMU, whose settings it does not use
    String custom = AriesSystem.builder().system("default")
        .translator((id, mem, clock) -> new FlatTranslation(mem, clock, 0)).build().describe();
    assertThat(custom).contains("translation custom, seed 1").doesNotContain("IOMMU", "iommu", "PTE");
  }

  @Test
  void theLineReadsTheSameInEveryLocale() {
    Locale before = Locale.getDefault();
    try {
      for (String tag : new String[] {"de-DE", "ar-EG", "fr-FR"}) {
        Locale.setDefault(Locale.forLanguageTag(tag));
        assertThat(AriesSystem.builder().system("default").build().describe()).as(tag).endsWith(DEFAULT_IOMMU);
      }
    } finally {
      Locale.setDefault(before);
    }
  }
}
