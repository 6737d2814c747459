package io.github.ariesmodel.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.GeneralCodingRules;
import com.tngtech.archunit.core.domain.JavaModifier;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.text.DecimalFormat;
import java.text.NumberFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module layering described in the README's modules table and docs/adr/0002-module-names.md, checked on the
 * main classes of every module on aries-cli's test classpath (core, nic, iommu, network, testkit, system, cli),
 * whether they come as jars (a reactor build) or class directories (an IDE). Rules about a module that has no
 * classes yet pass vacuously ({@code allowEmptyShould}) so that they start biting the day the module gets code.
 */
class ArchitectureTest {

  private static final String BASE = "io.github.ariesmodel";
  private static final List<String> MODULES = List.of(
      "core", "nic", "iommu", "network", "system", "traces", "cli", "testkit", "bench");
  private static final List<String> DOMAIN = List.of("nic", "iommu", "network");

  private static JavaClasses mainClasses;

  @BeforeAll
  static void importMainClasses() {
    mainClasses = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(BASE);
  }

  private static String module(String name) {
    return BASE + "." + name + "..";
  }

  @Test
  void theImportSeesEveryModule() {
    // Guards the other rules against passing because nothing was imported.
    assertThat(mainClasses.contain(io.github.ariesmodel.core.NetworkAddress.class)).isTrue();
    assertThat(mainClasses.contain(io.github.ariesmodel.core.sim.DeterministicEventLoop.class)).isTrue();
    assertThat(mainClasses.contain(io.github.ariesmodel.system.AriesSystem.class)).isTrue();
    assertThat(mainClasses.contain(io.github.ariesmodel.cli.AriesCli.class)).isTrue();
    assertThat(mainClasses.contain(io.github.ariesmodel.testkit.gen.CoreRandom.class)).isTrue();
    assertThat(mainClasses.stream().noneMatch(c -> c.getSimpleName().equals("ArchitectureTest"))).isTrue();
  }

  @Test
  void coreDependsOnNothingOfOurs() {
    noClasses().that().resideInAPackage(module("core"))
        .should().dependOnClassesThat().resideInAnyPackage(MODULES.stream()
            .filter(m -> !m.equals("core")).map(ArchitectureTest::module).toArray(String[]::new))
        .because("aries-core is the shared contract and depends on the JDK and Guava only")
        .check(mainClasses);
  }

  @Test
  void domainModulesNeverDependOnEachOtherNorOnTheComposition() {
    for (String m : DOMAIN) {
      String[] forbidden = MODULES.stream()
          .filter(o -> !o.equals(m) && !o.equals("core"))
          .map(ArchitectureTest::module)
          .toArray(String[]::new);
      noClasses().that().resideInAPackage(module(m))
          .should().dependOnClassesThat().resideInAnyPackage(forbidden)
          .because("aries-" + m + " meets the other modules only through ports in aries-core")
          .allowEmptyShould(true)
          .check(mainClasses);
    }
  }

  @Test
  void nothingOutsideAModuleTouchesItsInternalPackages() {
    for (String m : MODULES) {
      noClasses().that().resideOutsideOfPackage(module(m))
          .should().dependOnClassesThat().resideInAPackage(BASE + "." + m + "..internal..")
          .because("internal packages are public for technical reasons only")
          .allowEmptyShould(true)
          .check(mainClasses);
    }
  }

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching(BASE + ".(**)").should().beFreeOfCycles().check(mainClasses);
  }

  @Test
  void onlyTheCliUsesCliJsonOrChartingLibraries() {
    noClasses().that().resideOutsideOfPackage(module("cli"))
        .should().dependOnClassesThat().resideInAnyPackage("picocli..", "com.fasterxml.jackson..", "org.jfree..")
        .because("a user who imports aries-system (or a hardware module) gets no CLI, JSON or charting library")
        .check(mainClasses);
  }

  @Test
  void nothingDependsOnTheCliAndTheSystemLibraryOnlyOnTheHardwareModules() {
    noClasses().that().resideOutsideOfPackage(module("cli"))
        .should().dependOnClassesThat().resideInAPackage(module("cli"))
        .because("aries-cli is the application at the top; nothing is built on it")
        .check(mainClasses);
    noClasses().that().resideInAPackage(module("system"))
        .should().dependOnClassesThat().resideInAnyPackage(module("testkit"), module("bench"))
        .because("aries-system composes core, nic, iommu and network; test support and benchmarks sit beside it")
        .check(mainClasses);
  }

  /**
   * The public types of aries-cli: the entry point, and the types its packages share with each other (public for
   * the application's own use, not an API; a library user imports aries-system). A new public type in aries-cli
   * must be added here on purpose.
   */
  private static final Set<String> CLI_PUBLIC_TYPES = Set.of(
      "AriesCli",
      "config.RunConfig",
      "report.AtomicFiles", "report.Column", "report.ColumnType", "report.Figures", "report.HtmlReport", "report.Metric",
      "report.PlotSpec", "report.Plots", "report.ReportWriter", "report.ResultTable", "report.Results",
      "report.ResultsCsv", "report.ResultsJson", "report.RunMetadata", "report.Scale", "report.Series",
      "report.SweepCoordinates", "report.WallClock", "report.BuildInfo",
      "sweep.Shard", "sweep.SweepJobs", "sweep.SweepMerge", "sweep.SweepPoint", "sweep.SweepRunner",
      "sweep.SweepSpec",
      "system.BuiltSystems", "system.RecordedSettings", "system.SystemSpec", "system.SystemSpecException",
      "validate.PublishedFigure", "validate.Validation",
      "workload.Distances", "workload.Measurements", "workload.Params", "workload.Progress",
      "workload.SystemUnfitException", "workload.Workload",
      "workload.WorkloadReport", "workload.WorkloadRun", "workload.Workloads");

  @Test
  void theCliExposesOnlyItsEntryPointAndTheTypesItsPackagesShare() {
    String prefix = BASE + ".cli.";
    Set<String> publicTypes = mainClasses.stream()
        .filter(c -> c.getPackageName().startsWith(BASE + ".cli"))
        .filter(c -> c.isTopLevelClass() && c.getModifiers().contains(JavaModifier.PUBLIC))
        .map(c -> c.getName().substring(prefix.length()))
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(publicTypes).contains("AriesCli").isSubsetOf(CLI_PUBLIC_TYPES);
    assertThat(publicTypes.stream().filter(n -> !n.contains("."))).containsExactly("AriesCli");
  }

  private static final ArchRule NO_STANDARD_STREAMS_OUTSIDE_CLI =
      noClasses().that().resideOutsideOfPackage(BASE + ".cli")
          .should(GeneralCodingRules.ACCESS_STANDARD_STREAMS)
          .because("only the CLI's commands talk to the console; everything else reports through return values or writers");

  @Test
  void onlyTheCliWritesToStandardStreams() {
    NO_STANDARD_STREAMS_OUTSIDE_CLI.check(mainClasses);
  }

  /** A class that breaks the streams rule, to prove the rule can fail. */
  static final class PrintsToConsole {
    void shout() {
      System.out.println("no");
    }
  }

  @Test
  void theStreamsRuleCatchesAViolator() {
    JavaClasses violator = new ClassFileImporter().importClasses(PrintsToConsole.class);
    assertThatThrownBy(() -> NO_STANDARD_STREAMS_OUTSIDE_CLI.check(violator))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("PrintsToConsole")
        .hasMessageContaining("System.out");
  }

  /**
   * Formatting in the default locale, in the modules that print numbers for users and files (and in this test's
   * violator): a German default printed 1.440 for 1,440 and 13,39 GB/s, an Arabic one Arabic-Indic digits.
   * aries-system's AriesSystem.describe is held to it too; the hardware modules already pass a Locale.
   */
  static final ArchRule NO_DEFAULT_LOCALE_FORMATTING =
      noClasses().that().resideInAnyPackage(module("cli"), module("traces"), BASE + ".architecture..")
          .or().belongToAnyOf(io.github.ariesmodel.system.AriesSystem.class)
          .should().callMethod(String.class, "format", String.class, Object[].class)
          .orShould().callMethod(String.class, "formatted", Object[].class)
          .orShould().callMethod(PrintWriter.class, "printf", String.class, Object[].class)
          .orShould().callMethod(PrintWriter.class, "format", String.class, Object[].class)
          .orShould().callMethod(PrintStream.class, "printf", String.class, Object[].class)
          .orShould().callMethod(PrintStream.class, "format", String.class, Object[].class)
          .orShould().callConstructor(DecimalFormat.class, String.class)
          .orShould().callMethod(NumberFormat.class, "getInstance")
          .orShould().callMethod(NumberFormat.class, "getNumberInstance")
          .because("what the model prints reads the same on every machine; pass Locale.ROOT");

  @Test
  void numbersAreFormattedInTheRootLocale() {
    NO_DEFAULT_LOCALE_FORMATTING.check(mainClasses);
  }

  /** A class that breaks the locale rule, to prove the rule can fail. */
  static final class FormatsInTheDefaultLocale {
    String count(long n) {
      return String.format("%,d", n);
    }
  }

  @Test
  void theLocaleRuleCatchesAViolator() {
    JavaClasses violator = new ClassFileImporter().importClasses(FormatsInTheDefaultLocale.class);
    assertThatThrownBy(() -> NO_DEFAULT_LOCALE_FORMATTING.check(violator))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("FormatsInTheDefaultLocale")
        .hasMessageContaining("String.format(java.lang.String, [Ljava.lang.Object;)");
  }
}
