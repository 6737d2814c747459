package io.github.ariesmodel.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.github.ariesmodel.cli.report.AtomicFiles;
import io.github.ariesmodel.cli.report.ReportWriter;
import io.github.ariesmodel.core.Texts;

/**
 * Checks of output paths made before a simulation starts, so that a run is not thrown away because its results
 * cannot be written: an output directory is created (or must be a writable directory), an output file must not be a
 * directory and its directory must be writable.
 */
final class OutputPaths {

  private OutputPaths() {}

  /**
   * The directories a command made for its outputs, in the order it made them: only those it created itself, every
   * one of them (a parent, and a directory made only to pass through it, {@code b} of {@code --out a/b/../c}), and
   * never one that was there before. {@link #remove} takes them away again when the command fails.
   *
   * <p>A command stopped by a signal (Ctrl-C's SIGINT, SIGTERM) runs no {@code finally}: its directories are removed
   * by the JVM's shutdown hook instead, each while empty, after the staging files {@link AtomicFiles} had open are
   * deleted. Until stop 78 {@code timeout -s INT 5 ./aries run mixed --out a/b} left {@code a/b} behind, empty. A
   * command's directories are in the hook's care from when it makes them until it removes them or the command line
   * is done with it ({@link #settled}); once the hook has begun, no directory is made any more.
   */
  static final class Made {
    /** Guards {@link #RUNNING}, {@link #stopping} and every instance's list, for the shutdown hook's sake. */
    private static final Object LOCK = new Object();
    /** Instances holding directories whose command has not finished. */
    private static final java.util.Set<Made> RUNNING = new java.util.LinkedHashSet<>();
    /** Whether the shutdown hook has begun. */
    private static boolean stopping;

    static {
      try {
        Runtime.getRuntime().addShutdownHook(new Thread(Made::stopped, "aries-output-cleanup"));
      } catch (IllegalStateException e) {
        // the JVM is already shutting down: createDirectories makes nothing then (stopping is read there)
        stopping = true;
      }
    }

    private final List<Path> dirs = new ArrayList<>();
    /** The thread of the command that made them; the command line settles its own thread's ({@link #settled}). */
    private final Thread owner = Thread.currentThread();

    /** @return no directory made, yet */
    static Made none() {
      return new Made();
    }

    /** @param other directories made since, added to these (this changes, other does not) @return this */
    Made add(Made other) {
      synchronized (LOCK) {
        dirs.addAll(other.dirs);
        RUNNING.remove(other); // (in the hook's care as part of this one)
        if (!dirs.isEmpty()) {
          RUNNING.add(this);
        }
      }
      return this;
    }

    /** @return the directories made, in the order they were made */
    List<Path> dirs() {
      synchronized (LOCK) {
        return List.copyOf(dirs);
      }
    }

    /**
     * After a command failed: removes the directories it made, the last made first, each only while it is empty, so
     * that a refused run leaves no directory behind. One that holds anything (a sweep's finished points, another
     * shard's) is left as it is, and so are its parents; a failure to remove changes nothing else (the command's
     * error is what the user needs to hear of).
     */
    void remove() {
      synchronized (LOCK) {
        for (int k = dirs.size() - 1; k >= 0; k--) {
          try {
            Files.delete(dirs.get(k)); // (rmdir: refused while it holds anything)
          } catch (IOException e) {
            // left: it holds something, or it went; the next may be a sibling made to pass through, so go on
          }
        }
        dirs.clear();
        RUNNING.remove(this);
      }
    }

    /**
     * The command line is done with the commands run on this thread: what they made and kept (a finished run's
     * {@code --out}) is theirs to keep, and the shutdown hook leaves it alone.
     */
    static void settled() {
      Thread self = Thread.currentThread();
      synchronized (LOCK) {
        RUNNING.removeIf(m -> m.owner == self);
      }
    }

    /**
     * The shutdown hook: no directory is made from now on; the staging files of writes under way are deleted (the
     * targets stay as they were, whole), then the directories of every unfinished command, each while empty.
     */
    static void stopped() {
      List<Made> left;
      synchronized (LOCK) {
        stopping = true;
        left = new ArrayList<>(RUNNING);
      }
      AtomicFiles.abandonStaging();
      left.forEach(Made::remove);
    }

    /**
     * Creates a directory and its missing parents as {@link Files#createDirectories} does, component by component of
     * the path as written (so {@code a/b/../c} makes {@code a}, {@code b} and {@code c}), recording each one this
     * call created, also when a later one fails.
     */
    void createDirectories(Path dir) throws IOException {
      Path abs = dir.toAbsolutePath();
      synchronized (LOCK) {
        if (stopping) {
          throw new IOException("the command was interrupted");
        }
        Path p = abs.getRoot();
        for (Path name : abs) {
          p = p == null ? name : p.resolve(name);
          if (Files.isDirectory(p)) {
            continue;
          }
          try {
            Files.createDirectory(p);
          } catch (java.nio.file.FileAlreadyExistsException e) {
            if (Files.isDirectory(p)) {
              continue; // made by someone else meanwhile: not ours to remove
            }
            // a file on the way (--out /etc/passwd/x): it was told as "already exists"
            throw new java.nio.file.FileSystemException(p.toString(), null, p + " is a file, not a directory");
          }
          Path real;
          try {
            real = p.toRealPath(); // as made, whatever a '..' or a link before it leads to
          } catch (IOException e) {
            real = p;
          }
          dirs.add(real);
          RUNNING.add(this);
        }
      }
    }
  }

  /**
   * Makes sure a directory exists and is writable.
   *
   * @param dir the directory
   * @param option the option that named it, for the message
   * @return the directories this call made ({@code dir}, its parents, and those passed through on the way), for
   *     {@link Made#remove} if the command fails before writing there; none when {@code dir} existed
   * @throws CliError (bad input) naming the option and the path when the directory cannot be used; the directories
   *     made for it are removed again
   */
  static Made directory(Path dir, String option) {
    refuseEmpty(dir, option);
    Made made = Made.none();
    try {
      usableDirectory(dir, dir, option, made);
    } catch (RuntimeException e) {
      made.remove(); // (made, then found to take no files)
      throw e;
    }
    return made;
  }

  /** Makes sure a directory exists and takes new files; messages name {@code given}, the path the user wrote. */
  private static void usableDirectory(Path dir, Path given, String option, Made made) {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw CliError.badInput("not a directory: " + dir, option, null);
    }
    try {
      made.createDirectories(dir);
    } catch (IOException e) {
      throw CliError.badInput("cannot create the directory " + dir + ": " + ErrorHandler.reason(e), option, e);
    }
    if (!Files.isWritable(dir)) {
      throw CliError.badInput("directory not writable: " + dir, option, null);
    }
    probe(dir, given, option);
  }

  /**
   * An empty path is the current directory to {@link Path#of}: {@code --out ''} (an unset shell variable, most
   * likely) would write there without a word.
   */
  private static void refuseEmpty(Path path, String option) {
    if (path.toString().isEmpty()) {
      throw CliError.badInput(option + " must name a path but was empty", option, null);
    }
  }

  /**
   * Creates and removes a file in {@code dir} the way {@link AtomicFiles} stages its writes, since write permission
   * alone does not tell (root may write everywhere, yet {@code /proc} takes no new files). A failure names what the
   * user gave, not the hidden staging file.
   */
  private static void probe(Path dir, Path given, String option) {
    try {
      AtomicFiles.probe(dir); // (a staging file of its own: a signal meanwhile leaves none in a directory to remove)
    } catch (IOException e) {
      throw CliError.badInput((given.equals(dir) ? "" : "cannot write " + given + ": its directory ") + dir
          + " takes no new files (creating one failed: " + ErrorHandler.reason(e) + ")", option, e);
    }
  }

  /**
   * Makes sure a file can be written: not a directory, in a directory that exists (created if needed) and is
   * writable.
   *
   * @param file the file
   * @param option the option that named it, for the message
   * @return the directories made for it, as {@link #directory} returns them
   * @throws CliError (bad input) naming the option and the path when the file cannot be written; the directories
   *     made for it are removed again
   */
  static Made file(Path file, String option) {
    fileItself(file, option);
    Path parent = file.toAbsolutePath().getParent();
    Made made = Made.none();
    if (parent != null) {
      try {
        usableDirectory(parent, file, option, made);
      } catch (RuntimeException e) {
        made.remove();
        throw e;
      }
    }
    return made;
  }

  /**
   * The checks of {@link #file} on the path itself, which make no directory: a command that must read its inputs
   * before it makes its output directories (merge) runs these first, so that the user hears of the output path's
   * own fault before anything else.
   */
  static void fileItself(Path file, String option) {
    refuseEmpty(file, option);
    if (Files.isDirectory(file)) {
      throw CliError.badInput("is a directory, not a file: " + file, option, null);
    }
    // A device, pipe or socket would be replaced by the report's file (it is written beside it and renamed over
    // it): as root, --out /dev/null made /dev/null a regular file.
    if (Files.exists(file) && !Files.isRegularFile(file)) {
      throw CliError.badInput("is not a regular file (a device, pipe or socket), which the output would replace: "
          + file, option, null);
    }
    if (Files.exists(file) && !Files.isWritable(file)) {
      throw CliError.badInput("file not writable: " + file, option, null);
    }
  }

  /**
   * Refuses an output file that is one of the command's own inputs: the same path once made absolute, or (both
   * existing) the same file through a link or another spelling. {@code run --config c.yaml --trace c.yaml} replaced
   * the configuration with the trace, and {@code --trace} naming the replayed trace destroyed it (until stop 75).
   *
   * @param output the output file
   * @param option the option that named it
   * @param inputs each input file by where the user gave it ({@code --config}, {@code -p trace=...})
   * @throws CliError (bad input) naming the output and the input it would replace
   */
  static void refuseInputs(Path output, String option, java.util.Map<String, Path> inputs) {
    for (java.util.Map.Entry<String, Path> in : inputs.entrySet()) {
      if (same(output, in.getValue())) {
        throw CliError.badInput(option + " " + output + " is the input of " + in.getKey() + "; write the output"
            + " elsewhere", option, null);
      }
    }
  }

  /** Whether two paths name one file (see {@link #refuseInputs}); an unreadable one is compared by its path alone. */
  static boolean same(Path a, Path b) {
    if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
      return true;
    }
    try {
      return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The files a system spec reads: a link list ({@code links:FILE}) and failure lists ({@code +failed=file:FILE}), as
   * {@code Topologies.parseTopology} reads them; an output must not replace them.
   *
   * @param spec a system spec as {@code --system} or {@code --describe} takes it
   * @return the files, in the order named (none for a preset or a generated topology)
   */
  static List<Path> cablingFiles(String spec) {
    List<Path> files = new ArrayList<>();
    if (spec == null) {
      return files;
    }
    String[] parts = spec.trim().split("(?i)" + java.util.regex.Pattern.quote(
        io.github.ariesmodel.network.Topologies.FAILED), -1);
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i].strip();
      String prefix = i == 0 ? "links:" : "file:";
      if (part.regionMatches(true, 0, prefix, 0, prefix.length())) {
        String file = part.substring(prefix.length()).strip();
        try {
          if (!file.isEmpty()) {
            files.add(Path.of(file));
          }
        } catch (java.nio.file.InvalidPathException e) {
          // (refused when the spec is read)
        }
      }
    }
    return files;
  }

  /**
   * The start of every packet trace {@code --trace} writes ({@code PacketTrace.write}), by which a later run knows a
   * file there as a trace it may replace.
   */
  static final String TRACE_HEAD = "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"recorded\":";

  /**
   * Refuses, unless {@code force}, to replace an existing file that is not a packet trace an earlier run wrote:
   * {@code --trace o1/results.json} replaced another run's results without a word (until stop 75).
   *
   * @param trace the trace file to write
   * @param option the option that named it
   * @param force whether the user allowed replacing it
   * @throws CliError (bad input) naming the file
   */
  static void refuseReplacingAnotherFileThanATrace(Path trace, String option, boolean force) {
    if (force || !Files.isRegularFile(trace)) {
      return;
    }
    byte[] head;
    try (java.io.InputStream in = Files.newInputStream(trace)) {
      head = in.readNBytes(TRACE_HEAD.length());
    } catch (IOException e) {
      head = new byte[0];
    }
    if (!new String(head, java.nio.charset.StandardCharsets.UTF_8).equals(TRACE_HEAD)) {
      throw CliError.badInput(option + " " + trace + " exists and is not a packet trace an earlier run wrote; choose"
          + " another file or add --force to replace it", option, null);
    }
  }

  /**
   * Checks a run's output directory: usable as by {@link #directory}, and holding no other run's files. A directory
   * is free when it is empty, holds only files no report writes, or holds a finished run of the same command (a
   * repeat replaces it; every replay is one command, see {@link #sameCommand}). Anything else (another command's
   * {@code results.json}, an unreadable one, or report files without a {@code results.json}, the trace of a failed
   * run) is refused unless {@code force}. {@code run} and {@code replay} both check their {@code --out} here.
   *
   * @param dir the directory
   * @param option the option that named it
   * @param command the command about to write there, as recorded in {@code results.json} ("run pingpong",
   *     "replay TRACE")
   * @param force whether the user allowed replacing another run's files
   * @return the directories this call made, as {@link #directory} returns them
   * @throws CliError (bad input) when the directory holds another run's files and force is false
   */
  static Made runDirectory(Path dir, String option, String command, boolean force) {
    Made made = directory(dir, option);
    Path results = dir.resolve(ReportWriter.RESULTS);
    if (Files.exists(results) && !Files.isRegularFile(results)) {
      // not even --force replaces it: the report could not be written there, and only after the whole run
      throw CliError.badInput(results + " is not a regular file (a directory, device, pipe or socket); remove it or"
          + " choose another directory", option, null);
    }
    try (Stream<Path> s = Files.list(dir)) {
      // nor any other name the report writes: metrics.csv as a directory was met only after the whole run, when its
      // move failed (until stop 75)
      Path odd = s.filter(f -> ReportWriter.owns(f.getFileName().toString()) && !Files.isRegularFile(f))
          .sorted().findFirst().orElse(null);
      if (odd != null) {
        throw CliError.badInput(odd + " is not a regular file (a directory, device, pipe or socket), and the report"
            + " writes a file of that name; remove it or choose another directory", option, null);
      }
    } catch (IOException e) {
      throw CliError.badInput("cannot list the directory " + dir + ": " + ErrorHandler.reason(e), option, e);
    }
    if (force) {
      return made;
    }
    if (Files.isRegularFile(results)) {
      String previous = recordedCommand(results);
      if (sameCommand(command, previous)) {
        return made;
      }
      throw CliError.badInput(dir + " holds the results of another run (" + (previous == null ? "unreadable"
          : "\"" + Texts.abbreviate(previous) + "\"") + "); choose another directory or add --force to replace them",
          option, null);
    }
    try (Stream<Path> s = Files.list(dir)) {
      if (s.anyMatch(f -> ReportWriter.owns(f.getFileName().toString()))) {
        throw CliError.badInput(dir + " holds report files but no results.json (a failed or foreign run); choose"
            + " another directory or add --force to replace them", option, null);
      }
    } catch (IOException e) {
      throw CliError.badInput("cannot list the directory " + dir + ": " + ErrorHandler.reason(e), option, e);
    }
    return made;
  }

  /**
   * The command a results file records ({@code run.command}, as {@code results.json}, a sweep's point files and a
   * merged file do), read as a stream up to that field, so that a large file named by mistake is not loaded whole.
   *
   * @param file the file
   * @return the command, or null when the file is unreadable, not JSON, or records none
   */
  static String recordedCommand(Path file) {
    try (JsonParser p = new JsonFactory().createParser(file.toFile())) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        if (p.nextToken() == JsonToken.START_OBJECT && name.equals("run")) {
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("command")) {
              return value == JsonToken.VALUE_STRING ? p.getText() : null;
            }
            p.skipChildren();
          }
          return null;
        }
        p.skipChildren();
      }
      return null;
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Whether a directory's recorded command is the one about to write there, so that it may be replaced without
   * {@code --force}: the same text ({@code run pingpong} again, whatever its parameters), or two replays. A replay
   * records its trace ({@code replay TRACE}), which is to it what a parameter is to {@code run}, and
   * {@code run replay} is the same workload; all write to {@code results/replay} unless told otherwise, where a
   * replay of another trace would otherwise need {@code --force}.
   *
   * @param command the command about to write
   * @param previous the command recorded in the directory's {@code results.json}, or null when unreadable
   * @return whether the two are the same command
   */
  static boolean sameCommand(String command, String previous) {
    return command.equals(previous) || previous != null && isReplay(command) && isReplay(previous);
  }

  private static boolean isReplay(String command) {
    return command.startsWith("replay ") || command.equals("run replay");
  }
}
