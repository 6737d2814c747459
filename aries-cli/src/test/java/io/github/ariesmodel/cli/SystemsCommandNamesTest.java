package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code systems --describe} names a system as a run records it: in its canonical form, not as typed. */
class SystemsCommandNamesTest {

  private static String describe(String system) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = AriesCli.execute(new String[] {"systems", "--describe", system}, new PrintWriter(out, true),
        new PrintWriter(err, true));
    assertThat(rc).as(err.toString()).isZero();
    return out.toString().lines().findFirst().orElseThrow();
  }

  @Test
  void aSpecIsDescribedUnderItsCanonicalName() {
    assertThat(describe(" ARIES: Groups=2, rows=6 ")).isEqualTo("system aries:groups=2");
    assertThat(describe("CABLED:Two-Groups")).isEqualTo("system cabled:two-groups");
    assertThat(describe("Canonical-Small")).isEqualTo("system canonical-small");
    assertThat(describe("Theta")).startsWith("system theta: ALCF Theta");
  }

  /** The list wrote 23136 routers and 92544 nodes beside its own description's "92,544 nodes". */
  @Test
  void theListWritesThousandsAsItsDescriptionsDo() {
    StringWriter out = new StringWriter();
    assertThat(AriesCli.execute(new String[] {"systems"}, new PrintWriter(out, true), new PrintWriter(
        new StringWriter(), true))).isZero();
    assertThat(out.toString().lines().filter(l -> l.startsWith("full "))).singleElement().asString()
        .matches("full +241 +23,136 +92,544  the largest Aries system: 241 groups, 92,544 nodes .*");
  }
}
