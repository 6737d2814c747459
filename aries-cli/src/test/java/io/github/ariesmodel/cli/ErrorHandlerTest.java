package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI's one error path: one line per failure, the right exit status, a stack trace only with --debug. */
class ErrorHandlerTest {

  @TempDir Path tmp;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int aries(String... args) {
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  private String onlyLine() {
    String e = err.toString();
    assertThat(e.lines().count()).as(e).isEqualTo(1);
    assertThat(e).doesNotContain("\tat ", "Exception in");
    return e.strip();
  }

  @Test
  void aBadOptionValueIsOneLineNamingTheOption() {
    assertThat(aries("run", "--seed", "x")).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries run: ").contains("'x'").endsWith("(--seed)");
  }

  @Test
  void anOptionMissingItsValueIsLocatedAtTheOptionNotTheArguments() {
    // picocli gives no ArgSpec for a missing value: the line ended "(arguments)" until stop 78
    assertThat(aries("run", "--seed")).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries run: ").contains("--seed").endsWith("(--seed)");
    err.getBuffer().setLength(0);
    assertThat(aries("systems", "--describe")).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries systems: ").endsWith("(--describe)");
  }

  @Test
  void controlCharactersInTheLineAreEscaped() {
    // picocli's own message quotes the value raw: an ESC sequence cleared the terminal, a BEL rang it
    assertThat(aries("run", "--seed", "\u001b[2J\u0007x")).isEqualTo(2);
    assertThat(onlyLine()).contains("\\u001b[2J\\u0007x").doesNotContain("\u001b").doesNotContain("\u0007")
        .endsWith("(--seed)");
  }

  @Test
  void aMissingConfigFileIsBadInput() {
    assertThat(aries("run", "--config", tmp.resolve("nope.yaml").toString())).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries run: no such file: ").endsWith("(--config)");
  }

  @Test
  void aTruncatedConfigFileIsBadInputWithItsLine() throws IOException {
    Path f = tmp.resolve("cut.json");
    Files.writeString(f, "{\n  \"system\": \"default\",\n  \"params\": {\"sizes\": ");
    assertThat(aries("run", "--config", f.toString())).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries run: cannot parse the configuration at line 3: ")
        .doesNotContain("[Source");
  }

  @Test
  void anOutThatIsAFileIsRefusedBeforeTheRun() throws IOException {
    Path f = Files.writeString(tmp.resolve("taken"), "x");
    assertThat(aries("run", "pingpong", "-p", "sizes=8", "--out", f.toString())).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries run: not a directory: " + f + " (--out)");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void aMergeOutThatIsADirectoryIsRefused() {
    assertThat(aries("merge", "--out", tmp.toString(), tmp.toString())).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries merge: is a directory, not a file: " + tmp + " (--out)");
  }

  @Test
  void conflictingSystemSettingsAreBadInput() {
    assertThat(aries("run", "pingpong", "--fabric", "ideal", "--routing", "ugal", "--out", tmp.toString()))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("routing(\"ugal\") cannot be combined with fabric(IDEAL)");
  }

  @Test
  void longEchoedTextIsCut() {
    String huge = "z".repeat(5000);
    assertThat(aries("run", "pingpong", "--system", huge, "--out", tmp.toString())).isEqualTo(2);
    assertThat(onlyLine().length()).isLessThan(500);
  }

  @Test
  void debugAddsTheStackTrace() {
    assertThat(aries("--debug", "systems", "--describe", "nosuch")).isEqualTo(2);
    String e = err.toString();
    assertThat(e.lines().findFirst().orElseThrow()).startsWith("aries systems: ").endsWith("(--describe)");
    assertThat(e).contains("IllegalArgumentException", "\tat ");
  }

  @Test
  void withoutDebugTheSameFailureIsOneLine() {
    assertThat(aries("systems", "--describe", "nosuch")).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries systems: ");
  }

  @Test
  void aFailedRunExitsWithOne() {
    picocli.CommandLine root = new picocli.CommandLine(new AriesCli());
    root.setErr(new PrintWriter(err, true));
    picocli.CommandLine run = root.getSubcommands().get("run");
    assertThat(ErrorHandler.handle(new IllegalStateException("loop broken"), run, false)).isEqualTo(1);
    // a refusal's message is the whole text (stop 47); another exception keeps its name as a sign of a model fault
    assertThat(onlyLine()).isEqualTo("aries run: loop broken (the simulation)");
    err.getBuffer().setLength(0);
    assertThat(ErrorHandler.handle(new ArithmeticException("/ by zero"), run, false)).isEqualTo(1);
    assertThat(onlyLine()).isEqualTo("aries run: ArithmeticException: / by zero (the simulation)");
  }

  @Test
  void javaClassNamesInAMessageBecomeWordsOrGo() {
    assertThat(ErrorHandler.withoutClassNames("links file /x cannot be read: java.nio.file.NoSuchFileException: /x"))
        .isEqualTo("links file /x cannot be read: no such file: /x");
    assertThat(ErrorHandler.withoutClassNames("cannot be read: java.io.IOException: Is a directory"))
        .isEqualTo("cannot be read: Is a directory");
    assertThat(ErrorHandler.withoutClassNames("cannot convert 'a' to Path (java.nio.file.InvalidPathException: bad)"))
        .isEqualTo("cannot convert 'a' to Path (bad)");
    String provider = "register io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider through ServiceLoader";
    assertThat(ErrorHandler.withoutClassNames(provider)).as("only exception classes go").isEqualTo(provider);
  }

  @Test
  void aFileFailureIsGivenInWords() {
    assertThat(ErrorHandler.reason(new java.nio.file.NoSuchFileException("/x"))).isEqualTo("no such file");
    assertThat(ErrorHandler.reason(new java.nio.file.AccessDeniedException("/x"))).isEqualTo("permission denied");
    assertThat(ErrorHandler.reason(new java.nio.charset.MalformedInputException(2))).isEqualTo("not UTF-8 text");
    assertThat(ErrorHandler.reason(new IOException("Is a directory"))).isEqualTo("is a directory");
    assertThat(ErrorHandler.reason(new IOException("/Tmp/X missing"))).as("a path keeps its case")
        .isEqualTo("/Tmp/X missing");
  }

  /**
   * An input the user may not read is bad input (exit 2) named with its reason: merge of an unreadable point file
   * said "cannot use the file: permission denied" with exit 1, and a mapping file or replayed trace said "cannot be
   * read: map.txt", its path twice and no reason (stop 75's hunt, as uid 65534; tests run as root, so by the
   * exception).
   */
  @Test
  void anUnreadableInputIsBadInputNamedWithItsReason() {
    picocli.CommandLine root = new picocli.CommandLine(new AriesCli());
    root.setErr(new PrintWriter(err, true));
    picocli.CommandLine merge = root.getSubcommands().get("merge");
    java.nio.file.AccessDeniedException denied = new java.nio.file.AccessDeniedException("p0.json");
    assertThat(ErrorHandler.handle(new java.io.UncheckedIOException(denied), merge, false)).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries merge: cannot use the file: permission denied (p0.json)");
    err.getBuffer().setLength(0);
    picocli.CommandLine run = root.getSubcommands().get("run");
    java.nio.file.AccessDeniedException map = new java.nio.file.AccessDeniedException("map.txt");
    assertThat(ErrorHandler.handle(new IllegalArgumentException("mapping file map.txt cannot be read: "
        + map.getMessage(), map), run, false)).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries run: mapping file map.txt cannot be read: permission denied (arguments)");
    err.getBuffer().setLength(0);
    java.nio.file.AccessDeniedException trace = new java.nio.file.AccessDeniedException("t.txt");
    assertThat(ErrorHandler.handle(new java.io.UncheckedIOException(new IOException("cannot read the trace t.txt: "
        + trace.getMessage(), trace)), run, false)).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries run: cannot read the trace t.txt: permission denied (files)");
    assertThat(ErrorHandler.withReason("cannot read x: disk on fire", new java.nio.file.FileSystemException("x")))
        .as("a message that does not end with the cause's is left").isEqualTo("cannot read x: disk on fire");
  }

  @Test
  void textThatIsNotUtf8IsBadInputEvenWhereNoCallSiteNamesTheFile() {
    picocli.CommandLine root = new picocli.CommandLine(new AriesCli());
    root.setErr(new PrintWriter(err, true));
    picocli.CommandLine merge = root.getSubcommands().get("merge");
    assertThat(ErrorHandler.handle(new java.io.UncheckedIOException(new java.nio.charset.MalformedInputException(2)),
        merge, false)).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries merge: not UTF-8 text (files)");
  }

  @Test
  void aDamagedTraceMetInASweepPointIsBadInput() {
    picocli.CommandLine root = new picocli.CommandLine(new AriesCli());
    root.setErr(new PrintWriter(err, true));
    picocli.CommandLine sweep = root.getSubcommands().get("sweep");
    io.github.ariesmodel.traces.TraceFormatException e = io.github.ariesmodel.traces.TraceFormatException.ofFile(
        tmp.resolve("t.txt"), io.github.ariesmodel.traces.TraceFormatException.NO_RANK, "no such trace file", null);
    assertThat(ErrorHandler.handle(new java.io.UncheckedIOException(e), sweep, false)).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries sweep: ").contains("t.txt").contains("no such trace file")
        .endsWith("(trace)");
  }

  /**
   * A trace that deadlocks, or whose stream is damaged past its header, met by replay, by run's replay workload and
   * by a sweep of it: the same problem, exit status 2, and no --out directory left behind. run and sweep said
   * "TraceReplayException: ..." with status 1 and left an empty directory.
   */
  @Test
  void aTraceReplayFailureIsTheSameBadInputFromEveryCommandAndLeavesNoOut() throws IOException {
    Path deadlock = Files.writeString(tmp.resolve("deadlock.txt"),
        "0 init\n1 init\n0 recv 1 0 8\n1 recv 0 0 8\n0 send 1 0 8\n1 send 0 0 8\n");
    Path damaged = Files.writeString(tmp.resolve("damaged.txt"), "0 init\n1 init\n1 fly 2\n");
    for (Path trace : new Path[] {deadlock, damaged}) {
      String[][] commands = {
          {"replay", trace.toString(), "-q", "--out", tmp.resolve("r").toString()},
          {"run", "replay", "-p", "trace=" + trace, "-q", "--out", tmp.resolve("run").toString()},
          {"sweep", "--job", "replay", "--param", "trace=" + trace, "-q", "--out", tmp.resolve("s").toString()}};
      java.util.Set<String> problems = new java.util.HashSet<>();
      for (String[] c : commands) {
        err.getBuffer().setLength(0);
        assertThat(aries(c)).as(err.toString()).isEqualTo(2);
        String line = onlyLine();
        // a sweep names its point first
        String point = c[0].equals("sweep") ? "point 0 {trace=" + trace + "}: " : "";
        assertThat(line).startsWith("aries " + c[0] + ": " + point + trace).doesNotContain("Exception");
        problems.add(line.substring(line.indexOf(": ") + 2 + point.length(), line.lastIndexOf(" (")));
        assertThat(Path.of(c[c.length - 1])).as(String.join(" ", c)).doesNotExist();
      }
      // told alike: the same text, but for where a long message is cut (ErrorHandler's limit counts the point's
      // name and the trace's path, which are as long as java.io.tmpdir makes them)
      String shortest = problems.stream().map(p -> p.endsWith("…") ? p.substring(0, p.length() - 1) : p)
          .min(java.util.Comparator.comparingInt(String::length)).orElseThrow();
      assertThat(problems).as("one problem, told alike").allSatisfy(p -> assertThat(p).startsWith(shortest));
      assertThat(shortest).contains(trace == deadlock ? "deadlocked" : "unknown action 'fly'");
    }
  }
  @Test
  void aFailedRunRemovesOnlyTheDirectoriesItMadeNeverOneThatWasThere() throws IOException {
    Path deadlock = Files.writeString(tmp.resolve("deadlock.txt"),
        "0 init\n1 init\n0 recv 1 0 8\n1 recv 0 0 8\n0 send 1 0 8\n1 send 0 0 8\n");
    Path mine = Files.createDirectories(tmp.resolve("mine"));
    Path made = tmp.resolve("made");
    // a link's '..' leads where the link points, not where the path's text says: link/../made is deep/made
    Path deep = Files.createDirectories(tmp.resolve("deep/inner"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), deep);
    String[][] commands = {
        {"replay", deadlock.toString(), "-q", "--out"},
        {"run", "replay", "-p", "trace=" + deadlock, "-q", "--out"},
        {"sweep", "--job", "replay", "--param", "trace=" + deadlock, "-q", "--out"}};
    for (String[] c : commands) {
      String[] intoMine = java.util.Arrays.copyOf(c, c.length + 1);
      intoMine[c.length] = mine.toString();
      assertThat(aries(intoMine)).isEqualTo(2);
      assertThat(mine).as("the user's own empty directory, " + c[0]).isDirectory().isEmptyDirectory();
      String[] nested = java.util.Arrays.copyOf(c, c.length + 1);
      nested[c.length] = made.resolve("a").resolve("b").toString();
      assertThat(aries(nested)).isEqualTo(2);
      assertThat(made).as("the parents the run made for --out, " + c[0]).doesNotExist();
      // a directory made only to pass through (b of a/b/../c) is the run's too: it was left behind, and so a
      String[] dotted = java.util.Arrays.copyOf(c, c.length + 1);
      dotted[c.length] = made + "/a/b/../c";
      assertThat(aries(dotted)).isEqualTo(2);
      assertThat(made).as("every directory the run made for " + dotted[c.length] + ", " + c[0]).doesNotExist();
      String[] throughMine = java.util.Arrays.copyOf(c, c.length + 1);
      throughMine[c.length] = mine + "/x/../y";
      assertThat(aries(throughMine)).isEqualTo(2);
      assertThat(mine).as("the user's own directory, passed through, " + c[0]).isDirectory().isEmptyDirectory();
      String[] throughLink = java.util.Arrays.copyOf(c, c.length + 1);
      throughLink[c.length] = link + "/../made/x";
      assertThat(aries(throughLink)).isEqualTo(2);
      assertThat(tmp.resolve("deep/made")).as("made through a link, " + c[0]).doesNotExist();
      assertThat(deep).as("the link's own target, " + c[0]).isDirectory().isEmptyDirectory();
    }
  }

  @Test
  void theDirectoriesMadeAreEveryOneCreatedAndOnlyThoseAndGoOnlyWhileEmpty() throws IOException {
    Path there = Files.createDirectories(tmp.resolve("there"));
    OutputPaths.Made made = OutputPaths.directory(tmp.resolve("there/a/b/../c/d"), "--out");
    assertThat(made.dirs()).containsExactly(there.resolve("a").toRealPath(), there.resolve("a/b").toRealPath(),
        there.resolve("a/c").toRealPath(), there.resolve("a/c/d").toRealPath());
    Files.writeString(there.resolve("a/c/d/point-0.json"), "{}"); // a finished point: kept, with its parents
    made.remove();
    assertThat(there.resolve("a/c/d/point-0.json")).exists();
    assertThat(there.resolve("a/b")).as("made to pass through, empty").doesNotExist();
    OutputPaths.Made again = OutputPaths.directory(tmp.resolve("there/a/c/d"), "--out");
    assertThat(again.dirs()).as("all there before").isEmpty();
    again.remove();
    assertThat(there.resolve("a/c/d")).isDirectory();
    OutputPaths.Made file = OutputPaths.file(tmp.resolve("there/e/../f/out.json"), "--out");
    assertThat(file.dirs()).hasSize(2);
    file.remove();
    assertThat(there).isDirectory();
    assertThat(there.resolve("e")).doesNotExist();
    assertThat(there.resolve("f")).doesNotExist();
  }
  @Test
  void aPointsUnreadableTraceFoundBeforeTheSweepRunsNamesThePoint() throws IOException {
    Path garbage = Files.writeString(tmp.resolve("garbage.txt"), "garbage\n");
    Path good = Files.writeString(tmp.resolve("good.txt"), "0 init\n1 init\n0 finalize\n1 finalize\n");
    assertThat(aries("sweep", "--job", "replay", "-p", "trace=" + good + "," + garbage, "-q", "--out",
        tmp.resolve("sg").toString())).isEqualTo(2);
    // (the SimGrid reader names the rank file it looked for, the trace's name without its extension)
    assertThat(onlyLine()).startsWith("aries sweep: point 1 {trace=" + garbage + "}: " + tmp.resolve("garbage"))
        .endsWith("(trace)").doesNotContain("Exception");
    assertThat(tmp.resolve("sg")).doesNotExist();
  }

  @Test
  void aSimulatedProcesssRefusalIsOneLineNamingTheParameterNotTheRunnersException() {
    // a detour 1 ps short of its period stretches a rank's work past the clock's end: the line began "aries run:
    // ProcessFailedException: simulated process rank0 failed at ... ps:", exit status 1 (stop 69); every workload whose
    // ranks run as simulated processes reports it alike
    String[][] workloads = {
        {"mpi-latency", "-p", "sizes=8", "-p", "distances=on-node"},
        {"mpi-bandwidth", "-p", "sizes=8"},
        {"mpi-collectives", "-p", "nodes=2", "-p", "engine=off"},
        {"mpi-rma", "-p", "sizes=8"}};
    for (String[] w : workloads) {
      err.getBuffer().setLength(0);
      List<String> args = new ArrayList<>(List.of("run"));
      args.addAll(List.of(w));
      args.addAll(List.of("-p", "osNoise=period=1000ms,detour=999999999999ps", "-q", "--out",
          tmp.resolve(w[0]).toString()));
      assertThat(aries(args.toArray(String[]::new))).as(w[0] + ": " + err).isEqualTo(2);
      assertThat(onlyLine()).as(w[0])
          .matches("aries run: rank\\d+ at simulated time \\d+ ps: noise detour must be in \\[0, \\d+\\] ps for"
              + " work of \\d+ ps from \\d+ ps to end within the simulated clock \\(Long.MAX_VALUE ps\\) with a period"
              + " of 1000000000000 ps, but was 999999999999 ps \\(arguments\\)")
          .doesNotContain("Exception").doesNotContain("failed at");
    }
  }
}
