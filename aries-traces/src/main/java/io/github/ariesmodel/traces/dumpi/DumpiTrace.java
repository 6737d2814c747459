package io.github.ariesmodel.traces.dumpi;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.github.ariesmodel.traces.FileNames;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.TextLines;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceFormat;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A trace in sst-dumpi's binary format: a {@code .meta} text file of {@code key=value} lines (libdumpi writes
 * {@code hostname}, {@code numprocs}, {@code username}, {@code startime}, {@code fileprefix} and the version) and one
 * {@code <fileprefix>-<rank, 4 digits>.bin} file per rank beside it (another zero-padded width is found as sst-dumpi's
 * own readers find it).
 *
 * <p>Every rank file must exist when the trace is opened; each rank's fixed parts (index, header, footer, size table)
 * are read when its stream is opened, its call records as it is read. Layouts and their sources are described in
 * {@link DumpiRankReader} (file), {@link DumpiLayout} (fields), {@code DumpiFunction} (function ids) and
 * {@code DumpiMappings} (what each call becomes); they follow sst-dumpi's {@code dumpi/common/io.c},
 * {@code iodefs.h}, {@code dumpiio.c}, {@code funclabels.h}, {@code constants.h} and
 * {@code dumpi/libundumpi/libundumpi.c} (github.com/sstsimulator/sst-dumpi). This reader was written from those
 * layouts; it shares no code with them.
 */
public final class DumpiTrace implements Trace {
  /**
   * Largest {@code numprocs} accepted: 2^22, as {@link io.github.ariesmodel.traces.simgrid.SimGridTrace#MAX_RANKS}
   * (a garbage count must not size anything; 4 M ranks is beyond every system the model builds).
   */
  public static final int MAX_RANKS = io.github.ariesmodel.traces.simgrid.SimGridTrace.MAX_RANKS;

  /**
   * Most {@code key=value} lines a {@code .meta} file may have: 1,024 (assumed: libdumpi writes eight, hostname,
   * numprocs, username, startime, fileprefix and three version numbers, as the AMG trace's has; a file of many more
   * is not a DUMPI meta file, and its keys must not fill the heap).
   */
  public static final int MAX_META_KEYS = 1024;

  private final Path meta;
  private final ImmutableMap<String, String> metadata;
  private final ImmutableList<Path> rankFiles;

  private DumpiTrace(Path meta, ImmutableMap<String, String> metadata, ImmutableList<Path> rankFiles) {
    this.meta = meta;
    this.metadata = metadata;
    this.rankFiles = rankFiles;
  }

  /**
   * Opens a DUMPI trace.
   *
   * @param path the {@code .meta} file, or a directory holding exactly one
   * @return the trace
   * @throws TraceFormatException if the meta file is missing or malformed (a key given twice among them), a rank's
   *     {@code .bin} file is missing, or there is one for rank {@code numprocs} (the meta file and the rank files
   *     disagree)
   * @throws IOException if a file cannot be read
   */
  public static DumpiTrace open(Path path) throws IOException {
    if (path == null) {
      throw new IllegalArgumentException("path must not be null");
    }
    Path meta = path;
    if (Files.isDirectory(path)) {
      try (var files = Files.list(path)) {
        List<Path> metas = files.filter(p -> p.getFileName().toString().endsWith(".meta")).sorted().toList();
        if (metas.size() != 1) {
          throw TraceFormatException.ofFile(path, TraceFormatException.NO_RANK,
              "expected exactly one DUMPI .meta file in the directory, found " + metas.size(), null);
        }
        meta = metas.get(0);
      }
    }
    if (!Files.isRegularFile(meta)) {
      throw TraceFormatException.notARegularFile(meta, TraceFormatException.NO_RANK, "DUMPI .meta file");
    }
    if (meta.getFileName().toString().endsWith(".bin")) {
      // (read as a meta file, its first binary bytes were "expected key=value")
      throw TraceFormatException.ofFile(meta, TraceFormatException.NO_RANK, "a DUMPI rank file; give the trace's"
          + " .meta file or its directory", null);
    }
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, Long> lineOfKey = new HashMap<>();
    // line by line with bounds: Files.readAllLines of a 4 GB file without a line end ran the heap out
    try (TextLines lines = TextLines.open(meta, StandardCharsets.ISO_8859_1)) {
      for (String raw; (raw = lines.next()) != null; ) {
        String line = raw.strip();
        if (line.isEmpty()) {
          continue;
        }
        int eq = line.indexOf('=');
        if (eq < 1) {
          throw TraceFormatException.atLine(meta, TraceFormatException.NO_RANK, lines.lineNumber(),
              "expected key=value, found " + TraceFormatException.echo(line));
        }
        if (values.size() == MAX_META_KEYS) {
          throw TraceFormatException.atLine(meta, TraceFormatException.NO_RANK, lines.lineNumber(),
              "more than " + MAX_META_KEYS + " key=value lines, the most a .meta file may have (libdumpi writes"
              + " eight; is it the right file?)");
        }
        String key = line.substring(0, eq).strip().toLowerCase(Locale.ROOT);
        Long first = lineOfKey.putIfAbsent(key, lines.lineNumber());
        if (first != null) {
          // (the last one was taken: numprocs=26 added below numprocs=27 replayed 26 ranks without a word)
          throw TraceFormatException.atLine(meta, TraceFormatException.NO_RANK, lines.lineNumber(), "key "
              + TraceFormatException.echo(key) + " again (first on line " + first + "): a key may appear once");
        }
        values.put(key, line.substring(eq + 1).strip());
      }
    }
    String prefix = values.get("fileprefix");
    if (prefix != null) {
      // the lines are read one char a byte (no meta file fails to decode); the prefix names files, whose bytes the JVM
      // makes with its file-name charset: read as ISO-8859-1, fileprefix=wörk named wÃ¶rk-0000.bin on a UTF-8 system
      prefix = new String(prefix.getBytes(StandardCharsets.ISO_8859_1), FileNames.charset());
    }
    String procs = values.get("numprocs");
    if (prefix == null || procs == null) {
      throw TraceFormatException.ofFile(meta, TraceFormatException.NO_RANK,
          "the meta file must name fileprefix and numprocs, found keys " + values.keySet(), null);
    }
    int ranks;
    try {
      ranks = Integer.parseInt(procs);
    } catch (NumberFormatException e) {
      ranks = -1;
    }
    if (ranks < 1 || ranks > MAX_RANKS) {
      // (the bound before anything is sized by it: numprocs=2147483647 in a one-line file ran the heap out)
      throw TraceFormatException.ofFile(meta, TraceFormatException.NO_RANK,
          "numprocs must be an integer in [1, " + MAX_RANKS + "], was " + TraceFormatException.echo(procs), null);
    }
    Path dir = meta.toAbsolutePath().getParent();
    // libdumpi names rank r's file fileprefix-%04d.bin; sst-dumpi's own readers (dumpi/bin/metadata.cc,
    // dumpi/bin/dumpi2dumpi-meta.c) also take a set zero-padded to another width, trying 4 to 9 and then 0 to 3 and
    // keeping the first at which every rank's file exists; so does this reader (since stop 78: a set renamed to five
    // digits was refused as "rank file missing"). When no width has every file, the error names the first missing file
    // of the width that has the most ranks' files in a row from rank 0 (four digits on a tie).
    int width = 4;
    int found = -1;
    for (int i = 0; i < RANK_WIDTHS && found < ranks; i++) {
      int w = (4 + i) % RANK_WIDTHS;
      int missing = firstMissing(dir, meta, prefix, w, ranks);
      if (missing > found) {
        width = w;
        found = missing;
      }
    }
    if (found < ranks) {
      throw TraceFormatException.ofFile(rankFile(dir, meta, prefix, width, found), found,
          "rank file missing (the meta file says numprocs=" + ranks + ")", null);
    }
    ImmutableList.Builder<Path> files = ImmutableList.builder();
    for (int r = 0; r < ranks; r++) {
      files.add(rankFile(dir, meta, prefix, width, r));
    }
    Path beyond = rankFile(dir, meta, prefix, width, ranks);
    if (Files.exists(beyond)) {
      // libdumpi writes numprocs (MPI_COMM_WORLD's size) and one file a rank: a file for rank numprocs means the meta
      // file and the rank files disagree, and which is right cannot be told (a numprocs lowered by an edit replayed
      // that many ranks, dropping the rest and their messages without a word)
      throw TraceFormatException.ofFile(beyond, ranks, "a rank file beyond the meta file's numprocs=" + ranks
          + " (ranks 0 to " + (ranks - 1) + "): the meta file and the rank files disagree", null);
    }
    return new DumpiTrace(meta, ImmutableMap.copyOf(values), files.build());
  }

  /** Zero-padding widths of a rank's number tried, 4 to 9 then 0 to 3, as sst-dumpi's {@code metadata.cc} tries them. */
  private static final int RANK_WIDTHS = 10;

  /** The file of a rank: {@code fileprefix-<rank, zero-padded to width>.bin} in the meta file's folder. */
  private static Path rankFile(Path dir, Path meta, String prefix, int width, int rank) throws TraceFormatException {
    StringBuilder number = new StringBuilder(Integer.toString(rank));
    while (number.length() < width) {
      number.insert(0, '0');
    }
    try {
      return dir.resolve(prefix + "-" + number + ".bin");
    } catch (java.nio.file.InvalidPathException e) {
      throw TraceFormatException.ofFile(meta, TraceFormatException.NO_RANK, "fileprefix "
          + TraceFormatException.echo(prefix) + " does not make a file name this system takes", e);
    }
  }

  /** The first rank whose file at this width is not a regular file, or {@code ranks} when all are. */
  private static int firstMissing(Path dir, Path meta, String prefix, int width, int ranks)
      throws TraceFormatException {
    for (int r = 0; r < ranks; r++) {
      if (!Files.isRegularFile(rankFile(dir, meta, prefix, width, r))) {
        return r;
      }
    }
    return ranks;
  }

  @Override
  public TraceFormat format() {
    return TraceFormat.DUMPI;
  }

  @Override
  public Path source() {
    return meta;
  }

  @Override
  public int ranks() {
    return rankFiles.size();
  }

  /** The meta file's {@code key=value} pairs (keys in lower case). */
  public ImmutableMap<String, String> metadata() {
    return metadata;
  }

  /**
   * The {@code .bin} file of a rank.
   *
   * @param rank the rank, 0 to {@code ranks() - 1}
   * @return its file
   */
  public Path rankFile(int rank) {
    checkArgument(rank >= 0 && rank < ranks(), "rank must be in 0..%s, was %s", ranks() - 1, rank);
    return rankFiles.get(rank);
  }

  @Override
  public RankTrace open(int rank) throws IOException {
    return new DumpiRankReader(rankFile(rank), rank);
  }

  /**
   * Opens one {@code .bin} file on its own, as the stream of a given rank (for tools that look at one file).
   *
   * @param bin the rank file
   * @param rank the rank to report in errors and coverage
   * @return the stream
   * @throws IOException if the file is unreadable or its fixed parts corrupt
   */
  public static RankTrace openRankFile(Path bin, int rank) throws IOException {
    checkArgument(bin != null, "bin must not be null");
    checkArgument(rank >= 0, "rank must be >= 0, was %s", rank);
    return new DumpiRankReader(bin, rank);
  }
}
