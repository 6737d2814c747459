package io.github.ariesmodel.cli;

/**
 * A failure the {@code aries} command reports as one line, {@code aries <command>: <what> (<where>)}, with its exit
 * status: 2 for bad input (an option, a parameter, a configuration or an output path that cannot work), 1 for a run
 * that failed. A command throws it when it knows where the problem lies; other exceptions are
 * classified by the command line's one error handler.
 */
final class CliError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Exit status for bad input. */
  public static final int BAD_INPUT = 2;

  /** Exit status for a run that failed. */
  public static final int FAILED_RUN = 1;

  private final String where;
  private final int exitStatus;

  /**
   * The {@code where} is kept whole: the error handler abbreviates it as it prints it (abbreviated here too, a long one
   * was cut twice and said "… (97 characters)", the length of its first abbreviation).
   */
  private CliError(String what, String where, int exitStatus, Throwable cause) {
    super(what, cause);
    this.where = where;
    this.exitStatus = exitStatus;
  }

  /**
   * A library's refusal of a value the user gave through an option, told under the option's name: the library names
   * its own parameter ({@code vcBufferBytes}), which the user never typed ({@code --vc-buffer}). A message that
   * starts with none of the names is passed on unchanged.
   *
   * @param e the library's refusal
   * @param namesAndOptions pairs of a library parameter's name and the option that sets it, longest names first
   * @return the error to throw ({@code e} itself when no name matches)
   */
  public static RuntimeException renamed(IllegalArgumentException e, String... namesAndOptions) {
    String m = String.valueOf(e.getMessage());
    for (int i = 0; i + 1 < namesAndOptions.length; i += 2) {
      if (m.startsWith(namesAndOptions[i] + " ")) {
        return badInput(namesAndOptions[i + 1] + m.substring(namesAndOptions[i].length()), namesAndOptions[i + 1], e);
      }
    }
    return e;
  }

  /**
   * Bad input (exit status 2).
   *
   * @param what what is wrong, naming the value (echoed user text is abbreviated here)
   * @param where the option, parameter or file concerned
   * @param cause the underlying exception, or null
   * @return the error
   */
  public static CliError badInput(String what, String where, Throwable cause) {
    return new CliError(what, where, BAD_INPUT, cause);
  }

  /**
   * A failed run (exit status 1).
   *
   * @param what what failed
   * @param where the file or phase concerned
   * @param cause the underlying exception, or null
   * @return the error
   */
  public static CliError failedRun(String what, String where, Throwable cause) {
    return new CliError(what, where, FAILED_RUN, cause);
  }

  /** @return the option, parameter, file or phase the failure concerns */
  public String where() {
    return where;
  }

  /** @return 2 for bad input, 1 for a failed run */
  public int exitStatus() {
    return exitStatus;
  }
}
