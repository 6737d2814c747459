package io.github.ariesmodel.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.cli.AriesCli;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.PacketKind;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.MpiConfig;
import io.github.ariesmodel.system.mpi.OsuBenchmarks;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calibration itself: with its defaults the model reproduces every published Aries figure within the accepted
 * band. These are simulated-time results (deterministic), not wall-clock timings.
 */
class ValidationTest {

  /** The rows of {@code new Validation(1).run()}, measured once for the tests that read them (about 30 s). */
  private static List<Validation.Row> measured;

  private static synchronized List<Validation.Row> rows() {
    if (measured == null) {
      measured = new Validation(1).run();
    }
    return measured;
  }

  @Test
  void everyPublishedFigureIsReproducedWithinTheBand() {
    List<Validation.Row> rows = rows();
    assertThat(rows).hasSize(Validation.FIGURES.size());
    for (Validation.Row r : rows) {
      if (Validation.KNOWN_DISAGREEMENTS.containsKey(r.figure().id())) {
        // a documented disagreement: today's value outside the band and inside the interval its section gives
        assertThat(r.passed()).as("%s now reproduced (%s): drop it from KNOWN_DISAGREEMENTS", r.figure().id(),
            r.model()).isFalse();
        assertThat(r.accepted()).as("%s: model %s, ratio %s, outside its interval", r.figure().id(), r.model(),
            r.ratio()).isTrue();
        continue;
      }
      assertThat(r.passed())
          .as("%s: model %s %s vs published %s (ratio %s)", r.figure().id(), r.model(), r.figure().unit(),
              r.figure().value(), r.ratio())
          .isTrue();
    }
  }

  /** Every calibration row names a row of the table, once, and none is also a known disagreement. */
  @Test
  void theCalibrationRowsAreRowsOfTheTable() {
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (PublishedFigure f : Validation.FIGURES) {
      ids.add(f.id());
    }
    assertThat(Validation.CALIBRATION_ROWS).doesNotHaveDuplicates().isSubsetOf(ids)
        .doesNotContainAnyElementsOf(Validation.KNOWN_DISAGREEMENTS.keySet());
  }

  /**
   * A known disagreement is the model's measured value, outside the band: the day the model reproduces the figure,
   * this fails, and the entry must leave {@link Validation#KNOWN_DISAGREEMENTS} (so no row stays excused when it need
   * not be). The farthest pair minus the nearest on Theta measured 580 ns against 420 ns +- 150 at stop 47.
   */
  @Test
  void theKnownDisagreementStillDisagreesMeasuredAsLabelled() {
    // each entry gets a measurement here: the other is the next test's
    assertThat(Validation.KNOWN_DISAGREEMENTS).containsOnlyKeys("farthest-minus-nearest", "mpi-alltoall-6",
        "mpi-osu-bw-cscs", "mpi-osu-bw-s1-64k", "amo-hot-word-cached", "put-bidirectional-64k",
        "mpi-latency-rank3", "mpi-pingpong-s1-2k", "mpi-allreduce-6");
    PublishedFigure f = Validation.FIGURES.stream().filter(x -> x.id().equals("farthest-minus-nearest")).findFirst()
        .orElseThrow();
    Validation v = new Validation(1);
    // the farthest pair minus the nearest inter-node pair (same router), both on Theta: 580 ns at stop 47
    double spread = v.farthestPairNs() - v.pingPongNs("theta", 0, 1);
    Validation.Row r = new Validation.Row(f, spread);
    assertThat(r.passed()).as("the model now reproduces it (%s ns): drop it from KNOWN_DISAGREEMENTS", spread)
        .isFalse();
    assertThat(r.knownDisagreement()).isEqualTo("docs/validation.md, \"The farthest pair's spread\"");
  }

  /**
   * osu_alltoall of 8 bytes on 6 nodes: 3.9 us in the model at stop 59 (4.06 at stop 76) (MPICH's isend/irecv algorithm below 8 ranks) against
   * 8.23 us of Cray MPICH on Dom, measured at stop 59. The same call as a pairwise exchange (one message time a peer)
   * gives 7.5 us: the size of the gap, not a source for the algorithm (docs/validation.md). Once the model reproduces
   * the figure this fails and the entry must leave the map.
   */
  @Test
  void theAlltoallDisagreementStillDisagreesAndAPairwiseExchangeIsTheGapsSize() {
    PublishedFigure f = Validation.FIGURES.stream().filter(x -> x.id().equals("mpi-alltoall-6")).findFirst()
        .orElseThrow();
    double model = alltoall6(MpiConfig.defaults());
    Validation.Row r = new Validation.Row(f, model);
    assertThat(r.passed()).as("the model now reproduces it (%s us): drop it from KNOWN_DISAGREEMENTS", model)
        .isFalse();
    assertThat(r.ratio()).as("below the figure, not above").isLessThan(f.lowRatio());
    assertThat(r.knownDisagreement())
        .isEqualTo("docs/validation.md, \"Collectives against CSCS's osu_allreduce and osu_alltoall\"");
    // MPICH's long-message pairwise exchange, forced by cut-overs of 0: five exchanges in a row, inside the band
    double pairwise = alltoall6(MpiConfig.builder().alltoallShortBytes(0)
        .alltoallMediumBytes(0).build());
    assertThat(f.accepts(pairwise)).as("pairwise %s us", pairwise).isTrue();
    assertThat(pairwise).isGreaterThan(1.5 * model);
  }

  /**
   * A known row is excused only inside the interval its documented cause explains (Validation.KNOWN_DISAGREEMENTS):
   * until stop 69 any failing value of these rows printed {@code KNOWN} and exit 0, so a model giving 0, a negative
   * spread or a million passed. Stop 69's values (580 ns, 3.96 us) stay {@code KNOWN}; values in the band are {@code ok}.
   */
  @Test
  void aKnownRowFailsOutsideTheIntervalItsCauseExplains() {
    PublishedFigure spread = figure("farthest-minus-nearest");
    // 601 ns: above the band's top (S1's 500 ns) by more than the cable's 100 ns (KNOWN until stop 70's interval)
    for (double ns : new double[] {-500, 0, 1, 100, 10000, 1e6, 700, 601, Double.NaN}) {
      Validation.Row r = new Validation.Row(spread, ns);
      assertThat(r.knownDisagreement()).as("%s ns", ns).isNull();
      assertThat(r.accepted()).as("%s ns", ns).isFalse();
      assertThat(r.result()).as("%s ns", ns).isEqualTo("FAIL");
    }
    assertThat(new Validation.Row(spread, 580).result()).isEqualTo("KNOWN");
    assertThat(new Validation.Row(spread, 580).accepted()).isTrue();
    assertThat(new Validation.Row(spread, 600).result()).isEqualTo("KNOWN");
    assertThat(new Validation.Row(spread, 420).result()).isEqualTo("ok");
    PublishedFigure alltoall = figure("mpi-alltoall-6");
    for (double us : new double[] {-500, 0, 1, 3.0, 100, 10000, 1e6, 11, Double.NaN}) {
      Validation.Row r = new Validation.Row(alltoall, us);
      assertThat(r.knownDisagreement()).as("%s us", us).isNull();
      assertThat(r.accepted()).as("%s us", us).isFalse();
      assertThat(r.result()).as("%s us", us).isEqualTo("FAIL");
    }
    assertThat(new Validation.Row(alltoall, 3.96).result()).isEqualTo("KNOWN");
    assertThat(new Validation.Row(alltoall, 8.23).result()).isEqualTo("ok");
  }

  /**
   * osu-latency-bound is "<= 1.30 us and >= 0.5 us" (calibration-sources row 9): until stop 69 it had only the upper
   * bound, so any positive value under 1300 ns passed, 1 ns included.
   */
  @Test
  void theOsuLatencyBoundHasItsLowerBound() {
    PublishedFigure f = figure("osu-latency-bound");
    assertThat(f.accepts(1)).isFalse();
    assertThat(f.accepts(499)).isFalse();
    assertThat(f.accepts(500)).isTrue();
    assertThat(f.accepts(774)).isTrue();
    assertThat(f.accepts(1300)).isTrue();
    assertThat(f.accepts(1301)).isFalse();
    assertThat(f.accepts(0)).isFalse();
  }

  /**
   * Until stop 70 the band was "0.42 +- 0.15 us", a tolerance with no source: 501-570 ns passed. Its top is now S1's
   * "a maximum of 500ns for minimally routed packets" (lanl/PPT edison_config), the farthest pair's router hops.
   */
  @Test
  void theSpreadsBandTopIsS1sBoundOnAMinimalRoutesHops() {
    PublishedFigure f = figure("farthest-minus-nearest");
    assertThat(f.accepts(500)).isTrue();
    assertThat(f.accepts(420)).isTrue();
    assertThat(f.accepts(336)).isTrue();
    assertThat(f.accepts(501)).isFalse();
    assertThat(f.accepts(570)).isFalse();
    assertThat(f.accepts(335)).isFalse();
    assertThat(f.description()).contains("500 ns").doesNotContain("0.15");
  }

  /**
   * "<= NIC peak" is 64 B per 5 cycles at 800 MHz, 10.24 GB/s: until stop 70 the bounds used the rounded 10.2, below
   * the model's own peak (nic-peak-bandwidth measures 10.23), so a PUT at the model's peak failed mpi-bw-bound.
   */
  @Test
  void theNicPeakBoundsAdmitTheModelsOwnPeak() {
    assertThat(Validation.NIC_PEAK_GBPS).isEqualTo(10.24);
    for (String id : new String[] {"mpi-bw-bound", "mpi-osu-bw-plateau", "mpi-osu-bw-cscs", "mpi-osu-bw-s1-64k"}) {
      PublishedFigure f = figure(id);
      assertThat(f.accepts(10.23)).as(id).isTrue();
      assertThat(f.accepts(10.24)).as(id).isTrue();
      assertThat(f.accepts(10.25)).as(id).isFalse();
    }
  }

  /**
   * CSCS's osu_latency check ran 2 nodes under one Slurm switch (not "one Aries"), with Piz Daint gpu's reference
   * 1.30 us at +70 % tolerance (production) and Dom gpu's 1.138 us at +10 % (the quiet test system, which the collective rows
   * use): the row compares with Dom's since stop 70, and so is no longer a calibration row (the overheads were set from
   * Austin's 1.3 us, not from it).
   */
  @Test
  void theOneSwitchRowComparesWithDomsQuietFigure() {
    PublishedFigure f = figure("mpi-latency-one-switch");
    assertThat(f.value()).isEqualTo(1138);
    assertThat(f.source()).contains("Dom");
    assertThat(f.description()).doesNotContain("Piz Daint");
    assertThat(Validation.CALIBRATION_ROWS).doesNotContain("mpi-latency-one-switch");
    assertThat(Validation.REPEATS).containsEntry("mpi-latency-one-switch", "mpi-latency-same-blade");
  }

  /**
   * Every disagreement docs/validation.md records with a figure the model has a command for is a row (until stop 70 the
   * CSCS osu_bw reference, the rank-3 MPI latency, S1's streaming, ping-pong, bidirectional and AMO figures were kept
   * out), and each is excused only inside a finite interval: just past either edge, out of the band, it fails. Cause
   * found prints KNOWN, not found OPEN.
   */
  @Test
  void everyDocumentedDisagreementIsARowThatCanFail() {
    java.util.Set<String> ids = new java.util.HashSet<>();
    Validation.FIGURES.forEach(f -> ids.add(f.id()));
    assertThat(ids).contains("mpi-osu-bw-cscs", "mpi-latency-rank3", "mpi-osu-bw-s1-1k", "mpi-osu-bw-s1-64k",
        "put-bidirectional-64k", "amo-hot-word-cached", "mpi-pingpong-s1-2k");
    assertThat(ids).containsAll(Validation.KNOWN_DISAGREEMENTS.keySet());
    for (var e : Validation.KNOWN_DISAGREEMENTS.entrySet()) {
      PublishedFigure f = figure(e.getKey());
      Validation.KnownDisagreement k = e.getValue();
      double inside = (k.lowRatio() + k.highRatio()) / 2;
      String want = k.causeFound() ? "KNOWN" : "OPEN";
      assertThat(new Validation.Row(f, inside * f.value()).result()).as(e.getKey()).isIn(want, "ok");
      for (double r : new double[] {k.lowRatio() * 0.999, k.highRatio() * 1.001, 0, -1, 1e6, Double.NaN}) {
        Validation.Row row = new Validation.Row(f, r * f.value());
        if (!row.passed()) {
          assertThat(row.result()).as("%s at ratio %s", e.getKey(), r).isEqualTo("FAIL");
        }
      }
    }
    assertThat(Validation.KNOWN_DISAGREEMENTS.get("mpi-latency-rank3").causeFound()).isFalse();
    assertThat(Validation.KNOWN_DISAGREEMENTS.get("mpi-osu-bw-cscs").causeFound()).isTrue();
    // 1 KiB streaming was OPEN at 2.66 GB/s until stop 70's posting rank waited for its stores: now a plain row
    assertThat(new Validation.Row(figure("mpi-osu-bw-s1-1k"), 2.66).result()).isEqualTo("FAIL");
    assertThat(new Validation.Row(figure("mpi-osu-bw-s1-1k"), 1.40).result()).isEqualTo("ok");
    assertThat(new Validation.Row(figure("mpi-allreduce-6"), 4.13).result()).isEqualTo("OPEN");
    assertThat(new Validation.Row(figure("mpi-allreduce-6"), 3.70).result()).isEqualTo("FAIL");
    assertThat(new Validation.Row(figure("mpi-osu-bw-cscs"), 8.01).result()).isEqualTo("KNOWN");
    // the edges: the NPT's GET ceiling, the FMA store's on 1 KiB messages, the host link's both ways, the packet rate
    assertThat(new Validation.Row(figure("mpi-osu-bw-cscs"), 8.13).result()).isEqualTo("FAIL");
    assertThat(new Validation.Row(figure("put-bidirectional-64k"), 9.15).result()).isEqualTo("FAIL");
    assertThat(new Validation.Row(figure("amo-hot-word-cached"), 160.1).result()).isEqualTo("FAIL");
    assertThat(new Validation.Row(figure("amo-hot-word-cached"), 142.0).result()).isEqualTo("FAIL");
  }

  /**
   * {@code dmapp-delivery-modes} reads the modes off the packets a job built with no delivery mode sends, as the
   * fabric delivers them (until stop 76 it compared {@code ShmemJob.defaultPutMode()} and {@code defaultGetMode()},
   * two getters, with the constants, so a job whose constructor ignored them still passed): a put, an AMO and a get,
   * each request kind in DMAPP's mode and no other.
   */
  @Test
  void theDeliveryModesRowReadsThePacketsTheFabricDelivers() {
    var seen = new Validation(1).defaultJobDeliveryModes();
    assertThat(seen).isEqualTo(java.util.Map.of(PacketKind.PUT_REQUEST, java.util.Set.of(DeliveryMode.MIN_HASH),
        PacketKind.AMO_REQUEST, java.util.Set.of(DeliveryMode.MIN_HASH),
        PacketKind.GET_REQUEST, java.util.Set.of(DeliveryMode.ADAPTIVE_0)));
    assertThat(Validation.isDmappDefault(seen)).isTrue();
    // puts in the adaptive mode (the stop-76 hunt's mutation of ShmemJob), a kind not seen, a kind in two modes
    var putsAdaptive = new java.util.EnumMap<>(seen);
    putsAdaptive.put(PacketKind.PUT_REQUEST, java.util.Set.of(DeliveryMode.ADAPTIVE_0));
    assertThat(Validation.isDmappDefault(putsAdaptive)).isFalse();
    var noGet = new java.util.EnumMap<>(seen);
    noGet.remove(PacketKind.GET_REQUEST);
    assertThat(Validation.isDmappDefault(noGet)).isFalse();
    var amoTwoModes = new java.util.EnumMap<>(seen);
    amoTwoModes.put(PacketKind.AMO_REQUEST, java.util.Set.of(DeliveryMode.MIN_HASH, DeliveryMode.IN_ORDER));
    assertThat(Validation.isDmappDefault(amoTwoModes)).isFalse();
  }

  /**
   * Rows whose setting is the published figure itself read it back and have the band 0.98-1.02 (stop 76): with the
   * default 0.8-1.25 (0.75-1.25 for the FMA rows) each of these values, which the model gave with one setting changed
   * in a stop-76 clone (docs/validation.md, "Read-back rows: a band of 0.98-1.02"), passed: the NIC at 6 cycles a
   * packet (8.52 GB/s), a rank-1 link of 5.6 GB/s, the optical link at the electrical 5.25 GB/s, an FMA store rate of
   * 4.4 GB/s (4.39) and an FMA GET request of 28 ns (2.28 GB/s). The model's own values (stop 76) pass.
   */
  @Test
  void readBackRowsHaveTheTightBandSoAChangedSettingFails() {
    assertThat(Validation.READ_BACK_ROWS).containsExactlyInAnyOrder("nic-peak-bandwidth", "rank1-link-rate",
        "rank3-link-rate", "fma-put-1m", "fma-get-1m").isSubsetOf(Validation.CALIBRATION_ROWS);
    for (String id : Validation.READ_BACK_ROWS) {
      assertThat(figure(id).lowRatio()).as(id).isEqualTo(PublishedFigure.READ_BACK_LOW).isEqualTo(0.98);
      assertThat(figure(id).highRatio()).as(id).isEqualTo(PublishedFigure.READ_BACK_HIGH).isEqualTo(1.02);
      assertThat(figure(id).upperBound()).as(id).isFalse();
    }
    java.util.Map<String, double[]> modelThenMutated = java.util.Map.of(
        "nic-peak-bandwidth", new double[] {10.23, 8.52},
        "rank1-link-rate", new double[] {5.245, 5.60},
        "rank3-link-rate", new double[] {4.696, 5.245},
        "fma-put-1m", new double[] {3.696, 4.39},
        "fma-get-1m", new double[] {2.697, 2.28});
    for (var e : modelThenMutated.entrySet()) {
      PublishedFigure f = figure(e.getKey());
      assertThat(f.accepts(e.getValue()[0])).as("%s at the model's %s", e.getKey(), e.getValue()[0]).isTrue();
      assertThat(f.accepts(e.getValue()[1])).as("%s at the mutated %s", e.getKey(), e.getValue()[1]).isFalse();
      assertThat(new Validation.Row(f, e.getValue()[1]).result()).isEqualTo("FAIL");
    }
    // the band's edges: 2 % either way of the figure
    assertThat(figure("rank3-link-rate").accepts(4.7 * 0.98)).isTrue();
    assertThat(figure("rank3-link-rate").accepts(4.7 * 0.979)).isFalse();
    assertThat(figure("rank3-link-rate").accepts(4.7 * 1.021)).isFalse();
  }

  /**
   * docs/validation.md's "Current figures" table is what {@code validate --markdown} prints now, row for row (stop 76:
   * the file quoted stop 63's and stop 65's figures as today's, 774 ns for a put that took 867): a change that moves a
   * figure, a band or a verdict fails here until the table is pasted again.
   */
  @Test
  void theDocsCurrentFiguresAreWhatValidatePrints() throws java.io.IOException {
    String doc = java.nio.file.Files.readString(docs().resolve("validation.md"));
    int start = doc.indexOf("\n### Current figures");
    assertThat(start).as("docs/validation.md has a \"Current figures\" section").isPositive();
    int end = doc.indexOf("\n#", start + 1);
    List<String> table = doc.substring(start, end < 0 ? doc.length() : end).lines()
        .filter(l -> l.startsWith("| ")).toList();
    assertThat(table).isNotEmpty();
    assertThat(table.get(0)).isEqualTo(Validation.MARKDOWN_HEADER);
    assertThat(table.subList(1, table.size()))
        .as("docs/validation.md's \"Current figures\": paste `./aries validate --markdown` again")
        .containsExactlyElementsOf(rows().stream().map(Validation.Row::markdown).toList());
  }

  /** A row's Markdown line: its figure, values, ratio to three decimals, band, verdict and source, as the doc quotes. */
  @Test
  void aRowsMarkdownLineHasItsColumns() {
    Validation.Row r = new Validation.Row(figure("rank3-link-rate"), 4.6955);
    assertThat(r.markdown()).isEqualTo("| rank3-link-rate: " + figure("rank3-link-rate").description()
        + " | 4.70 GB/s | 4.70 GB/s | 0.999 | 0.98-1.02 | ok | S3 via S1 (aries-facts §1) |");
    Validation.Row bound = new Validation.Row(figure("farthest-pair-latency"), 1447.4);
    assertThat(bound.markdown()).contains("| 1447 ns | < 2000 ns | 0.724 | <= 1.00 | ok |");
    Validation.Row shape = new Validation.Row(figure("dmapp-delivery-modes"), 0);
    assertThat(shape.markdown()).contains("| 0.00 shape | 1.00 shape | 0.000 | holds | FAIL |");
  }

  /** Each section a disagreement names is a heading or a bold lead of docs/validation.md, quoted exactly. */
  @Test
  void everyDisagreementNamesASectionThatExists() throws java.io.IOException {
    String doc = java.nio.file.Files.readString(docs().resolve("validation.md"));
    for (var e : Validation.KNOWN_DISAGREEMENTS.entrySet()) {
      String where = e.getValue().where();
      String quoted = where.substring(where.indexOf('"') + 1, where.lastIndexOf('"'));
      assertThat(doc).as(e.getKey()).contains(quoted);
    }
  }

  /**
   * The docs state the bands the code checks (stop 70): put-peak's sizes are 16 KiB-1 MiB (calibration-sources row 1
   * said 4 KiB-4 MiB) and the MPI latency rows' band is validate's default 0.8-1.25 (row 9 said +-20 %).
   */
  @Test
  void theDocsStateTheBandsTheCodeChecks() throws java.io.IOException {
    String sources = java.nio.file.Files.readString(docs().resolve("calibration-sources.md"));
    assertThat(sources).doesNotContain("best PUT bandwidth over 4 KiB–4 MiB")
        .contains("16 KiB, 64 KiB, 128 KiB and 1 MiB")
        .doesNotContain("within ±20 % of daint gpu's 1.30 µs");
    assertThat(figure("put-peak").description()).contains("16 KiB-1 MiB");
    assertThat(figure("mpi-latency-one-switch").lowRatio()).isEqualTo(0.8);
    assertThat(figure("mpi-latency-one-switch").highRatio()).isEqualTo(1.25);
  }

  /** The repository's docs folder, from the module's directory or the root. */
  private static java.nio.file.Path docs() {
    java.nio.file.Path here = java.nio.file.Path.of("docs");
    return java.nio.file.Files.isDirectory(here) ? here : java.nio.file.Path.of("..", "docs");
  }

  private static PublishedFigure figure(String id) {
    return Validation.FIGURES.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
  }

  private static double alltoall6(MpiConfig config) {
    var sys = AriesSystem.builder().system("default").seed(1).build();
    return OsuBenchmarks.alltoall(sys, Validation.COLLECTIVE_NODES, 1, 8,
        Validation.COLLECTIVE_WARMUP, Validation.COLLECTIVE_ITERATIONS, config);
  }

  @Test
  void theSuiteHasAtLeastFifteenRowsFromAtLeastFiveSources() {
    assertThat(Validation.FIGURES).hasSizeGreaterThanOrEqualTo(15);
    assertThat(Validation.FIGURES.stream().map(f -> f.source().split("[ ,(]")[0]).distinct().count())
        .isGreaterThanOrEqualTo(5);
  }

  @Test
  void aFigureOutsideTheBandFails() {
    PublishedFigure f = new PublishedFigure("x", "x", 100, "ns", false, "test");
    assertThat(f.accepts(80)).isTrue();
    assertThat(f.accepts(79.9)).isFalse();
    assertThat(f.accepts(125)).isTrue();
    assertThat(f.accepts(125.1)).isFalse();
    PublishedFigure tight = new PublishedFigure("t", "t", 9.5, "GB/s", false, "test", 0.9, 1.1);
    assertThat(tight.accepts(8.56)).isTrue();
    assertThat(tight.accepts(8.5)).isFalse();
    assertThat(tight.accepts(10.5)).isFalse();
    PublishedFigure shape = PublishedFigure.shape("s", "s", "test");
    assertThat(shape.accepts(1)).isTrue();
    assertThat(shape.accepts(0)).isFalse();
    PublishedFigure bound = new PublishedFigure("y", "y", 2000, "ns", true, "test");
    assertThat(bound.accepts(1999)).isTrue();
    assertThat(bound.accepts(2001)).isFalse();
  }

  @Test
  void validateCommandPrintsEveryFigureAndExitsZero() {
    StringWriter out = new StringWriter();
    int rc = AriesCli.execute(new String[] {"validate"}, new PrintWriter(out, true), new PrintWriter(new StringWriter()));
    assertThat(rc).isZero();
    for (PublishedFigure f : Validation.FIGURES) {
      assertThat(out.toString()).contains(f.id());
    }
    assertThat(out.toString()).contains("all figures within their accepted bands but 5 known to disagree, cause found"
        + " (KNOWN)").contains("and 4 known to disagree, cause not fully found (OPEN)").contains("mpi-alltoall-6")
        .contains("KNOWN").contains("OPEN");
    java.util.List<String> lines = out.toString().lines().toList();
    assertThat(lines.get(lines.size() - 3)).isEqualTo("calibration rows, set from the figure they compare with"
        + " (docs/validation.md, \"Calibration rows\"): " + String.join(", ", Validation.CALIBRATION_ROWS));
    assertThat(lines.get(lines.size() - 2)).isEqualTo(Validation.duplicatesNote())
        .contains("osu-latency-bound is put8-nearest-latency's value")
        .contains("mpi-latency-one-switch is mpi-latency-same-blade's value")
        .contains("of " + Validation.FIGURES.size() + " rows, " + (Validation.FIGURES.size()
            - Validation.CALIBRATION_ROWS.size() - 1) + " are independent checks");
  }
}
