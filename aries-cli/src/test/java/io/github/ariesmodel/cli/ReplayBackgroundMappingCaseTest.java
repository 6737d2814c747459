package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --background-mapping} takes its names in any case, as {@code --mapping} does (both are {@code
 * Placement.named}): {@code RANDOM} was refused as not one of linear, random, round-robin-groups (until stop 78) where
 * {@code --mapping RANDOM} was taken.
 */
class ReplayBackgroundMappingCaseTest {

  @TempDir Path tmp;

  private String[] replay(String mapping, String dir) {
    return replay("uniform", mapping, dir);
  }

  private String[] replay(String background, String mapping, String dir) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = AriesCli.execute(new String[] {"replay",
        ReplayCommandTest.TRACES.resolve("simgrid-examples/actions_alltoall.txt").toString(), "--background",
        background, "--background-bytes", "1024", "--background-nodes", "6", "--background-mapping", mapping,
        "--no-baseline", "--json", "-q", "--no-wall-clock", "--out", tmp.resolve(dir).toString()},
        new PrintWriter(out, true), new PrintWriter(err, true));
    // (the summary names its results file, in a directory of each run's own)
    return new String[] {Integer.toString(rc), out.toString().replace(tmp.resolve(dir).toString(), "DIR"),
        err.toString()};
  }

  @Test
  void aMappingNameInAnyCaseIsTheSamePlacement() {
    String[] lower = replay("random", "lower");
    assertThat(lower[0]).as(lower[2]).isEqualTo("0");
    for (String name : new String[] {"RANDOM", "Random"}) {
      String[] other = replay(name, name);
      assertThat(other[0]).as(other[2]).isEqualTo("0");
      assertThat(other[1]).as(name).isEqualTo(lower[1]);
    }
  }

  @Test
  void anUnknownNameIsRefusedNamingTheOption() {
    String[] r = replay("sideways", "bad");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].strip()).isEqualTo("aries replay: --background-mapping must be one of linear, random,"
        + " round-robin-groups but was \"sideways\" (--background-mapping)");
  }

  @Test
  void aBackgroundNameInAnyCaseIsTheSameBackground() {
    for (String kind : new String[] {"uniform", "alltoall"}) {
      String[] lower = replay(kind, "linear", kind);
      assertThat(lower[0]).as(lower[2]).isEqualTo("0");
      for (String name : new String[] {kind.toUpperCase(java.util.Locale.ROOT), " " + Character.toUpperCase(
          kind.charAt(0)) + kind.substring(1) + " "}) {
        String[] other = replay(name, "linear", kind + "-" + name.trim());
        assertThat(other[0]).as(name + ": " + other[2]).isEqualTo("0");
        assertThat(other[1]).as(name).isEqualTo(lower[1]);
      }
    }
  }

  @Test
  void anUnknownBackgroundIsRefusedNamingTheOption() {
    String[] r = replay("sideways", "linear", "bad");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].strip()).isEqualTo("aries replay: --background must be one of none, uniform, alltoall but was"
        + " \"sideways\" (--background)");
  }
}
