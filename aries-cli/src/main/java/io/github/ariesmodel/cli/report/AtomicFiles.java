package io.github.ariesmodel.cli.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes files so that a reader never sees half of one: the content goes to a hidden temporary file in the same
 * directory, which is then renamed over the target (atomically where the file system allows). A failure (a full
 * disk, an I/O error) leaves the previous target untouched and no temporary file behind.
 *
 * <p>The staging files being written are known here, so that a command stopped by a signal (SIGINT, SIGTERM), which
 * runs no {@code finally}, leaves none behind either: a shutdown hook calls {@link #abandonStaging}, which deletes
 * them and makes every later write fail, so that no target is replaced from then on (until stop 78 a stopped write
 * left its {@code .aries-partial-*.tmp} beside the target).
 * A target is never half-written, stopped or not: it is replaced whole by a rename, or not at all.
 */
public final class AtomicFiles {

  /** Prefix of the temporary files and staging directories; never a name the tools write otherwise. */
  public static final String TEMP_PREFIX = ".aries-partial-";

  /** Guards {@link #STAGED} and {@link #abandoned}. */
  private static final Object LOCK = new Object();
  /** Staging files created and not yet renamed or deleted. */
  private static final java.util.Set<Path> STAGED = new java.util.HashSet<>();
  /** Whether {@link #abandonStaging} was called: no staging file is made after it. */
  private static boolean abandoned;

  static {
    try {
      Runtime.getRuntime().addShutdownHook(new Thread(AtomicFiles::abandonStaging, "aries-staging-cleanup"));
    } catch (IllegalStateException e) {
      abandoned = true; // the process is ending already: nothing is written
    }
  }

  private AtomicFiles() {}

  /** Writes a file's content to a path. */
  @FunctionalInterface
  public interface Content {
    /**
     * Writes the content.
     *
     * @param file where to write
     * @throws IOException when writing fails
     */
    void writeTo(Path file) throws IOException;
  }

  /** Writes text to a writer. */
  @FunctionalInterface
  public interface Text {
    /**
     * Writes the text.
     *
     * @param out the writer (closed by the caller)
     * @throws IOException when writing fails
     */
    void writeTo(Writer out) throws IOException;
  }

  /**
   * Writes a file atomically.
   *
   * @param target the file to create or replace
   * @param content writes the content to the path it is given
   * @throws IOException when writing or renaming fails (the target is then unchanged)
   */
  public static void write(Path target, Content content) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    synchronized (LOCK) {
      if (abandoned) {
        throw new IOException("cannot write " + target + ": the command was interrupted"); // (nor make its directory)
      }
    }
    Files.createDirectories(dir);
    Path tmp = newStagingFile(dir);
    try {
      content.writeTo(tmp);
      move(tmp, target);
    } catch (IOException e) {
      throw failed("cannot write " + target, e);
    } finally {
      try {
        Files.deleteIfExists(tmp);
      } finally {
        unstage(tmp);
      }
    }
  }

  /**
   * Creates an empty staging file with a fresh name in a directory, with the permissions any new file gets there (the
   * user's umask applies). {@code Files.createTempFile} would make it readable by its owner alone, and the rename
   * keeps that: results.json and the CSVs came out {@code -rw-------} beside PNGs of {@code -rw-r--r--}, so that a
   * group sharing a sweep's directory could not read them.
   *
   * @param dir the directory
   * @return the new file
   * @throws IOException when it cannot be created
   */
  static Path newStagingFile(Path dir) throws IOException {
    while (true) {
      Path p = dir.resolve(TEMP_PREFIX + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
      synchronized (LOCK) { // (made and recorded together: the shutdown hook sees every one)
        if (abandoned) {
          throw new IOException("the command was interrupted");
        }
        try {
          Files.createFile(p);
          STAGED.add(p);
          return p;
        } catch (FileAlreadyExistsException e) {
          // another writer's name: draw again
        }
      }
    }
  }

  /** A staging file renamed or deleted: no longer the shutdown hook's to delete. */
  private static void unstage(Path tmp) {
    synchronized (LOCK) {
      STAGED.remove(tmp);
    }
  }

  /**
   * Checks that a directory takes new files, as a staging file is made there: creates one and deletes it.
   *
   * @param dir the directory
   * @throws IOException when the file cannot be created (or deleted)
   */
  public static void probe(Path dir) throws IOException {
    Path p = newStagingFile(dir);
    try {
      Files.delete(p);
    } finally {
      unstage(p);
    }
  }

  /**
   * For a command stopped by a signal (the shutdown hook of this class, and that of the command line's output
   * directories, which calls it first): deletes every staging file being written, whose target therefore stays as it
   * was, and makes every later write fail. For the end of the process only: it cannot be undone.
   */
  public static void abandonStaging() {
    synchronized (LOCK) {
      abandoned = true;
      for (Path p : STAGED) {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          // left: nothing more can be done as the process ends
        }
      }
      STAGED.clear();
    }
  }

  /**
   * A failure to write, named by what the user asked for (a target file, a report's directory) rather than the hidden
   * staging file the operating system names ({@code No space left on device}, a JFreeChart "I/O error writing PNG
   * file!"): the reason keeps the system's words, the cause the exception.
   *
   * @param what what could not be written, with its path
   * @param e the failure
   * @return the exception to throw
   */
  public static IOException failed(String what, IOException e) {
    String reason = e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
        : e.getMessage();
    return new IOException(what + ": " + (reason == null || reason.isBlank() ? "input/output error" : reason), e);
  }

  /**
   * Writes a UTF-8 text file atomically.
   *
   * @param target the file to create or replace
   * @param text writes the text
   * @throws IOException when writing or renaming fails (the target is then unchanged)
   */
  public static void writeText(Path target, Text text) throws IOException {
    write(target, f -> {
      try (Writer w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
        text.writeTo(w);
      }
    });
  }

  /**
   * Renames a file over another, atomically when the file system can.
   *
   * @param from the source
   * @param to the target, replaced
   * @throws IOException when the rename fails
   */
  public static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
