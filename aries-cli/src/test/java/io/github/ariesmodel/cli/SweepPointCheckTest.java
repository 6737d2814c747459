package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.cli.workload.Params;
import io.github.ariesmodel.cli.workload.WorkloadRun;
import io.github.ariesmodel.cli.workload.Workloads;
import io.github.ariesmodel.system.AriesSystem;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every workload's own parameters are checked on every point of a sweep before the first point runs: a bad value in
 * the last point is refused with exit status 2, no point file, and the line names the point, the parameter and the
 * value, with the message the point's run would have given.
 */
class SweepPointCheckTest {

  /** The traces aries-traces keeps for its tests (Maven runs a module's tests in the module's folder). */
  private static final Path TRACES = Path.of("../aries-traces/src/test/resources/traces");
  @TempDir static Path shared;

  /**
   * A 3-rank SimGrid trace, by a path a sweep value can hold: a copy in a temporary folder, as neither ".." (a
   * range) nor a checkout path with a comma or brackets in it (a list) can be a value.
   */
  private static Path allreduce() throws IOException {
    Path copy = shared.resolve("actions_allreduce.txt");
    if (!Files.exists(copy)) {
      Files.copy(TRACES.resolve("simgrid-examples/actions_allreduce.txt"), copy);
    }
    return copy;
  }
  @TempDir Path tmp;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int aries(List<String> args) {
    return AriesCli.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /**
   * One case: a workload, the {@code --param} values of a two-point sweep on a small system whose point 0 is cheap
   * and valid and whose point 1 (the last) has one bad value, and what the line must say.
   */
  static Stream<Arguments> lastPointsWithOneBadValue() throws IOException {
    String trace = "trace=" + allreduce();
    // two node ids for a 3-rank trace: the placement does not fit, which the run finds only after reading the trace
    Path twoNodes = Files.writeString(shared.resolve("two-nodes.txt"), "0\n1\n");
    return Stream.of(
        Arguments.of("pingpong", List.of("sizes=8", "distances=same-router", "iterations=1,0"), "iterations=0",
            "iterations must be in [1, 100000] but was 0"),
        Arguments.of("pingpong", List.of("sizes=8", "iterations=1", "distances=same-router,rank-9"),
            "distances=rank-9", "distances elements must be among same-router, rank-1, rank-2, rank-3 but one was"
                + " \"rank-9\""),
        Arguments.of("bandwidth", List.of("sizes=8", "bytes=8", "ops=put", "distance=same-router",
            "modes=ugni,uGNI"), "modes=uGNI", "modes must be one of ugni, dmapp but was \"uGNI\""),
        Arguments.of("bandwidth", List.of("sizes=8", "bytes=8", "ops=put", "distance=same-router,rank-4"),
            "distance=rank-4", "distance must be one of same-router, rank-1, rank-2, rank-3 but was \"rank-4\""),
        // aries-small has 96 nodes: the bound comes from the point's system
        Arguments.of("gups", List.of("updates=1", "table=4K", "pes=2,97"), "pes=97",
            "pes must be in [1, 96] but was 97"),
        Arguments.of("gups", List.of("pes=2", "updates=1", "table=4K", "fetching=false,no"), "fetching=no",
            "fetching must be one of true, false but was \"no\""),
        Arguments.of("alltoall", List.of("pes=2", "bytes=8,65M"), "bytes=65M",
            "bytes must be in [1, 67108864] but was 68157440"),
        Arguments.of("alltoall", List.of("bytes=8", "pes=2,97"), "pes=97", "pes must be in [2, 96] but was 97"),
        Arguments.of("host-cache", List.of("rounds=1", "messages=1", "pes=2", "modes=none", "amos=1,0"), "amos=0",
            "amos must be in [1, 1000000] but was 0"),
        Arguments.of("host-cache", List.of("rounds=1", "messages=1", "pes=2", "amos=1", "modes=none,cached"),
            "modes=cached",
            "modes elements must be among update, invalidate, bypass, allocate, none but one was \"cached\""),
        Arguments.of("iommu-study", List.of("pageSizes=2M", "table=4K", "pes=1", "puts=1", "patterns=sequential,"
            + "strided"), "patterns=strided", "patterns elements must be among random, sequential but one was"
                + " \"strided\""),
        Arguments.of("iommu-study", List.of("pageSizes=2M", "table=4K", "patterns=sequential", "puts=1", "pes=1,0"),
            "pes=0", "pes must be in [1, 1024] but was 0"),
        Arguments.of("mpi-latency", List.of("sizes=8", "distances=on-node", "warmup=0", "iterations=1,100001"),
            "iterations=100001", "iterations must be in [1, 100000] but was 100001"),
        Arguments.of("mpi-latency", List.of("sizes=8", "warmup=0", "iterations=1", "distances=on-node,off-node"),
            "distances=off-node", "distances elements must be among on-node, same-router, rank-1, rank-2, rank-3"
                + " but one was \"off-node\""),
        Arguments.of("mpi-bandwidth", List.of("sizes=8", "distances=on-node", "warmup=0", "iterations=1",
            "window=1,1025"), "window=1025", "window must be in [1, 1024] but was 1025"),
        // 64 x 2 x (2^30 + 128) bytes of buffers on each rank's node of 64 GiB: found as the job was built, after
        // every earlier point had run (stop 32's note)
        Arguments.of("mpi-bandwidth", List.of("sizes=1G", "distances=on-node", "warmup=0", "iterations=1",
            "window=1,64"), "window=64", "window x the largest of sizes must fit a node's memory: window=64 and"
            + " sizes up to 1073741824 need"),
        Arguments.of("traffic", List.of("routings=minimal", "measureNs=10", "loads=0.1,2.5"), "loads=2.5",
            "loads elements must be in [1.0E-4, 2.0] but one was 2.5"),
        // a routing name is the fabric's to know: the check builds the fabric as the run would, and simulates nothing
        Arguments.of("traffic", List.of("loads=0.1", "measureNs=10", "routings=minimal,fastest"), "routings=fastest",
            "routing must be one of [minimal, in-order"),
        Arguments.of("traffic", List.of("loads=0.1", "measureNs=10", "routings=minimal", "pattern=uniform,tornado"),
            "pattern=tornado", "pattern must be one of uniform, permutation"),
        // the window against the packet slot, in the parameter's name and unit (a sweep found it as the point ran,
        // after writing point-0.json, and said "measurePs must be ..., 6275 ps here ..., but was 1000")
        Arguments.of("traffic", List.of("loads=0.1", "routings=minimal", "measureNs=1000,1"), "measureNs=1",
            "measureNs must be at least one packet slot, 6.275 ns here, but was 1"),
        Arguments.of("replay", List.of(trace, "ranksPerNode=1,69"), "ranksPerNode=69",
            "ranksPerNode must be in [1, 68] but was 69"),
        Arguments.of("replay", List.of(trace, "compute=skip,fast"), "compute=fast",
            "compute must be skip, as-traced or scale:F (F > 0) but was \"fast\""),
        Arguments.of("replay", List.of(trace, "mapping=linear," + twoNodes), "mapping=" + twoNodes,
            "names 2 nodes but the trace has 3 ranks"));
  }

  @ParameterizedTest(name = "{0} {3}")
  @MethodSource("lastPointsWithOneBadValue")
  void aBadValueInTheLastPointIsRefusedBeforeAnyPointRuns(String job, List<String> params, String bad,
      String message) {
    Path dir = tmp.resolve("sweep");
    List<String> args = new ArrayList<>(List.of("sweep", "--job", job, "--param", "system=aries-small"));
    for (String p : params) {
      args.add("--param");
      args.add(p);
    }
    args.addAll(List.of("--out", dir.toString(), "-q"));
    assertThat(aries(args)).as(err.toString()).isEqualTo(2);
    String e = err.toString();
    assertThat(e.lines().count()).as(e).isEqualTo(1);
    assertThat(e).startsWith("aries sweep: point 1 {").contains(bad).contains(message).doesNotContain("\tat ");
    assertThat(dir.resolve("point-0.json")).doesNotExist();
    assertThat(dir.resolve("point-1.json")).doesNotExist();
  }

  /** The check refuses with the very message the point's run gives (the run refuses before it simulates). */
  @ParameterizedTest(name = "{0} {3}")
  @MethodSource("lastPointsWithOneBadValue")
  void theCheckAndTheRunOfTheBadPointGiveOneMessage(String job, List<String> params, String bad, String message) {
    Map<String, String> point = new LinkedHashMap<>();
    point.put("system", "aries-small");
    for (String p : params) {
      String name = p.substring(0, p.indexOf('='));
      String values = p.substring(p.indexOf('=') + 1);
      point.put(name, values.substring(values.lastIndexOf(',') + 1)); // the last value: the bad point's
    }
    Throwable checked = catchIllegalArgument(() -> WorkloadRun.checkSweepPoint(Workloads.byName(job), point));
    Throwable ran = catchIllegalArgument(() -> WorkloadRun.sweepPoint(Workloads.byName(job), point));
    assertThat(checked.getMessage()).contains(message).isEqualTo(ran.getMessage());
  }

  private static Throwable catchIllegalArgument(Runnable r) {
    Throwable[] caught = new Throwable[1];
    assertThatThrownBy(() -> {
      try {
        r.run();
      } catch (RuntimeException e) {
        caught[0] = e;
        throw e;
      }
    }).isInstanceOf(IllegalArgumentException.class);
    return caught[0];
  }

  /**
   * Adversarial traffic needs two groups, which the experiment refuses only as the point runs: on one group it is
   * refused before any point runs (the sweep wrote point-0.json, then failed).
   */
  @Test
  void adversarialTrafficOnOneGroupIsRefusedBeforeAnyPointRuns() {
    Path dir = tmp.resolve("sweep");
    assertThat(aries(List.of("sweep", "--job", "traffic", "--param", "system=[canonical:p=2,a=4,h=2,g=1]", "--param",
        "routings=minimal", "--param", "loads=0.1", "--param", "measureNs=100", "--param",
        "pattern=uniform,adversarial", "--out", dir.toString(), "-q"))).as(err.toString()).isEqualTo(2);
    assertThat(err.toString().lines().toList()).singleElement().asString().startsWith("aries sweep: point 1 {")
        .contains("pattern=adversarial").contains("pattern adversarial sends each group's nodes to the next group and"
            + " needs at least 2 groups, but the topology has 1");
    assertThat(dir.resolve("point-0.json")).doesNotExist();
  }

  /** A check reads the system's shape and memory size only: it builds none of the nodes a run builds on first use. */
  @Test
  void everyWorkloadsCheckBuildsNoNode() throws IOException {
    for (Workloads w : Workloads.values()) {
      AriesSystem system = SystemSpec.of("aries-small", 1).build();
      Params params = w == Workloads.REPLAY ? Params.of(Map.of("trace", allreduce().toString())) : Params.none();
      w.create().check(system, params);
      assertThat(system.builtNodes()).as(w.name()).isZero();
    }
  }

  /**
   * The mixed job has no parameters of its own, but its phases' fixed ones are bounded by the system: on 8 nodes the
   * GUPS phase's 16 PEs do not fit, which its run finds only after the ping-pong and bandwidth phases.
   */
  @Test
  void theMixedJobsPhasesAreCheckedAgainstThePointsSystem() {
    Map<String, String> point = Map.of("system", "aries:groups=1,rows=1,cols=2");
    assertThatThrownBy(() -> WorkloadRun.checkSweepPoint(Workloads.byName("mixed"), point))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("the mixed job's gups phase cannot run on this system:"
            + " pes must be in [1, 8] but was 16; run the workloads that fit it on their own");
    WorkloadRun.checkSweepPoint(Workloads.byName("mixed"), Map.of("system", "aries:groups=1,rows=1,cols=4"));
  }
}
