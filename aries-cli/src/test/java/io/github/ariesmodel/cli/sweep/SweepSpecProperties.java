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

  /**
   * The reference for which values are one: a parameter whose values are all whole numbers (or lists of them) compares
   * them as such, else one whose values are all decimals (BigDecimal, exact: the short texts here are distinct doubles
   * when distinct decimals), else the texts. A whole number's B (bytes), which the value alphabet below can make, is
   * read as SweepSpec reads it (11b is 11); the binary suffixes (K, M, ...) are left out (no generator here makes
   * them).
   */
  private static List<Object> keys(List<String> values) {
    for (int reading = 0; reading < 2; reading++) {
      List<Object> keys = new ArrayList<>();
      for (String v : values) {
        List<Object> key = new ArrayList<>();
        for (String e : v.split(",", -1)) {
          if (reading == 0 && e.matches("[+-]?[0-9]+[bB]?")) {
            // a whole number may end in B (bytes), as the workloads read sizes: 11b is 11 (SweepSpec's WHOLE)
            String digits = e.replaceAll("[bB]$", "");
            key.add(new java.math.BigInteger(digits.startsWith("+") ? digits.substring(1) : digits));
          } else if (reading == 1 && e.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)")) {
            key.add(new java.math.BigDecimal(e).stripTrailingZeros());
          } else {
            key = null;
            break;
          }
        }
        if (key == null) {
          break;
        }
        keys.add(key);
      }
      if (keys.size() == values.size()) {
        return keys;
      }
    }
    return new ArrayList<>(values);
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
  void aShardsPointsAreItsIndexedPointsInOrder() {
    // the shard's list makes each point as it is read; it must hold what the list made up front held
    qt().withExamples(300)
        .forAll(lists().of(integers().between(1, 6)).ofSizeBetween(1, 4), integers().between(1, 40),
            integers().between(0, 39))
        .checkAssert((sizes, n, j) -> {
          SweepSpec spec = specOfSizes(sizes);
          int i = j % n;
          List<SweepPoint> expected = new ArrayList<>();
          for (int k = i; k < spec.size(); k += n) {
            expected.add(spec.point(k));
          }
          List<SweepPoint> points = spec.points(new Shard(i, n));
          assertThat(points).isEqualTo(expected).hasSize(expected.size());
          for (int k = 0; k < expected.size(); k++) {
            assertThat(points.get(k)).isEqualTo(expected.get(k));
          }
        });
  }

  @Test
  void rangesAndLiteralsParseAsTheirValuesWrittenOutAndRepeatsAreRefused() {
    // a range's values are made when read, and repeats are found between ranges and literals without making them:
    // the values and the refusals must be those of writing every value out
    qt().withExamples(500)
        .forAll(lists().of(integers().between(0, 239)).ofSizeBetween(1, 6))
        .checkAssert(codes -> {
          List<String> parts = new ArrayList<>();
          List<String> written = new ArrayList<>();
          for (int c : codes) {
            int x = c % 20 - 5;
            switch (c / 20 % 4) {
              case 0 -> parts.add("w" + x); // a word
              case 1 -> parts.add("0" + Math.abs(x)); // a number as no range writes it (01), or "00"
              case 2 -> parts.add(Integer.toString(x)); // a number as a range writes it
              default -> {
                int len = c / 80; // 0 to 2
                parts.add(x + ".." + (x + len));
              }
            }
          }
          for (String p : parts) {
            int dots = p.indexOf("..");
            if (dots < 0) {
              written.add(p);
            } else {
              for (long v = Long.parseLong(p.substring(0, dots)); v <= Long.parseLong(p.substring(dots + 2)); v++) {
                written.add(Long.toString(v));
              }
            }
          }
          String text = "x=" + String.join(",", parts);
          Set<Object> distinct = new HashSet<>(keys(written));
          if (distinct.size() == written.size()) {
            List<String> values = SweepSpec.parse(text).parameters().get(0).values();
            assertThat(values).as(text).isEqualTo(written);
            assertThat(SweepSpec.parse(text)).isEqualTo(SweepSpec.of(List.of(new SweepSpec.Parameter("x", written))));
            // the canonical text (runs of integers as ranges) reads back to the same values
            String canonical = SweepSpec.parse(text).toString();
            assertThat(SweepSpec.parse(canonical).parameters().get(0).values()).as(canonical).isEqualTo(written);
          } else {
            // (a number written two ways, 03 and 3, is named in both spellings)
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> SweepSpec.parse(text)).as(text)
                .hasMessageContaining("twice")
                .satisfies(e -> assertThat(written.stream().filter(v -> e.getMessage().contains("\"" + v + "\""))
                    .count()).isGreaterThanOrEqualTo(1));
          }
        });
  }

  @Test
  void anyValuesTextFormReadsBackToTheSameValues() {
    // values with commas, option=value parts, dots and digits: the text form brackets those that need it, and the
    // bracket-aware split reads every one back as it was
    String alphabet = "ab=,.:1-0+";
    qt().withExamples(500)
        .forAll(lists().of(lists().of(integers().between(0, alphabet.length() - 1)).ofSizeBetween(1, 7))
            .ofSizeBetween(1, 5))
        .checkAssert(codes -> {
          Set<String> values = new java.util.LinkedHashSet<>();
          for (List<Integer> word : codes) {
            StringBuilder b = new StringBuilder();
            for (int c : word) {
              b.append(alphabet.charAt(c));
            }
            values.add(b.toString());
          }
          if (new HashSet<>(keys(new ArrayList<>(values))).size() < values.size()) {
            // one number (or list of numbers) written two ways, 1 and 01: refused, naming both spellings
            org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new SweepSpec.Parameter("x", new ArrayList<>(values))).as(values.toString())
                .hasMessageContaining("twice, as \"");
            return;
          }
          SweepSpec spec = SweepSpec.of(List.of(new SweepSpec.Parameter("x", new ArrayList<>(values))));
          assertThat(SweepSpec.parse(spec.toString())).as(spec.toString()).isEqualTo(spec);
          assertThat(SweepSpec.parse(List.of(spec.toString())).parameters().get(0).values()).as(spec.toString())
              .containsExactlyElementsOf(values);
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
