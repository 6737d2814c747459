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
 */
public final class AtomicFiles {

  /** Prefix of the temporary files and staging directories; never a name the tools write otherwise. */
  public static final String TEMP_PREFIX = ".aries-partial-";

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
    Files.createDirectories(dir);
    Path tmp = newStagingFile(dir);
    try {
      content.writeTo(tmp);
      move(tmp, target);
    } catch (IOException e) {
      throw failed("cannot write " + target, e);
    } finally {
      Files.deleteIfExists(tmp);
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
      try {
        return Files.createFile(p);
      } catch (FileAlreadyExistsException e) {
        // another writer's name: draw again
      }
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
