package io.github.ariesmodel.nic;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The NIC meets the other domain modules only through core's ports. */
class NicLayeringTest {

  @Test
  void nicDependsOnlyOnCoreGuavaAndTheJdk() {
    JavaClasses nic = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.github.ariesmodel.nic");
    classes().that().resideInAPackage("io.github.ariesmodel.nic..")
        .should().onlyDependOnClassesThat()
        .resideInAnyPackage("io.github.ariesmodel.nic..", "io.github.ariesmodel.core..", "com.google.common..",
            "java..")
        .check(nic);
  }
}
