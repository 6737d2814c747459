package io.github.ariesmodel.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SweepSpecProperties {

  private static SweepSpec specOfSizes(List<Integer> sizes) {
    List<SweepSpec.Parameter> params = new ArrayList<>();
    for (int k = 0; k < sizes.size(); k++) {
      List<String> values = new ArrayList<>();
      for (int v = 0; v < sizes.get(k); v++) {
        values.add("v" + v);
      }
      params.add(new SweepSpec.Parameter("p" + k, values));
    }
    return SweepSpec.of(params);
  }

  @Test
  void shardsPartitionThePointsExactly() {
    qt().withExamples(300)
        .forAll(lists().of(integers().between(1, 6)).ofSizeBetween(1, 4), integers().between(1, 40))
        .checkAssert((sizes, n) -> {
          SweepSpec spec = specOfSizes(sizes);
          List<Integer> seen = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            Shard shard = new Shard(i, n);
            for (SweepPoint p : spec.points(shard)) {
              assertThat(shard.contains(p.index())).isTrue();
              seen.add(p.index());
            }
          }
          seen.sort(null);
          List<Integer> all = new ArrayList<>();
          for (int i = 0; i < spec.size(); i++) {
            all.add(i);
          }
          assertThat(seen).isEqualTo(all);
        });
  }

  @Test
  void pointsAreTheDistinctCartesianProduct() {
    qt().withExamples(200)
        .forAll(lists().of(integers().between(1, 5)).ofSizeBetween(1, 4))
        .checkAssert(sizes -> {
          SweepSpec spec = specOfSizes(sizes);
          int product = sizes.stream().reduce(1, (a, b) -> a * b);
          assertThat(spec.size()).isEqualTo(product);
          Set<List<String>> combos = new HashSet<>();
          for (int i = 0; i < spec.size(); i++) {
            SweepPoint p = spec.point(i);
            assertThat(p.index()).isEqualTo(i);
            combos.add(new ArrayList<>(p.parameters().values()));
          }
          assertThat(combos).hasSize(product);
          assertThat(SweepSpec.parse(spec.toString())).isEqualTo(spec);
        });
  }
}
