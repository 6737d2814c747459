package io.github.ariesmodel.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.ObjectMapper;
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
      throw CliError.badInput("cannot create the directory " + dir + ": " + ErrorHandler.reason(e), option, e);
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

  /**
   * Checks a run's output directory: usable as by {@link #directory}, and holding no other run's files. A directory
   * is free when it is empty, holds only files no report writes, or holds a finished run of the same command (a
   * repeat replaces it). Anything else (another command's {@code results.json}, an unreadable one, or report files
   * without a {@code results.json}, the trace of a failed run) is refused unless {@code force}.
   *
   * @param dir the directory
   * @param option the option that named it
   * @param command the command about to write there, as recorded in {@code results.json} ("run pingpong")
   * @param force whether the user allowed replacing another run's files
   * @throws CliError (bad input) when the directory holds another run's files and force is false
   */
  static void runDirectory(Path dir, String option, String command, boolean force) {
    directory(dir, option);
    if (force) {
      return;
    }
    Path results = dir.resolve(ReportWriter.RESULTS);
    String previous;
    if (Files.isRegularFile(results)) {
      try {
        previous = new ObjectMapper().readTree(results.toFile()).path("run").path("command").asText(null);
      } catch (IOException e) {
        previous = null;
      }
      if (command.equals(previous)) {
        return;
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
  }
}
