package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.SystemPreset;
import io.github.ariesmodel.system.process.OsNoise;
import java.util.List;
import org.junit.jupiter.api.Test;

class OsuBenchmarksTest {

  private static AriesSystem system() {
    return AriesSystem.builder().preset(SystemPreset.DEFAULT).seed(1).build();
  }

  @Test
  void sizesAreZeroThenPowersOfTwo() {
    assertThat(OsuBenchmarks.sizes(16)).containsExactly(0, 1, 2, 4, 8, 16);
    assertThatThrownBy(() -> OsuBenchmarks.sizes(0)).hasMessageContaining("maxBytes must be in [1, 2^30] but was 0");
  }

  @Test
  void eightByteLatencyOnOneBladeIsNearTheCalibratedMpiFigure() {
    // 16 warm-up round trips: every mailbox slot (8 per pair) has been polled once, so its lines are in the cache,
    // as after osu_latency's own warm-up
    List<OsuBenchmarks.LatencyRow> rows =
        OsuBenchmarks.latency(system(), 0, 1, new long[] {8, 4096, 65_536}, 16, 3, MpiConfig.defaults());
    assertThat(rows).extracting(OsuBenchmarks.LatencyRow::bytes).containsExactly(8L, 4096L, 65_536L);
    // aries-facts §7: 1.3 µs same blade [S3], the point the overheads are calibrated to in steady state (MpiConfig;
    // 1,300.0 ns with 20 + 100 round trips): within 10 % after these 16 + 3
    assertThat(rows.get(0).latencyNs()).isBetween(1_170.0, 1_430.0);
    assertThat(rows.get(1).latencyNs()).isGreaterThan(rows.get(0).latencyNs());
    assertThat(rows.get(2).latencyNs()).isGreaterThan(rows.get(1).latencyNs());
  }

  @Test
  void windowedBandwidthGrowsWithSizeAndStaysBelowTheNicPeak() {
    List<OsuBenchmarks.BandwidthRow> rows =
        OsuBenchmarks.bandwidth(system(), 0, 20, new long[] {1024, 65_536}, 16, 0, 2, MpiConfig.defaults());
    assertThat(rows.get(1).gigabytesPerSecond()).isGreaterThan(rows.get(0).gigabytesPerSecond());
    // 64 B every 5 cycles at 800 MHz [S2 via S1]
    assertThat(rows.get(1).gigabytesPerSecond()).isLessThan(10.24).isGreaterThan(1.0);
  }

  @Test
  void aWindowWhoseBuffersTheNodeCannotHoldIsRefusedNamingTheWindowAndSize() {
    // 40 x 2 x (2^30 + 128) bytes: the buffer space is raised to the 64 GiB limit, which a 64 GiB node cannot register
    assertThatThrownBy(() -> OsuBenchmarks.bandwidth(system(), 0, 20, new long[] {8, 1L << 30}, 40, 0, 1,
        MpiConfig.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("window (40) x 2 x (largest size 1073741824 + 128) = 85899356160 bytes of MPI buffer"
            + " space do not fit a rank's node: ");
  }

  @Test
  void theRegistrationFigureIsWhatEachRankRegistersAndBeyondTheNodesMemoryTheBuildRefusesIt() {
    // 16 x 2 x (64 KiB + 128) bytes: below the 16 MiB default heap, which stays; with two ranks' mailboxes (8 slots
    // of 1,088 bytes each) in 2 MB pages, 18 MiB
    long[] sizes = {1024, 65_536};
    assertThat(OsuBenchmarks.bandwidthBufferBytes(sizes, 16)).isEqualTo(2L * 16 * (65_536 + 128));
    assertThat(OsuBenchmarks.bandwidthRegistrationBytes(sizes, 16, MpiConfig.defaults()))
        .isEqualTo(Rank.registrationBytes(MpiConfig.defaults(), 2))
        .isEqualTo(18L << 20);
    // 16 x 2 x (64 MiB + 128) bytes: above it, so the heap is raised to that and 1 MiB more
    long[] big = {1L << 26};
    long bigBuffers = 2L * 16 * ((1L << 26) + 128);
    assertThat(OsuBenchmarks.bandwidthRegistrationBytes(big, 16, MpiConfig.defaults()))
        .isEqualTo(Rank.registrationBytes(MpiConfig.builder().heapBytes(bigBuffers + (1L << 20)).build(), 2))
        .isEqualTo(PageSize.SIZE_2M.alignUp(2L * 8 * 1088 + bigBuffers + (1L << 20)));
    // beyond the node's memory, the job's build refuses the registration: the CLI refuses such a point up front
    AriesSystem sys = system();
    long[] huge = {8, 1L << 30};
    assertThat(OsuBenchmarks.bandwidthRegistrationBytes(huge, 40, MpiConfig.defaults()))
        .isGreaterThan(sys.nodeMemoryBytes());
    assertThatThrownBy(() -> OsuBenchmarks.bandwidth(sys, 0, 20, huge, 40, 0, 1, MpiConfig.defaults()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OsuBenchmarks.bandwidthBufferBytes(sizes, 1025))
        .hasMessage("window must be in [1, 1024] but was 1025");
    assertThatThrownBy(() -> OsuBenchmarks.bandwidthBufferBytes(new long[] {-1}, 1))
        .hasMessage("sizes must be in [0, 2^30] but one was -1");
  }

  @Test
  void twoRanksOfOneNodeAreFasterThanTwoNodesOfOneBladeAndLeaveTheNicIdle() {
    AriesSystem sys = system();
    long[] sizes = {8, 4096, 65_536};
    List<OsuBenchmarks.LatencyRow> onNode = OsuBenchmarks.latency(sys, 3, 3, sizes, 16, 3, MpiConfig.defaults());
    assertThat(sys.node(3).nicStatistics().posts()).isZero();
    List<OsuBenchmarks.LatencyRow> blade = OsuBenchmarks.latency(system(), 0, 1, sizes, 16, 3, MpiConfig.defaults());
    for (int k = 0; k < sizes.length; k++) {
      assertThat(onNode.get(k).latencyNs()).as("%s bytes", sizes[k]).isLessThan(blade.get(k).latencyNs());
    }
    // with the on-node path off, the two ranks' messages go through their NIC
    AriesSystem viaNic = system();
    List<OsuBenchmarks.LatencyRow> loopback = OsuBenchmarks.latency(viaNic, 3, 3, new long[] {8}, 16, 3,
        MpiConfig.builder().sharedMemory(false).build());
    assertThat(viaNic.node(3).nicStatistics().posts()).isPositive();
    assertThat(loopback.get(0).latencyNs()).isGreaterThan(onNode.get(0).latencyNs());
  }

  @Test
  void onNodeBandwidthGrowsWithSize() {
    AriesSystem sys = system();
    List<OsuBenchmarks.BandwidthRow> rows =
        OsuBenchmarks.bandwidth(sys, 5, 5, new long[] {1024, 65_536}, 16, 0, 2, MpiConfig.defaults());
    assertThat(rows.get(1).gigabytesPerSecond()).isGreaterThan(rows.get(0).gigabytesPerSecond());
    // one copy at the configured 16 GB/s bounds a single-copy message from above
    assertThat(rows.get(1).gigabytesPerSecond()).isLessThan(MpiConfig.defaults().memcpyBytesPerSecond() / 1e9);
    assertThat(sys.node(5).nicStatistics().posts()).isZero();
  }

  /** osu_latency's one-way 8-byte time between nodes 0 and 1 (same router) after a warm-up, nanoseconds. */
  private static double oneWayNs() {
    return OsuBenchmarks.latency(system(), 0, 1, new long[] {8}, 16, 4, MpiConfig.defaults()).get(0).latencyNs();
  }

  /**
   * Two ranks' allreduce and alltoall are one exchange each: about one one-way message time, as osu_allreduce and
   * osu_alltoall time each call alone after a barrier. Sixteen ranks' alltoall takes MPICH's Bruck algorithm (8-byte
   * blocks, at least 8 ranks): log2(16) = 4 exchanges in a row, each at least a one-way message time.
   */
  @Test
  void aCollectiveIsTimedCallByCallAndCostsItsAlgorithmsMessageTimes() {
    double oneWayUs = oneWayNs() / 1e3;
    int[] two = {0, 1};
    OsuBenchmarks.CollectiveRow row = OsuBenchmarks.collectives(system(), two, 2, 10, MpiConfig.defaults());
    assertThat(row.allreduceUs()).isBetween(0.9 * oneWayUs, 1.5 * oneWayUs);
    assertThat(row.barrierUs()).isBetween(0.9 * oneWayUs, 1.5 * oneWayUs);
    assertThat(OsuBenchmarks.alltoall(system(), two, 1, 8, 2, 10, MpiConfig.defaults()))
        .isBetween(0.9 * oneWayUs, 1.5 * oneWayUs);
    int[] sixteen = new int[16];
    for (int i = 0; i < 16; i++) {
      sixteen[i] = i;
    }
    assertThat(OsuBenchmarks.alltoall(system(), sixteen, 1, 8, 2, 10, MpiConfig.defaults()))
        .isGreaterThan(4 * oneWayUs);
  }

  /**
   * Six ranks are below MPICH's Bruck threshold, so every rank posts five isends and five irecvs at once: at least
   * five send overheads of each rank's time, and well below five message times in a row, which the pairwise
   * exchange (forced by cut-overs of 0) takes instead.
   */
  @Test
  void sixRanksAlltoallOverlapsItsMessagesWhereThePairwiseExchangeCannot() {
    int[] six = {0, 1, 2, 3, 4, 5};
    MpiConfig def = MpiConfig.defaults();
    double scattered = OsuBenchmarks.alltoall(system(), six, 1, 8, 2, 10, def);
    double pairwise = OsuBenchmarks.alltoall(system(), six, 1, 8, 2, 10,
        MpiConfig.builder().alltoallShortBytes(0).alltoallMediumBytes(0).build());
    double oneWayUs = oneWayNs() / 1e3;
    assertThat(scattered).isGreaterThan(5 * def.sendOverheadPs() / 1e6).isLessThan(4 * oneWayUs);
    assertThat(pairwise).isGreaterThan(5 * 0.9 * oneWayUs);
  }

  @Test
  void alltoallRefusesABlockOutOfRangeAndIsTheSameForTheSameSeed() {
    int[] four = {0, 1, 2, 3};
    assertThatThrownBy(() -> OsuBenchmarks.alltoall(system(), four, 1, 0, 0, 1, MpiConfig.defaults()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("bytes must be in [1, 1048576] but was 0");
    assertThatThrownBy(() -> OsuBenchmarks.alltoall(system(), new int[] {3}, 1, 8, 0, 1, MpiConfig.defaults()))
        .hasMessage("nodes must name at least 2 nodes");
    assertThat(OsuBenchmarks.alltoall(system(), four, 2, 64, 1, 3, MpiConfig.defaults()))
        .isEqualTo(OsuBenchmarks.alltoall(system(), four, 2, 64, 1, 3, MpiConfig.defaults()));
  }

  /**
   * Each rank's send and receive buffers hold a block for every rank: 8 nodes of 256 ranks at the largest block need
   * 2^31 bytes each, past a Java array, and the int product wrapped to a NegativeArraySizeException in every rank's
   * program once the 2,048-rank job was built (the review of stop 72). Refused before the job is built.
   */
  @Test
  void anAlltoallWhoseBuffersPassAJavaArrayIsRefusedBeforeTheJobIsBuilt() {
    AriesSystem sys = system();
    int[] eight = {0, 1, 2, 3, 4, 5, 6, 7};
    assertThatThrownBy(() -> OsuBenchmarks.alltoall(sys, eight, 256, 1 << 20, 0, 1, MpiConfig.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ranks × bytes (each rank's send and receive buffer, a block for every rank) must be at most"
            + " 2147483639 (the largest Java array) but was 2048 × 1048576 = 2147483648 (8 nodes × 256 ranksPerNode)");
    assertThat(sys.builtNodes()).as("no node was built for the job").isZero();
    assertThat(sys.now()).isZero();
    // a ranksPerNode out of range is refused as the job's builder refuses it, not as a buffer too large
    assertThatThrownBy(() -> OsuBenchmarks.alltoall(sys, eight, 100_000, 1 << 20, 0, 1, MpiConfig.defaults()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("ranksPerNode must be in [1, 272] but was 100000");
  }

  /**
   * OS noise of a tenth of the CPU (1 us every 10 us, at random phases): every collective takes longer, and no noise
   * is exactly the default. The alltoall of 8 bytes spends little of its time on the CPU, so noise lengthens it by a
   * few per cent at most, and a detour can also spread the ranks' sends out; over 10 iterations the noisy mean came
   * out 1 % shorter once (stop 65's host link overhead moved it), over 50 it is 0.7 % longer (4.006 against 3.979 µs).
   */
  @Test
  void osNoiseLengthensCollectivesAndNoNoiseChangesNothing() {
    int[] six = {0, 1, 2, 3, 4, 5};
    OsNoise noisy = OsNoise.parse("period=10us,detour=1us");
    OsNoise none = OsNoise.none();
    OsBenchmarksRows quiet = rows(six, null);
    OsBenchmarksRows loud = rows(six, noisy);
    assertThat(loud.row().barrierUs()).isGreaterThan(quiet.row().barrierUs());
    assertThat(loud.row().allreduceUs()).isGreaterThan(quiet.row().allreduceUs());
    assertThat(loud.alltoallUs()).isGreaterThan(quiet.alltoallUs());
    assertThat(rows(six, none)).isEqualTo(quiet);
    assertThat(rows(six, noisy)).isEqualTo(loud);
    assertThatThrownBy(() -> AriesSystem.builder().osNoise(null))
        .hasMessage("osNoise must not be null (OsNoise.none() for no noise)");
  }

  private record OsBenchmarksRows(OsuBenchmarks.CollectiveRow row, double alltoallUs) {}

  /** @param noise the nodes' noise, or null for a system built without saying */
  private static OsBenchmarksRows rows(int[] nodes, OsNoise noise) {
    return new OsBenchmarksRows(
        OsuBenchmarks.collectives(noisy(noise), nodes, 2, 10, MpiConfig.defaults()),
        OsuBenchmarks.alltoall(noisy(noise), nodes, 1, 8, 2, 50, MpiConfig.defaults()));
  }

  private static AriesSystem noisy(OsNoise noise) {
    AriesSystem.Builder b = AriesSystem.builder().preset(SystemPreset.DEFAULT).seed(1);
    return noise == null ? b.build() : b.osNoise(noise).build();
  }

  @Test
  void sameSeedSameTable() {
    long[] sizes = {0, 100, 20_000};
    assertThat(OsuBenchmarks.latency(system(), 0, 200, sizes, 0, 2, MpiConfig.defaults()))
        .isEqualTo(OsuBenchmarks.latency(system(), 0, 200, sizes, 0, 2, MpiConfig.defaults()));
  }
}
