package io.github.ariesmodel.iommu;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The IOMMU meets the other domain modules only through core's ports, and its SPI stands alone. */
class IommuLayeringTest {

  private static final JavaClasses IOMMU = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.github.ariesmodel.iommu");

  @Test
  void iommuDependsOnlyOnCoreHdrHistogramGuavaAndTheJdk() {
    classes().that().resideInAPackage("io.github.ariesmodel.iommu..")
        .should().onlyDependOnClassesThat()
        .resideInAnyPackage("io.github.ariesmodel.iommu..", "io.github.ariesmodel.core..", "org.HdrHistogram..",
            "com.google.common..", "java..")
        .check(IOMMU);
  }

  @Test
  void spiDependsOnNothingElseOfTheModule() {
    noClasses().that().resideInAPackage("io.github.ariesmodel.iommu.spi..")
        .should().dependOnClassesThat()
        .resideInAnyPackage("io.github.ariesmodel.iommu", "io.github.ariesmodel.iommu.internal..")
        .check(IOMMU);
  }
}
