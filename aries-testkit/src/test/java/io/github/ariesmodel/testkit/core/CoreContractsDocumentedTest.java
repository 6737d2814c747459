package io.github.ariesmodel.testkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every contract of core's ports that this package publishes is named where a user looks for the contracts: the
 * README's list, docs/testkit.md's list of what to override and its section on what each checks, and this package's
 * javadoc. {@code HostCacheContract} was in testkit.md's table only (found by the review of stop 72).
 */
class CoreContractsDocumentedTest {

  private static final Path ROOT = Path.of("..");
  private static final Path PACKAGE = Path.of("src/main/java/io/github/ariesmodel/testkit/core");

  private static List<String> contracts() throws IOException {
    try (Stream<Path> files = Files.list(PACKAGE)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith("Contract.java"))
          .map(n -> n.substring(0, n.length() - ".java".length())).sorted().toList();
    }
  }

  /** The text of a markdown file from the heading {@code from} up to the next heading of the same level. */
  private static String section(Path file, String from) throws IOException {
    String text = Files.readString(file);
    int start = text.indexOf(from);
    assertThat(start).as("%s has the heading %s", file, from).isNotNegative();
    String level = from.substring(0, from.indexOf(' ') + 1);
    int end = text.indexOf("\n" + level, start + from.length());
    return text.substring(start, end < 0 ? text.length() : end);
  }

  @Test
  void everyCoreContractIsNamedInTheReadmeTheTestkitGuideAndThePackageJavadoc() throws IOException {
    List<String> contracts = contracts();
    assertThat(contracts).contains("FabricContract", "HostMemoryContract", "HostCacheContract");
    String readme = section(ROOT.resolve("README.md"), "## Testing with aries-testkit");
    Path guide = ROOT.resolve("docs/testkit.md");
    String running = section(guide, "## Running a contract against your adapter");
    String checks = section(guide, "## What each contract checks");
    String javadoc = Files.readString(PACKAGE.resolve("package-info.java"));
    for (String c : contracts) {
      assertThat(readme).as("README.md's Testing list names %s", c).contains("`" + c + "`");
      // (the guide's example is a FabricContract; the list after it says what each other contract asks for)
      assertThat(running).as("testkit.md's list of what each contract asks for names %s", c)
          .containsPattern("(- `|class \\w+ extends )" + c);
      assertThat(checks).as("testkit.md's \"What each contract checks\" has a section on %s", c)
          .contains("### `" + c + "`");
      assertThat(javadoc).as("the package javadoc lists %s", c).contains("testkit.core." + c + "}");
    }
  }
}
