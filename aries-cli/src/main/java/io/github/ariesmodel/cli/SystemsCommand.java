package io.github.ariesmodel.cli;

import io.github.ariesmodel.cli.report.AtomicFiles;
import io.github.ariesmodel.network.CabledDragonfly;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.system.SystemPreset;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code aries systems}: lists the built-in systems, or describes one (a preset or any {@code --system} spec). */
@Command(name = "systems", mixinStandardHelpOptions = true, description = "List the built-in systems.")
final class SystemsCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--describe", paramLabel = "SYSTEM",
      description = "Describe one system in detail: a preset, a topology spec or links:FILE, as --system takes,"
          + " failed links included (edison-cabled+failed=random:24:blue).")
  String describe;

  @Option(names = "--failed-links",
      description = "With --describe, also print the failed links, one link-list line each, after the description as"
          + " # lines: the output saved to a file fails the same links again (SYSTEM+failed=file:FILE).")
  boolean failedLinks;

  @Option(names = "--link-list", paramLabel = "FILE",
      description = "With --describe of a cabled system (edison-cabled, links:FILE, cabled:SYSTEM, failed links"
          + " included), write it as a link list to FILE, which links:FILE reads back.")
  java.nio.file.Path linkList;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (describe != null) {
      // everything that can be refused (the system, a --link-list of a generated one, a file that cannot be
      // written) is, before a line is printed: the description came first, then the refusal
      String name = describe.trim();
      SystemPreset preset = preset(name);
      Topology t;
      try {
        t = preset != null ? preset.topology() : topology(name);
      } catch (IllegalArgumentException e) {
        // a bad spec, or a link list's file and line: located at "(arguments)" until stop 73
        throw CliError.badInput(e.getMessage(), "--describe", e);
      }
      int written = linkList == null ? -1 : writeLinkList(t);
      java.io.StringWriter text = new java.io.StringWriter();
      PrintWriter description = new PrintWriter(text);
      describe(description, name, preset, t);
      if (linkList != null) {
        description.printf(Locale.ROOT, "  link list         %s (%,d lines)%n", linkList, written);
      }
      description.flush();
      // With --failed-links the whole output is a failure list (SYSTEM+failed=file:FILE reads it back): the
      // description becomes comment lines, which that list skips, and the failed links follow
      text.toString().lines().forEach(line -> out.println(failedLinks ? "# " + line : line));
      if (failedLinks && t instanceof CabledDragonfly c) {
        c.failedLinks().forEach(out::println);
      }
      return 0;
    }
    if (failedLinks || linkList != null) {
      throw CliError.badInput((failedLinks ? "--failed-links" : "--link-list") + " needs --describe SYSTEM",
          failedLinks ? "--failed-links" : "--link-list", null);
    }
    out.printf(Locale.ROOT, "%-14s %7s %8s %8s  %s%n", "SYSTEM", "GROUPS", "ROUTERS", "NODES", "DESCRIPTION");
    for (SystemPreset p : SystemPreset.values()) {
      // thousands with "," as the descriptions and --describe write them (the table wrote 92544 beside "92,544 nodes")
      out.printf(Locale.ROOT, "%-14s %,7d %,8d %,8d  %s%n", p.id(), p.groups(), p.routers(), p.nodes(),
          p.description());
    }
    out.println("Any topology spec (aries:groups=G,..., canonical:p=..,a=..,h=..) or links:FILE (a machine's link"
        + " list) is a system too; a cabled one may have failed links (edison-cabled+failed=random:24:blue).");
    return 0;
  }

  /**
   * Writes the link list as every output file is written ({@link AtomicFiles}: a new file beside it, moved over it), so
   * that a failure midway leaves no half-written list and an existing file whole until the new one is complete; it was
   * written in place, truncated first. A missing directory is refused (none is made), and so is a target that is not
   * a regular file: the move would replace a device or a socket ({@code /dev/null} as root) with the list.
   *
   * @return its line count
   */
  private int writeLinkList(Topology t) {
    if (!(t instanceof CabledDragonfly c)) {
      throw CliError.badInput("--link-list needs a cabled system (edison-cabled, links:FILE or cabled:"
          + describe.trim() + ") but " + describe.trim() + " is generated", "--link-list", null);
    }
    Path dir = linkList.toAbsolutePath().getParent();
    String why = linkList.toString().isEmpty() ? "it is empty"
        : Files.isDirectory(linkList) ? "it is a directory"
        : dir == null || !Files.isDirectory(dir) ? "no such directory"
        : Files.exists(linkList) && !Files.isRegularFile(linkList)
            ? "it is not a regular file (a device, pipe or socket), which the link list would replace"
        : null;
    if (why == null) {
      // not the file the spec read its links or failures from: links:L.txt+failed=... --link-list L.txt rewrote the
      // input list without the failed links (until stop 75)
      for (Path in : OutputPaths.cablingFiles(describe)) {
        if (OutputPaths.same(linkList, in)) {
          throw CliError.badInput("--link-list " + linkList + " is the file --describe "
              + io.github.ariesmodel.core.Texts.abbreviate(describe.trim())
              + " reads; write the list elsewhere", "--link-list", null);
        }
      }
    }
    List<String> lines = c.linkList();
    IOException failure = null;
    if (why == null) {
      try {
        AtomicFiles.writeText(linkList, w -> {
          for (String line : lines) {
            w.write(line);
            w.write(System.lineSeparator()); // (as Files.write wrote them)
          }
        });
        return lines.size();
      } catch (IOException e) {
        failure = e;
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        why = cause instanceof java.nio.file.AccessDeniedException ? "permission denied"
            : cause instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
            : cause.getMessage() == null ? "input/output error" : cause.getMessage();
      }
    }
    throw linkListError(linkList, why, failure);
  }

  /**
   * The error for a link list that could not be written. A path refused before writing, or one in which no file can
   * be made ({@link AtomicFiles#write} throws the system's own exception, unwrapped, when its staging file cannot be
   * created), is bad input (exit 2), as an unusable {@code --out} is; a failure while writing or renaming (a full
   * disk, an I/O error; {@code AtomicFiles} wraps those) is a failed run (exit 1), as for every other output.
   *
   * @param file the --link-list path
   * @param why the reason, for the message
   * @param failure the I/O failure, or null when the path was refused before writing
   * @return the error to throw
   */
  static CliError linkListError(Path file, String why, IOException failure) {
    String line = "--link-list " + file + " cannot be written: " + why;
    return failure == null || failure.getCause() == null ? CliError.badInput(line, "--link-list", failure)
        : CliError.failedRun(line, "--link-list", failure);
  }

  /** The preset of this name (any case), or null. */
  private static SystemPreset preset(String name) {
    for (SystemPreset p : SystemPreset.values()) {
      if (p.id().equals(name.toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    return null;
  }

  /** The topology of a spec that names no preset. */
  private static Topology topology(String name) {
    try {
      return Topologies.parseTopology(SystemPreset.topologySpec(name));
    } catch (IllegalArgumentException e) {
      if (Topologies.namesCabling(name)) {
        throw e; // the link list's or the failure's message names the file, line or link and the problem
      }
      StringBuilder names = new StringBuilder();
      for (SystemPreset p : SystemPreset.values()) {
        names.append(names.length() == 0 ? "" : ", ").append(p.id());
      }
      throw new IllegalArgumentException("system must be a preset (" + names + "), a topology spec or links:FILE: "
          + e.getMessage(), e);
    }
  }

  private static void describe(PrintWriter out, String name, SystemPreset preset, Topology t) {
    if (preset != null) {
      out.printf(Locale.ROOT, "system %s: %s%n", preset.id(), preset.description());
    } else {
      // as a run records it (ARIES:groups=2 was described under the name typed, and recorded so by run until stop 78)
      out.printf(Locale.ROOT, "system %s%n", io.github.ariesmodel.cli.system.SystemSpec.canonicalSystem(name));
    }
    out.printf(Locale.ROOT, "  topology          %s%n", t.describe());
    out.printf(Locale.ROOT, "  groups            %,d%n", t.groupCount());
    out.printf(Locale.ROOT, "  routers           %,d  (%d per group)%n", t.routerCount(), t.routersPerGroup());
    out.printf(Locale.ROOT, "  nodes             %,d  (%d per router)%n", t.nodeCount(), t.nodesPerRouter());
    long[] ports = new long[t.linkClassCount()];
    long[] cabled = new long[t.linkClassCount()];
    for (int r = 0; r < t.routerCount(); r++) {
      for (int p = 0; p < t.portCount(); p++) {
        int c = t.linkClass(r, p);
        ports[c]++;
        if (t.neighborRouter(r, p) >= 0) {
          cabled[c]++;
        }
      }
    }
    for (int c = 0; c < t.linkClassCount(); c++) {
      if (ports[c] == 0) {
        continue;
      }
      out.printf(Locale.ROOT, "  %-17s %,d  (%,d ports, %,d not cabled; %.2f GB/s per direction, wire %d ps)%n",
          t.linkClassName(c) + " links", cabled[c] / 2, ports[c], ports[c] - cabled[c], t.linkBandwidth(c) / 1e9,
          t.linkLatencyPs(c));
    }
    out.printf(Locale.ROOT, "  injection         %.2f GB/s per node (wire bytes)%n", t.injectionBandwidth() / 1e9);
    if (t instanceof CabledDragonfly c && c.failedLinkCount() > 0) {
      out.printf(Locale.ROOT, "  failed links      %,d  (not cabled above; --failed-links lists them)%n",
          c.failedLinkCount());
    }
  }
}
