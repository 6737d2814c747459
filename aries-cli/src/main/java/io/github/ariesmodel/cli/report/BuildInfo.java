package io.github.ariesmodel.cli.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The build of the model that made a result: its version and the git commit it was built from, so that a result can
 * be traced to code ({@code run.build} in results.json, and the {@code build} of {@code traffic --json} and
 * {@code iommu --json}). {@code run.tool} names the version alone, the same {@code 0.1.0-SNAPSHOT} for every
 * development build (docs/results-schema.md).
 *
 * <p>The build writes {@value #RESOURCE} beside this class (git-commit-id-maven-plugin, aries-cli's pom). Built
 * outside a git checkout (a source tarball) it has no commit: the commit is {@value #UNKNOWN} and {@code dirty} null.
 *
 * @param version the model's version ({@code 0.1.0-SNAPSHOT}), or {@value #UNKNOWN}
 * @param commit the full hexadecimal name of the commit built (40 digits, lower case), or {@value #UNKNOWN}
 * @param dirty whether the working tree held changes not committed when it was built, or null when not known
 */
public record BuildInfo(String version, String commit, Boolean dirty) {

  /** Said for what is not known: a build outside git, or a file of another writer. */
  public static final String UNKNOWN = "unknown";

  /** The resource the build writes, relative to this class. */
  static final String RESOURCE = "build.properties";

  /** A commit's full name, as git writes it (SHA-1). */
  private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}");

  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException when the version is empty or the commit neither 40 hexadecimal digits nor
   *     {@value #UNKNOWN}
   */
  public BuildInfo {
    Names.checkText("build version", version);
    Objects.requireNonNull(commit, "commit");
    if (!commit.equals(UNKNOWN) && !COMMIT.matcher(commit).matches()) {
      throw new IllegalArgumentException("build commit must be 40 lower-case hexadecimal digits or \"" + UNKNOWN
          + "\" but was \"" + commit + "\"");
    }
  }

  /**
   * @return the fields as the JSON of {@code traffic --json} and {@code iommu --json} writes them, in the order of
   *     results.json's {@code run.build}: {@code version}, {@code commit}, {@code dirty} (null when not known)
   */
  public java.util.Map<String, Object> asMap() {
    java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("version", version);
    m.put("commit", commit);
    m.put("dirty", dirty);
    return m;
  }

  /** The build of this running code, read once. */
  private static final BuildInfo CURRENT = fromResource();

  /** @return the build of the running code */
  public static BuildInfo current() {
    return CURRENT;
  }

  private static BuildInfo fromResource() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE + " of the jar", e);
    }
    return of(p);
  }

  /**
   * The build a properties file describes, as the build writes it ({@code git.build.version}, {@code git.commit.id},
   * {@code git.dirty}); what it lacks, or holds in another form, is {@value #UNKNOWN} (never a failure: a build
   * outside git writes no file).
   *
   * @param p the properties (empty when there is no file)
   * @return the build
   */
  static BuildInfo of(Properties p) {
    String version = p.getProperty("git.build.version", "").strip();
    if (version.isEmpty()) {
      String v = BuildInfo.class.getPackage().getImplementationVersion();
      version = v == null || v.isBlank() ? UNKNOWN : v;
    }
    String commit = p.getProperty("git.commit.id", "").strip();
    boolean known = COMMIT.matcher(commit).matches();
    String dirty = p.getProperty("git.dirty", "").strip();
    return new BuildInfo(version, known ? commit : UNKNOWN,
        known && (dirty.equals("true") || dirty.equals("false")) ? Boolean.valueOf(dirty) : null);
  }
}
