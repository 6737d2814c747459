package io.github.ariesmodel.traces;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/** The trace formats this module reads. */
public enum TraceFormat {
  /** sst-dumpi's binary format: a {@code .meta} text file plus one {@code .bin} file per rank. */
  DUMPI,
  /** SimGrid's time-independent text traces ({@code rank action args}), one shared file or one file per rank. */
  SIMGRID;

  /** How libdumpi starts a {@code .meta} file: its first line is the host name. */
  private static final byte[] META_START = "hostname=".getBytes(StandardCharsets.ISO_8859_1);

  /**
   * Guesses the format of a trace path without reading its records: a {@code .meta} file, or a directory holding
   * exactly one, is DUMPI; a {@code .bin} file is DUMPI; any other regular file is SimGrid text.
   *
   * @param path the path a user named
   * @return the format
   * @throws TraceFormatException if the path does not exist, or is a directory without exactly one {@code .meta}
   * @throws IOException if the directory cannot be listed
   */
  public static TraceFormat detect(Path path) throws IOException {
    if (path == null) {
      throw new IllegalArgumentException("path must not be null");
    }
    if (Files.isDirectory(path)) {
      try (var files = Files.list(path)) {
        long metas = files.filter(p -> p.getFileName().toString().endsWith(".meta")).count();
        if (metas == 1) {
          return DUMPI;
        }
        throw TraceFormatException.ofFile(path, TraceFormatException.NO_RANK,
            "a trace directory must hold exactly one DUMPI .meta file, found " + metas
                + "; name a SimGrid trace file directly", null);
      }
    }
    if (!Files.isRegularFile(path)) {
      throw TraceFormatException.notARegularFile(path, TraceFormatException.NO_RANK, "trace file");
    }
    String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".meta") || name.endsWith(".bin")) {
      return DUMPI;
    }
    // the first bytes only: a first line read whole (BufferedReader.readLine) of a 4 GB file without a line end ran
    // the heap out before any reader's bound was met
    try (InputStream in = Files.newInputStream(path)) {
      byte[] head = in.readNBytes(3 + META_START.length);
      int from = head.length >= 3 && (head[0] & 0xff) == 0xef && (head[1] & 0xff) == 0xbb && (head[2] & 0xff) == 0xbf
          ? 3 : 0; // after a UTF-8 byte-order mark, as the readers take it
      if (head.length - from >= META_START.length
          && Arrays.equals(head, from, from + META_START.length, META_START, 0, META_START.length)) {
        return DUMPI;
      }
    }
    return SIMGRID;
  }
}
