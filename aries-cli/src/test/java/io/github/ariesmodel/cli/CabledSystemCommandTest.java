package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.testkit.network.LinkLists;
import io.github.ariesmodel.core.Texts;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --system edison-cabled} and {@code --system links:FILE} for run, replay and systems. */
class CabledSystemCommandTest {

  /** The traces aries-traces keeps for its tests (Maven runs a module's tests in the module's folder). */
  static final Path TRACES = Path.of("../aries-traces/src/test/resources/traces");

  @TempDir Path tmp;

  private int run(StringWriter out, StringWriter err, String... args) {
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /** Groups 1, 4 and 6 as the file numbers them, 2 × 2 routers of 2 NICs, 1 cable a pair, unused ports. */
  private Path links() throws IOException {
    Path f = tmp.resolve("links.txt");
    Files.write(f, LinkLists.regular(new int[] {1, 4, 6}, 2, 2, 2, 1));
    return f;
  }

  @Test
  void pingPongAndMpiLatencyRunOnALinkListAtEveryDistance() throws IOException {
    Path f = links();
    for (String w : new String[] {"pingpong", "mpi-latency"}) {
      StringWriter err = new StringWriter();
      Path dir = tmp.resolve(w);
      int rc = run(new StringWriter(), err, "run", w, "--system", "links:" + f, "-p", "sizes=8", "-p",
          "iterations=2", "-q", "--no-wall-clock", "--out", dir.toString());
      assertThat(rc).as(err.toString()).isZero();
      Results r = ResultsJson.read(dir.resolve("results.json"));
      assertThat(r.metadata().system()).isEqualTo("links:" + f);
      for (String d : new String[] {"same-router", "rank-1", "rank-2", "rank-3"}) {
        assertThat(r.metric("latency." + d)).as(w + " " + d).hasValueSatisfying(m ->
            assertThat(m.value()).isPositive());
      }
      // farther is slower: a rank-3 ping-pong crosses an optical link (100 ns of wire alone)
      assertThat(r.metric("latency.rank-3").orElseThrow().value())
          .isGreaterThan(r.metric("latency.rank-1").orElseThrow().value());
    }
  }

  @Test
  void theSimGridExampleReplaysOnEdisonAsCabledAcrossGroups() throws IOException {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    // the example of small messages: a few thousand events (the 1 MB examples take a million)
    int rc = run(out, err, "replay", TRACES.resolve("simgrid-examples/actions_waitall.txt").toString(),
        "--system", "edison-cabled", "--mapping", "round-robin-groups", "--json", "-q", "--out",
        tmp.resolve("r").toString());
    assertThat(rc).as(err.toString()).isZero();
    JsonNode j = new ObjectMapper().readTree(out.toString());
    assertThat(j.get("messages").asLong()).isEqualTo(3);
    assertThat(j.get("linkBytes").get("rank-3").asLong()).isPositive();
  }

  @Test
  void aBadLinkListIsOneLineNamingFileAndLine() throws IOException {
    List<String> lines = new ArrayList<>(LinkLists.regular(new int[] {1, 4, 6}, 2, 2, 2, 1));
    lines.add(lines.get(0)); // a port listed twice
    Path bad = tmp.resolve("bad.txt");
    Files.write(bad, lines);
    for (String[] args : new String[][] {{"run", "pingpong", "--system", "links:" + bad, "--out", tmp.toString()},
        {"replay", TRACES.resolve("simgrid-examples/actions_barrier.txt").toString(), "--system", "links:" + bad},
        {"systems", "--describe", "links:" + bad}}) {
      StringWriter err = new StringWriter();
      assertThat(run(new StringWriter(), err, args)).as(args[0]).isEqualTo(2);
      assertThat(err.toString().lines().toList()).as(args[0]).singleElement().satisfies(line -> assertThat(line)
          .contains(Texts.abbreviate(bad.toString()) + ":" + lines.size() + ": port listed twice (first on line 1)"));
    }
  }

  @Test
  void systemsListsEdisonAsCabledAndDescribesALinkList() throws IOException {
    StringWriter out = new StringWriter();
    assertThat(run(out, new StringWriter(), "systems")).isZero();
    assertThat(out.toString()).containsPattern("edison-cabled +15 +1,440 +5,760 ");
    Path f = links();
    StringWriter d = new StringWriter();
    assertThat(run(d, new StringWriter(), "systems", "--describe", "links:" + f)).isZero();
    // 12 routers of 40 tiles, 2 of them local: 456 rank-3 ports (unlisted tiles count as absent rank-3); 3 cables
    assertThat(d.toString()).contains("file groups 1,4,6", "nodes             24  (2 per router)")
        .containsPattern("rank-3 links +3  \\(456 ports, 450 not cabled");
  }

  @Test
  void failedLinksRunOnEveryCommandAndAreListedToFailAgain() throws IOException {
    String system = "edison-cabled+failed=random:2000:blue:seed=5";
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Path dir = tmp.resolve("r");
    int rc = run(out, err, "replay", TRACES.resolve("simgrid-examples/actions_waitall.txt").toString(),
        "--system", system, "--mapping", "round-robin-groups", "-q", "--no-wall-clock", "--out", dir.toString());
    assertThat(rc).as(err.toString()).isZero();
    Results r = ResultsJson.read(dir.resolve("results.json"));
    assertThat(r.metadata().system()).isEqualTo(system);
    // on a cabled system the busiest links are named as Cray names their ports
    var busiest = r.table("busiestLinks").orElseThrow();
    assertThat(busiest.rows()).isNotEmpty().allSatisfy(row -> assertThat((String) row.get(busiest.columnIndex("to")))
        .matches("c\\d+-\\d+c\\d+s\\d+a0l[0-4][0-7]"));
    StringWriter traffic = new StringWriter();
    rc = run(traffic, err, "traffic", "--topology", system, "--routing", "ugal", "--load", "0.05", "--measure-us",
        "0.5", "--warmup-us", "0.2", "--json");
    assertThat(rc).as(err.toString()).isZero();
    JsonNode t = new ObjectMapper().readTree(traffic.toString());
    assertThat(t.get("measuredPackets").asLong()).isPositive();
    assertThat(t.get("topology").asText()).contains("2000 links failed");
    // the listed links, saved to a file, fail the same links again
    StringWriter listed = new StringWriter();
    assertThat(run(listed, err, "systems", "--describe", system, "--failed-links")).isZero();
    List<String> lines = listed.toString().lines().filter(l -> l.contains(" blue -> ")).toList();
    assertThat(lines).hasSize(2000);
    assertThat(listed.toString()).contains("# " + "  failed links      2,000");
    // the whole output as docs/network.md saves it (> down.txt): the description is # lines, which the list skips
    // (it was plain text, and file: refused its first line)
    assertThat(listed.toString().lines().filter(l -> !l.contains(" blue -> "))).isNotEmpty()
        .allSatisfy(l -> assertThat(l).startsWith("# "));
    Path down = Files.writeString(tmp.resolve("down.txt"), listed.toString());
    StringWriter again = new StringWriter();
    assertThat(run(again, err, "systems", "--describe", "edison-cabled+failed=file:" + down, "--failed-links"))
        .isZero();
    assertThat(again.toString().lines().filter(l -> l.contains(" blue -> ")).toList()).isEqualTo(lines);
  }

  @Test
  void aFailureTheSystemCannotTakeIsOneLineOnEveryCommand() {
    String system = "edison-cabled+failed=c0-0c0s0a0l52";
    String why = "failed link c0-0c0s0a0l52: tile l52 is a processor tile (NIC port), not a network link";
    for (String[] args : new String[][] {{"run", "pingpong", "--system", system, "--out", tmp.toString()},
        {"replay", TRACES.resolve("simgrid-examples/actions_barrier.txt").toString(), "--system", system},
        {"traffic", "--topology", system}, {"systems", "--describe", system},
        {"replay", TRACES.resolve("simgrid-examples/actions_barrier.txt").toString(), "--system",
            "theta+failed=random:2"}}) {
      StringWriter err = new StringWriter();
      assertThat(run(new StringWriter(), err, args)).as(String.join(" ", args)).isEqualTo(2);
      assertThat(err.toString().lines().toList()).as(String.join(" ", args)).singleElement().satisfies(line ->
          assertThat(line).contains(args[args.length - 1].startsWith("theta")
              ? "topology theta is generated, so it has no cables to fail" : why));
    }
  }

  @Test
  void aGeneratedPresetCabledHasItsLatencyAtEveryDistanceAndWritesItsLinkList() throws IOException {
    double[][] latency = new double[2][];
    String[] systems = {"two-groups", "cabled:two-groups"};
    String[] distances = {"same-router", "rank-1", "rank-2", "rank-3"};
    for (int i = 0; i < 2; i++) {
      StringWriter err = new StringWriter();
      Path dir = tmp.resolve("pp" + i);
      int rc = run(new StringWriter(), err, "run", "pingpong", "--system", systems[i], "-p", "sizes=8", "-p",
          "iterations=2", "-q", "--no-wall-clock", "--out", dir.toString());
      assertThat(rc).as(err.toString()).isZero();
      Results r = ResultsJson.read(dir.resolve("results.json"));
      assertThat(r.metadata().system()).isEqualTo(systems[i]);
      latency[i] = new double[distances.length];
      for (int d = 0; d < distances.length; d++) {
        latency[i][d] = r.metric("latency." + distances[d]).orElseThrow().value();
      }
    }
    // the same cables, hops and rates: an unloaded ping-pong takes the same time at every distance
    assertThat(latency[1]).containsExactly(latency[0]);
    assertThat(latency[0][3]).isGreaterThan(latency[0][0]);
    Path file = tmp.resolve("two-groups.txt");
    StringWriter out = new StringWriter();
    assertThat(run(out, new StringWriter(), "systems", "--describe", "cabled:two-groups", "--link-list",
        file.toString())).isZero();
    assertThat(out.toString()).contains("link list         " + file + " (9,216 lines)");
    StringWriter back = new StringWriter();
    assertThat(run(back, new StringWriter(), "systems", "--describe", "links:" + file)).isZero();
    assertThat(back.toString()).containsPattern("rank-3 links +960  \\(");
    StringWriter err = new StringWriter();
    assertThat(run(new StringWriter(), err, "systems", "--describe", "theta", "--link-list", file.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--link-list needs a cabled system (edison-cabled, links:FILE or"
        + " cabled:theta) but theta is generated");
    for (Path bad : new Path[] {tmp, tmp.resolve("none/x.txt")}) {
      StringWriter e = new StringWriter();
      assertThat(run(new StringWriter(), e, "systems", "--describe", "cabled:two-groups", "--link-list",
          bad.toString())).isEqualTo(2);
      assertThat(e.toString().lines().toList()).singleElement().satisfies(line -> assertThat(line)
          .isEqualTo("aries systems: --link-list " + bad + " cannot be written: "
              + (bad == tmp ? "it is a directory" : "no such directory") + " (--link-list)"));
    }
  }

  @Test
  void aRefusedLinkListPrintsNoDescriptionFirst() {
    // the description was printed, then the refusal of a generated system or of a path that cannot be written
    String[][] cases = {{"theta", tmp.resolve("t.txt").toString()}, {"cabled:two-groups", tmp.toString()},
        {"cabled:two-groups", tmp.resolve("none/x.txt").toString()}};
    for (String[] c : cases) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      assertThat(run(out, err, "systems", "--describe", c[0], "--link-list", c[1])).as(c[0]).isEqualTo(2);
      assertThat(err.toString().lines().toList()).as(c[0]).singleElement()
          .satisfies(line -> assertThat(line).contains("(--link-list)"));
      assertThat(out.toString()).as("%s %s", c[0], c[1]).isEmpty();
    }
    assertThat(tmp.resolve("t.txt")).doesNotExist();
  }

  @Test
  void aLinkListReplacesAnExistingFileWholeAndLeavesNoStagingFile() throws IOException {
    // it was written in place, truncated first: a failure midway left half a list where a whole file had been. A
    // hard link to the old file shows which: in place, both names saw the new list; moved into place, the old stays
    Path file = Files.writeString(tmp.resolve("list.txt"), "the old list\n");
    Path other = Files.createLink(tmp.resolve("other-name.txt"), file);
    StringWriter err = new StringWriter();
    assertThat(run(new StringWriter(), err, "systems", "--describe", "cabled:two-groups", "--link-list",
        file.toString())).as(err.toString()).isZero();
    assertThat(Files.readAllLines(file)).hasSize(9216);
    assertThat(other).hasContent("the old list");
    try (var s = Files.list(tmp)) {
      assertThat(s.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("list.txt", "other-name.txt");
    }
  }

  @Test
  void aLinkListIntoADirectoryThatTakesNoNewFilesIsRefusedAndTheOldFileKept() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("closed"));
    Path file = Files.writeString(dir.resolve("list.txt"), "the old list\n");
    org.junit.jupiter.api.Assumptions.assumeTrue(close(dir, true), "cannot close a directory to new files here");
    try {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      assertThat(run(out, err, "systems", "--describe", "cabled:two-groups", "--link-list", file.toString()))
          .isEqualTo(2);
      assertThat(err.toString().lines().toList()).singleElement().satisfies(line -> assertThat(line)
          .startsWith("aries systems: --link-list " + file + " cannot be written: ").endsWith(" (--link-list)")
          .doesNotContain(".aries-partial-"));
      assertThat(out.toString()).isEmpty();
      assertThat(file).hasContent("the old list");
    } finally {
      close(dir, false);
    }
  }

  /**
   * A link list that cannot be made where it was asked for (refused before writing, or no file can be created in its
   * directory: the system's exception unwrapped) is bad input, exit 2; one that fails while it is written or renamed
   * (a full disk: AtomicFiles wraps that) is a failed run, exit 1, as the docs give for an I/O error while writing.
   * Every such failure was exit 2 before.
   */
  @Test
  void aLinkListThatFailsWhileWritingIsAFailedRunAndOneThatCannotBeMadeIsBadInput() {
    Path file = Path.of("/data/list.txt");
    assertThat(SystemsCommand.linkListError(file, "it is a directory", null).exitStatus()).isEqualTo(2);
    IOException cannotMake = new java.nio.file.FileSystemException("/data/.aries-partial-1.tmp", null,
        "Operation not permitted");
    assertThat(SystemsCommand.linkListError(file, "Operation not permitted", cannotMake).exitStatus()).isEqualTo(2);
    IOException full = io.github.ariesmodel.cli.report.AtomicFiles.failed("cannot write " + file,
        new java.nio.file.FileSystemException("/data/.aries-partial-2.tmp", null, "No space left on device"));
    CliError e = SystemsCommand.linkListError(file, "No space left on device", full);
    assertThat(e.exitStatus()).isEqualTo(1);
    assertThat(e.getMessage()).isEqualTo("--link-list /data/list.txt cannot be written: No space left on device");
    assertThat(e.where()).isEqualTo("--link-list");
  }

  /**
   * Closes a directory to new files (or opens it again), its files still writable: without write permission, and
   * where that does not stop a new file (root, or a process with CAP_DAC_OVERRIDE, which user.name does not tell)
   * immutable as well ({@code chattr +i}, where the file system has it). Whether it worked is probed by making a file.
   *
   * @return whether the directory is closed (or open) as asked
   */
  private static boolean close(Path dir, boolean closed) throws IOException {
    if (!closed) {
      chattr(dir, "-i"); // first: an immutable directory's permissions cannot change (harmless where it is not)
      Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
      return true;
    }
    Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
    return !takesNewFiles(dir) || chattr(dir, "+i") && !takesNewFiles(dir);
  }

  private static boolean takesNewFiles(Path dir) throws IOException {
    try {
      Files.delete(Files.createFile(dir.resolve(".probe")));
      return true;
    } catch (java.nio.file.FileSystemException e) {
      return false; // permission denied, or not permitted (immutable)
    }
  }

  private static boolean chattr(Path dir, String flag) {
    try {
      Process p = new ProcessBuilder("chattr", flag, dir.toString()).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor() == 0;
    } catch (IOException e) {
      return false; // no chattr
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Test
  void aLinkListOverAFileThatIsNoRegularFileIsRefusedAndTheFileKept() throws IOException {
    // the list is moved into place, which would replace a device or a socket (/dev/null as root) with a regular file
    // in a short folder: a socket's path holds at most 107 bytes, which a long java.io.tmpdir exceeds
    Path folder = tmp.toString().length() < 90 ? tmp : Files.createTempDirectory(Path.of("/tmp"), "aries");
    Path socket = folder.resolve("sock");
    try (var server = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
      server.bind(java.net.UnixDomainSocketAddress.of(socket));
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      assertThat(run(out, err, "systems", "--describe", "cabled:two-groups", "--link-list", socket.toString()))
          .isEqualTo(2);
      assertThat(err.toString().lines().toList()).singleElement().isEqualTo("aries systems: --link-list " + socket
          + " cannot be written: it is not a regular file (a device, pipe or socket), which the link list would"
          + " replace (--link-list)");
      assertThat(out.toString()).isEmpty();
      assertThat(Files.readAttributes(socket, java.nio.file.attribute.BasicFileAttributes.class).isOther())
          .as("still the socket").isTrue();
    } finally {
      Files.deleteIfExists(socket);
      if (!folder.equals(tmp)) {
        Files.delete(folder);
      }
    }
  }
}
