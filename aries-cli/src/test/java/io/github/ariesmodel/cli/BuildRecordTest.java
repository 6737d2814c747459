package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.ariesmodel.cli.report.BuildInfo;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.report.RunMetadata;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record names the build that made it: results.json's {@code run.build} and the {@code build} of
 * {@code traffic --json}, {@code iommu --json} and {@code replay --json} hold the model's version and the git commit
 * it was built from (and
 * whether the tree held uncommitted changes), so a result can be traced to code. Until stop 78 they named no commit,
 * and {@code run.tool} the same {@code 0.1.0-SNAPSHOT} for every development build.
 */
class BuildRecordTest {

  @TempDir Path dir;

  /** The project's version, as the poms write it. */
  private static final String VERSION = "[0-9]+\\.[0-9]+\\.[0-9]+(-SNAPSHOT)?";

  /** Built in a git checkout (the tests' own build, and CI's clean clone) the commit is known. */
  private static final boolean IN_GIT = Files.exists(Path.of("").toAbsolutePath().getParent().resolve(".git"));

  private String execute(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    assertThat(rc).as(String.join(" ", args) + ": " + err).isZero();
    return out.toString();
  }

  /** A build object of the right shape: the version, 40 hexadecimal digits (or unknown outside git), a boolean. */
  private static void assertBuild(JsonNode build, String where) {
    assertThat(build.isObject()).as(where).isTrue();
    assertThat(build.path("version").asText()).as(where).matches(VERSION);
    String commit = build.path("commit").asText();
    if (IN_GIT) {
      assertThat(commit).as(where).matches("[0-9a-f]{40}");
      assertThat(build.path("dirty").isBoolean()).as(where).isTrue();
    } else {
      assertThat(commit).as(where).matches("[0-9a-f]{40}|unknown");
    }
  }

  @Test
  void resultsJsonRecordsTheVersionAndTheCommitBuilt() throws IOException {
    Path out = dir.resolve("o");
    execute("run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "--no-wall-clock", "-q", "--out",
        out.toString());
    String text = Files.readString(out.resolve("results.json"));
    JsonNode run = new ObjectMapper().readTree(text).path("run");
    assertBuild(run.path("build"), text);
    // and it reads back as written
    assertThat(ResultsJson.read(out.resolve("results.json")).metadata().build()).isEqualTo(BuildInfo.current());
  }

  @Test
  void trafficAndIommuJsonRecordTheBuild() throws IOException {
    String traffic = execute("traffic", "--topology", "canonical:p=2,a=4,h=2", "--load", "0.1", "--measure-us", "0.5",
        "--warmup-us", "0.2", "--json");
    assertBuild(new ObjectMapper().readTree(traffic).path("build"), traffic);
    String iommu = execute("iommu", "--synthetic", "random:100", "--region", "1M", "--json");
    assertBuild(new ObjectMapper().readTree(iommu).path("build"), iommu);
  }

  @Test
  void replayJsonRecordsTheBuildFirst() throws IOException {
    // until stop 78 replay's summary named no build, where traffic's and iommu's did
    String replay = execute("replay", ReplayCommandTest.TRACES.resolve("simgrid-examples/actions_alltoall.txt")
        .toString(), "--json", "-q", "--no-wall-clock", "--out", dir.resolve("r").toString());
    JsonNode summary = new ObjectMapper().readTree(replay);
    assertBuild(summary.path("build"), replay);
    assertThat(summary.fieldNames().next()).isEqualTo("build");
    assertThat(new ObjectMapper().convertValue(summary.path("build"), java.util.Map.class))
        .isEqualTo(BuildInfo.current().asMap());
  }

  @Test
  void aFileWithoutABuildReadsAsNotKnownAndABadCommitIsRefusedNamingThePath() throws IOException {
    Results r = Results.builder(RunMetadata.builder("t", "c").build()).build();
    String json = ResultsJson.toJson(r, false);
    assertThat(json).contains("\"build\" : {");
    String without = json.replaceAll("(?s)    \"build\" : \\{.*?\\},\n", "");
    assertThat(without).doesNotContain("\"build\"");
    assertThat(ResultsJson.read(new StringReader(without)).metadata().build()).isNull();
    String bad = json.replaceAll("\"commit\" : \"[^\"]*\"", "\"commit\" : \"abc\"");
    assertThatThrownBy(() -> ResultsJson.read(new StringReader(bad))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("$.run.build").hasMessageContaining("abc");
  }

  @Test
  void aBuildOutsideGitSaysUnknownAndNeverFails() {
    BuildInfo b = new BuildInfo("0.1.0-SNAPSHOT", BuildInfo.UNKNOWN, null);
    assertThat(b.commit()).isEqualTo("unknown");
    assertThatThrownBy(() -> new BuildInfo("0.1.0", "E420AA88", false)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("40 lower-case hexadecimal digits");
  }
}
