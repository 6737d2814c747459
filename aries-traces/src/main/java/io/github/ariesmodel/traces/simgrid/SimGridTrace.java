package io.github.ariesmodel.traces.simgrid;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import io.github.ariesmodel.traces.FileNames;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceFormat;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A SimGrid time-independent trace (the text traces SMPI records with {@code -trace-ti} and replays with
 * {@code smpi_replay}): one action a line, {@code rank action arguments}, see {@link SimGridAction} for the actions.
 *
 * <p>Two layouts, as SimGrid's replay accepts them ({@code replay_runner} in {@code src/xbt/xbt_replay.cpp}):
 * <ul>
 *   <li>one shared file holding every rank's lines; the ranks are 0 to the largest rank named, and each must have at
 *       least one line;
 *   <li>one file per rank, listed in rank order in an index file (one path a line; a relative one is taken from the
 *       working directory when the file is there, as SMPI writes and replays them, else from the index file's
 *       folder, as in SimGrid's {@code split_traces} example), or given as a list.
 * </ul>
 * An index is read as SMPI reads the file {@code smpirun -replay} names ({@code smpi_read_replay} in
 * {@code src/smpi/internals/smpi_deployment.cpp}): lines end at {@code \n}, an empty line is skipped, and every other
 * line is a file name whole, spaces included; an index of one entry names a shared file of every rank's lines (SMPI
 * gives it to all ranks as one trace). An entry that names no file and begins or ends with white space or a carriage
 * return (a Windows line end), which SMPI would look for as part of the name, is refused saying so.
 * Opening a shared file reads it once to find its ranks and where each rank's lines are ({@link SharedTraceIndex}: a
 * few bytes a run of one rank's lines); each rank's stream then reads only its own lines, so replaying N ranks reads
 * the file about twice, not N times. A rank's own file is read straight through. Sizes are in elements of a datatype;
 * see {@link SimGridDatatypes} for the ids and the default element size. Lines carry no times: every call's timing is
 * {@link io.github.ariesmodel.traces.CallTiming#NONE}, and local work is the {@code compute} (flops) and
 * {@code sleep} (seconds) actions.
 */
public final class SimGridTrace implements Trace {
  /** Largest rank count accepted (keeps a garbage rank number from sizing anything). */
  public static final int MAX_RANKS = 1 << 22;
  /** Bytes read at a time while deciding whether a file is an index (it usually stops at the first line). */
  private static final int INDEX_SCAN_BYTES = 8192;

  private final Path source;
  private final SharedTraceIndex index;
  private final ImmutableList<Path> files;
  private final int ranks;

  private SimGridTrace(Path source, SharedTraceIndex index, ImmutableList<Path> files, int ranks) {
    this.source = source;
    this.index = index;
    this.files = files;
    this.ranks = ranks;
  }

  /**
   * Opens a shared trace file, or an index file listing one trace file per rank.
   *
   * @param file the trace or index file
   * @return the trace
   * @throws TraceFormatException if the file is missing or empty, a rank has no lines, or a listed file is missing
   * @throws IOException if a file cannot be read
   */
  public static SimGridTrace open(Path file) throws IOException {
    if (file == null) {
      throw new IllegalArgumentException("file must not be null");
    }
    if (Files.isDirectory(file)) {
      throw TraceFormatException.ofFile(file, TraceFormatException.NO_RANK, "a directory, not a SimGrid trace file"
          + " (a DUMPI trace is a directory: DumpiTrace.open)", null);
    }
    if (!Files.isRegularFile(file)) {
      throw TraceFormatException.notARegularFile(file, TraceFormatException.NO_RANK, "SimGrid trace file");
    }
    List<String> index = isIndex(file) ? indexEntries(file) : null;
    if (index != null) {
      Path dir = file.toAbsolutePath().getParent();
      Path workingDir = Path.of("").toAbsolutePath();
      List<Path> listed = new ArrayList<>();
      for (int k = 0; k < index.size(); k++) {
        Path entry;
        try {
          entry = Path.of(index.get(k));
        } catch (java.nio.file.InvalidPathException e) {
          throw TraceFormatException.ofFile(file, TraceFormatException.NO_RANK, "entry " + (k + 1) + " of the index, "
              + TraceFormatException.echo(index.get(k)) + ", is not a file name this system takes", e);
        }
        listed.add(rankFile(file, k, index.size(), entry, workingDir, dir));
      }
      if (listed.size() == 1) {
        // SMPI gives a one-line list to rank 0 as the shared trace of every rank (smpi_deployment_smpirun sets it as
        // the "tracefile" property; SMPI's ti-one-file tracing writes such an index), not as rank 0's own file
        SharedTraceIndex runs = SharedTraceIndex.build(listed.get(0), MAX_RANKS);
        return new SimGridTrace(file, runs, ImmutableList.of(listed.get(0)), runs.ranks());
      }
      return ofRankFiles(file, listed);
    }
    SharedTraceIndex runs = SharedTraceIndex.build(file, MAX_RANKS);
    return new SimGridTrace(file, runs, ImmutableList.of(file), runs.ranks());
  }

  /**
   * Where an index entry is: an absolute one where it says; a relative one from the working directory when the file is
   * there, else from the index's folder. SMPI writes the entries relative to the working directory of the traced run
   * ({@code tracing/filename} plus {@code _files/}, in {@code src/instr/instr_config.cpp} of simgrid/simgrid) and its
   * replay opens them as written ({@code src/xbt/xbt_replay.cpp}); SimGrid's own examples list names beside the index
   * ({@code split_traces}).
   */
  private static Path rankFile(Path index, int k, int entries, Path entry, Path workingDir, Path indexDir)
      throws TraceFormatException {
    int rank = entries == 1 ? TraceFormatException.NO_RANK : k; // (one entry is every rank's shared file)
    String which = (entries == 1 ? "the index's one entry, " : "entry " + (k + 1) + " of the index, ")
        + TraceFormatException.echo(entry.toString());
    String what = (entries == 1 ? "trace file missing: " : "rank file missing: ") + which;
    if (entry.isAbsolute()) {
      if (Files.isRegularFile(entry)) {
        return entry;
      }
      if (Files.isDirectory(entry)) {
        throw aDirectory(index, rank, entries, which, entry, "");
      }
      throw TraceFormatException.ofFile(index, rank, what + ", is no file" + whyMissing(entry.toString()), null);
    }
    Path fromWorkingDir = workingDir.resolve(entry);
    if (Files.isRegularFile(fromWorkingDir)) {
      return fromWorkingDir;
    }
    Path fromIndexDir = indexDir.resolve(entry);
    if (Files.isRegularFile(fromIndexDir)) {
      return fromIndexDir;
    }
    // a directory where a file was looked for: "is neither <it> nor ..." read as if nothing were there (until stop 71)
    if (Files.isDirectory(fromWorkingDir)) {
      throw aDirectory(index, rank, entries, which, fromWorkingDir, " (from the working directory)");
    }
    if (Files.isDirectory(fromIndexDir)) {
      throw aDirectory(index, rank, entries, which, fromIndexDir, " (from the index's folder)");
    }
    throw TraceFormatException.ofFile(index, rank, what + ", is neither "
        + TraceFormatException.escaped(fromWorkingDir.toString()) + " (from the working directory) nor "
        + TraceFormatException.escaped(fromIndexDir.toString()) + " (from the index's folder)"
        + whyMissing(entry.toString()), null);
  }

  /** An index entry that names a directory, not a trace file: a refusal that says so, with the directory's path. */
  private static TraceFormatException aDirectory(Path index, int rank, int entries, String which, Path directory,
      String from) {
    return TraceFormatException.ofFile(index, rank, (entries == 1 ? "trace file" : "rank file") + " is a directory: "
        + which + ", is the directory " + TraceFormatException.escaped(directory.toString()) + from + ", not a trace"
        + " file (an index lists one trace file a line)", null);
  }

  /**
   * Why an entry that names no file may name none: a carriage return, or white space at an end, that SMPI's replay
   * would look for as part of the name as this reader does (it takes a line whole), else nothing.
   */
  private static String whyMissing(String entry) {
    if (entry.indexOf('\r') >= 0) {
      return "; the entry holds a carriage return (a Windows line end), which SimGrid's replay reads as part of the"
          + " file name as this reader does: end the index's lines with \\n alone (dos2unix)";
    }
    if (!entry.equals(entry.strip())) {
      return "; the entry " + (entry.isBlank() ? "is only" : Character.isWhitespace(entry.charAt(0)) ? "begins with"
          : "ends with") + " white space, which SimGrid's replay reads as part of the file name as this reader does"
          + " (it skips only empty lines)";
    }
    return "";
  }

  /**
   * Whether the file is an index rather than a shared trace: no content line (one that is neither blank nor a
   * {@code #} comment, as the action reader skips them) starts with a rank, as every action line does, and none holds
   * a control character other than a tab (a binary file given by mistake is read as actions and refused at its first
   * line).
   */
  private static boolean isIndex(Path file) throws IOException {
    long entries = 0;
    long lineNumber = 0;
    try (LineSource in = new LineSource(file, INDEX_SCAN_BYTES)) {
      String raw;
      while ((raw = in.next(TraceFormatException.NO_RANK, ++lineNumber)) != null) {
        String[] tokens = SimGridRankReader.tokens(raw);
        if (tokens == null) {
          continue;
        }
        if (tokens[0].chars().allMatch(Character::isDigit)
            || raw.chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f)
            || ++entries > MAX_RANKS) {
          return false;
        }
      }
    }
    return entries > 0;
  }

  /**
   * An index's entries as SMPI reads them ({@code smpi_read_replay}, {@code src/smpi/internals/smpi_deployment.cpp}:
   * {@code std::getline} and every line that is not empty): lines end at {@code \n} alone, an empty line is skipped,
   * and any other line is a file name whole (white space, a {@code #} and a carriage return included), less a UTF-8
   * byte-order mark at the start of the file (since stop 73; it was read as part of the first name).
   */
  private static List<String> indexEntries(Path file) throws IOException {
    List<String> entries = new ArrayList<>();
    byte[] chunk = new byte[INDEX_SCAN_BYTES];
    java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
    long lineNumber = 1;
    try (java.io.InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(chunk)) >= 0; ) {
        int from = 0;
        for (int i = 0; i < n; i++) {
          if (chunk[i] == '\n') {
            line.write(chunk, from, i - from);
            byte[] entry = lineNumber == 1 ? LineSource.withoutByteOrderMark(line.toByteArray()) : line.toByteArray();
            if (entry.length > 0) {
              entries.add(fileName(file, lineNumber, entry));
            }
            line.reset();
            lineNumber++;
            from = i + 1;
          }
        }
        line.write(chunk, from, n - from);
        if (line.size() > LineSource.MAX_LINE_BYTES) {
          throw TraceFormatException.atLine(file, TraceFormatException.NO_RANK, lineNumber, "a line longer than "
              + LineSource.MAX_LINE_BYTES + " bytes, more than any index entry or trace line");
        }
      }
    }
    byte[] last = lineNumber == 1 ? LineSource.withoutByteOrderMark(line.toByteArray()) : line.toByteArray();
    if (last.length > 0) {
      entries.add(fileName(file, lineNumber, last));
    }
    return entries;
  }

  /**
   * An index entry as the file name it is: its bytes decoded with the JVM's file-name charset ({@code
   * sun.jnu.encoding}, the locale's: UTF-8 on most systems), which turns the name back into the same bytes on disk.
   * Read as ISO-8859-1, one char a byte as action lines are, {@code wörk/r0.txt} was looked for as {@code wÃ¶rk/r0.txt}
   * on a UTF-8 system and not found.
   *
   * @param index the index file, to name if the entry is not text in that charset
   * @param lineNumber the entry's line
   * @param bytes the entry's bytes
   * @return the entry decoded as a file name
   * @throws TraceFormatException if the entry's bytes are not text in the JVM's file-name charset
   */
  private static String fileName(Path index, long lineNumber, byte[] bytes) throws TraceFormatException {
    Charset names = FileNames.charset();
    try {
      return names.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw TraceFormatException.atLine(index, TraceFormatException.NO_RANK, lineNumber, "the index entry "
          + TraceFormatException.echo(new String(bytes, StandardCharsets.ISO_8859_1)) + " is not text in the file"
          + " names' charset " + names + " (sun.jnu.encoding, from the locale; a file name is)");
    }
  }

  /**
   * Opens a trace of one file per rank.
   *
   * @param source the path to report as the trace's source (an index file, or the first rank's file)
   * @param rankFiles the files, rank 0 first
   * @return the trace
   * @throws TraceFormatException if a file is missing
   */
  public static SimGridTrace ofRankFiles(Path source, List<Path> rankFiles) throws TraceFormatException {
    checkArgument(source != null, "source must not be null");
    checkArgument(rankFiles != null && !rankFiles.isEmpty(), "rankFiles must not be null or empty");
    for (int r = 0; r < rankFiles.size(); r++) {
      checkArgument(rankFiles.get(r) != null, "rankFiles must hold no null but rank %s's was null", r);
    }
    checkArgument(rankFiles.size() <= MAX_RANKS, "rankFiles must hold at most %s files, held %s", MAX_RANKS,
        rankFiles.size());
    for (int r = 0; r < rankFiles.size(); r++) {
      if (!Files.isRegularFile(rankFiles.get(r))) {
        throw TraceFormatException.ofFile(rankFiles.get(r), r, "rank file missing", null);
      }
    }
    return new SimGridTrace(source, null, ImmutableList.copyOf(rankFiles), rankFiles.size());
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.SIMGRID;
  }

  @Override
  public Path source() {
    return source;
  }

  @Override
  public int ranks() {
    return ranks;
  }

  /** Whether all ranks share one file. */
  public boolean isShared() {
    return index != null;
  }

  @Override
  public RankTrace open(int rank) throws IOException {
    checkArgument(rank >= 0 && rank < ranks, "rank must be in 0..%s, was %s", ranks - 1, rank);
    return new SimGridRankReader(index != null ? files.get(0) : files.get(rank), index, rank, ranks);
  }
}
