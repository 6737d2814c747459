package io.github.ariesmodel.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks of output paths made before a simulation starts, so that a run is not thrown away because its results
 * cannot be written: an output directory is created (or must be a writable directory), an output file must not be a
 * directory and its directory must be writable.
 */
final class OutputPaths {

  private OutputPaths() {}

  /**
   * Makes sure a directory exists and is writable.
   *
   * @param dir the directory
   * @param option the option that named it, for the message
   * @throws CliError (bad input) naming the option and the path when the directory cannot be used
   */
  static void directory(Path dir, String option) {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw CliError.badInput("not a directory: " + dir, option, null);
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw CliError.badInput("cannot create the directory " + dir + ": " + e.getClass().getSimpleName(), option, e);
    }
    if (!Files.isWritable(dir)) {
      throw CliError.badInput("directory not writable: " + dir, option, null);
    }
  }

  /**
   * Makes sure a file can be written: not a directory, in a directory that exists (created if needed) and is
   * writable.
   *
   * @param file the file
   * @param option the option that named it, for the message
   * @throws CliError (bad input) naming the option and the path when the file cannot be written
   */
  static void file(Path file, String option) {
    if (Files.isDirectory(file)) {
      throw CliError.badInput("is a directory, not a file: " + file, option, null);
    }
    if (Files.exists(file) && !Files.isWritable(file)) {
      throw CliError.badInput("file not writable: " + file, option, null);
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      directory(parent, option);
    }
  }
}
