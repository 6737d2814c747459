package io.github.ariesmodel.traces;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real traces the tests read: copies of {@code shared/traces} kept in this module's test resources
 * ({@code src/test/resources/traces}, with the shared folder's README and each trace's origin note), so the tests
 * never depend on a folder outside the repository.
 */
public final class SharedTraces {
  private SharedTraces() {
  }

  /**
   * A file or directory under the test resources' {@code traces} folder.
   *
   * @param relative e.g. {@code amg-n27-dumpi}
   * @return its path
   */
  public static Path path(String relative) {
    URL url = SharedTraces.class.getResource("/traces/" + relative);
    if (url == null) {
      throw new AssertionError("test resource traces/" + relative + " is missing from aries-traces/src/test/resources;"
          + " copy it from the shared/traces folder beside the repository");
    }
    try {
      Path p = Path.of(url.toURI());
      if (!Files.exists(p)) {
        throw new AssertionError("test resource " + p + " does not exist");
      }
      return p;
    } catch (URISyntaxException e) {
      throw new AssertionError("bad resource URL " + url, e);
    }
  }

  /** The AMG2013 27-rank DUMPI trace's directory. */
  public static Path amg() {
    return path("amg-n27-dumpi");
  }

  /** The SimGrid examples' directory. */
  public static Path simgridExamples() {
    return path("simgrid-examples");
  }
}
