package org.example.modular;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The README's snippets run in a named module, the library's modules and Guava's on the module path. */
class FirstStepsTest {

  @Test
  void theCodeRunsInANamedModule() {
    assertTrue(FirstSteps.class.getModule().isNamed(), "on the module path");
    assertEquals("org.example.modular", FirstSteps.class.getModule().getName());
    assertTrue(io.github.ariesmodel.core.NetworkAddress.class.getModule().isNamed(), "the library as a module");
  }

  @Test
  void theAddressSnippetReadsNodeMdhAndOffset() {
    assertArrayEquals(new long[] {12, 7, 0x1f40, 12L << 12 | 7}, FirstSteps.address());
  }

  @Test
  void theShmemSnippetCountsEveryPe() {
    assertEquals(3, FirstSteps.counter());
  }

  /**
   * A JVM started on the module path alone, as a user runs the module: the library's automatic modules and Guava's
   * named module (without {@code requires com.google.common} in module-info.java this printed a NoClassDefFoundError
   * for Guava's Preconditions, which a test under surefire cannot see: surefire puts a library the module does not
   * require on the classpath).
   */
  @Test
  void theModuleRunsOnTheModulePathAlone() throws Exception {
    List<String> path = new ArrayList<>();
    path.add(Path.of("target", "classes").toString());
    try (Stream<Path> jars = Files.list(Path.of("target", "lib"))) {
      jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> path.add(p.toString()));
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "--module-path", String.join(File.pathSeparator, path), "-m",
        "org.example.modular/org.example.modular.FirstSteps").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the module's run ended");
    assertEquals(0, p.exitValue(), out);
    assertEquals("address 12 7 8000 49159\ncounter 3\n", out.replace("\r\n", "\n"));
  }
}
