package io.github.ariesmodel.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.RunMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepRunnerTest {

  @TempDir Path dir;

  /**
   * {@code --jobs N} starts at most {@code ahead} points beyond the last one written, so it holds a few points' results
   * at a time: every point of the shard was submitted at once and its results kept until the sweep ended, and a
   * sweep of 2,000 points of 1,000-row tables ran out of a 256 MiB heap with {@code --jobs 2} (3 MiB sequentially).
   * An executor that runs each point as it is handed one makes the order deterministic: each point starts as early as
   * the runner lets it.
   */
  @Test
  void concurrentPointsRunAtMostAheadOfTheLastOneWritten() throws IOException {
    SweepSpec spec = SweepSpec.parse("seed=1..40");
    int ahead = 4;
    int[] written = {0};
    List<Integer> aheadAtStart = new ArrayList<>();
    Function<Map<String, String>, Results> job = p -> {
      // points started, this one included, that are not written yet
      aheadAtStart.add(Integer.parseInt(p.get("seed")) - written[0]);
      return Results.builder(RunMetadata.builder("test-tool", "job").build()).metric("m", 1, "").build();
    };
    SweepRunner runner = new SweepRunner(job);
    runner.runAhead(Runnable::run, ahead, spec, spec.points(Shard.ALL), dir, false, (p, done, total, file) -> {
      assertThat(done).isEqualTo(p.index() + 1);
      written[0] = done;
    });
    assertThat(aheadAtStart).hasSize(40);
    assertThat(aheadAtStart.stream().mapToInt(Integer::intValue).max().orElseThrow()).isEqualTo(ahead);
    for (int i = 0; i < 40; i++) {
      assertThat(dir.resolve(SweepRunner.fileName(i))).exists();
    }
    // the whole run: the files, in index order, as the sequential run gives them
    Path seq = dir.resolve("seq");
    Path par = dir.resolve("par");
    List<Path> one = new SweepRunner(job).run(spec, new Shard(1, 3), seq, false, null, 1);
    List<Path> two = new SweepRunner(job).run(spec, new Shard(1, 3), par, false, null, 2);
    assertThat(two).hasSameSizeAs(one).hasSize(13);
    for (int k = 0; k < one.size(); k++) {
      assertThat(two.get(k).getFileName()).isEqualTo(one.get(k).getFileName());
      assertThat(Files.readAllBytes(two.get(k))).isEqualTo(Files.readAllBytes(one.get(k)));
    }
  }
}
