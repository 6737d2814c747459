package io.github.ariesmodel.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.sweep.SweepRunner;
import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.system.process.ProcessRunner.ProcessFailedException;
import io.github.ariesmodel.system.replay.TraceReplayException;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The command line's one error path. Every failure, whether picocli rejects an argument or a command throws,
 * becomes one line on standard error, {@code aries <command>: <what> (<where>)}, and an exit status: 2 for bad
 * input, 1 for a failed run. A stack trace follows only with {@code --debug}. The line never holds more than the
 * first {@link Texts#MAX_ECHO} characters of a message that echoes a long text, nor a control character raw
 * ({@link Texts#visible}).
 */
final class ErrorHandler implements CommandLine.IParameterExceptionHandler, CommandLine.IExecutionExceptionHandler {

  /** The option that turns stack traces on. */
  static final String DEBUG = "--debug";

  /**
   * Longest {@code what} printed; messages built from user text longer than this are cut. User text inside a message is
   * abbreviated to {@link Texts#MAX_ECHO} where it is quoted, so this bounds what the model's own messages compose: eight
   * echoes' worth, as the longest of them (a registration the heap cannot hold, wrapped by the SHMEM allocation that
   * asked for it, with its remedy last) runs to about 560 characters, and 320 cut the remedy off (stop 47).
   */
  private static final int MAX_WHAT = 8 * Texts.MAX_ECHO;

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    String where = "arguments";
    ArgSpec arg = ex.getArgSpec();
    if (arg instanceof OptionSpec o) {
      where = o.longestName();
    } else if (arg != null) {
      where = arg.paramLabel();
    } else if (ex instanceof CommandLine.MissingParameterException m && m.getMissing().size() == 1
        && m.getMissing().get(0) instanceof OptionSpec o) {
      // an option given without its value (--seed at the end of the line): picocli names no ArgSpec then, and the
      // line was located at "(arguments)" until stop 78
      where = o.longestName();
    }
    report(cl, cl.getErr(), ownConverterMessage(ex.getMessage()), where, debugRequested(args), ex);
    return CliError.BAD_INPUT;
  }

  /** picocli's wording around a message of this command line's own converters ({@code AriesCli}'s numbers). */
  private static final Pattern CONVERTED = Pattern.compile("Invalid value for option '([^']+)': (must .*)",
      Pattern.DOTALL);

  /**
   * A converter of ours says what the option takes ("must be an integer from ... but was 'abc'"); picocli puts
   * "Invalid value for option '--seed': " before it. Said as the other range errors are: "--seed must be ...".
   *
   * @param message picocli's message
   * @return the message to print
   */
  static String ownConverterMessage(String message) {
    Matcher m = CONVERTED.matcher(String.valueOf(message));
    return m.matches() ? m.group(1) + " " + m.group(2) : message;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parseResult) {
    return handle(ex, cl, debugRequested(parseResult));
  }

  /** Reports a throwable as one line and returns the exit status. */
  static int handle(Throwable ex, CommandLine cl, boolean debug) {
    // a sweep point's failure is reported as its cause is, the point named first
    String point = "";
    Throwable inner = ex;
    if (ex instanceof SweepRunner.PointFailedException p) {
      point = p.point();
      inner = p.getCause();
    }
    // a simulated process's code threw (a rank's noise detour that runs past the clock's end): its failure is reported
    // as the cause is, the process and its time first, as replay names the rank and the call; the runner's own message
    // began "ProcessFailedException: simulated process rank0 failed at ... ps:" (stop 69)
    if (inner instanceof ProcessFailedException f && f.getCause() != null) {
      point += f.processName() + " at simulated time " + f.timePs() + " ps: ";
      inner = f.getCause();
    }
    Throwable t = inner instanceof UncheckedIOException u && u.getCause() != null ? u.getCause() : inner;
    int status;
    String what;
    String where;
    if (t instanceof CliError e) {
      status = e.exitStatus();
      what = e.getMessage();
      where = e.where();
    } else if (t instanceof IllegalArgumentException) {
      status = CliError.BAD_INPUT;
      what = withReason(t.getMessage(), t.getCause());
      where = "arguments";
    } else if (t instanceof JsonProcessingException j) {
      status = CliError.BAD_INPUT;
      what = "cannot parse: " + parseProblem(j);
      where = location(j.getLocation());
    } else if (t instanceof TraceFormatException f) {
      // a damaged or foreign trace given to a sweep point or a run (replay says which file itself)
      status = CliError.BAD_INPUT;
      what = f.getMessage();
      where = "trace";
    } else if (t instanceof TraceReplayException r) {
      // a trace that cannot be replayed (damaged, refused by the MPI layer, deadlocked), met by a run or a sweep
      // point: the line replay gives (it was "TraceReplayException: ..." and exit status 1)
      status = CliError.BAD_INPUT;
      what = replayProblem(r);
      where = "trace";
    } else if (t instanceof NoSuchFileException f) {
      status = CliError.BAD_INPUT;
      what = "no such file";
      where = f.getFile();
    } else if (t instanceof CharacterCodingException) {
      // Text read as UTF-8 that is not (a binary file given where text belongs); the call sites that know the
      // file name it, this is the last resort.
      status = CliError.BAD_INPUT;
      what = "not UTF-8 text";
      where = "files";
    } else if (t instanceof AccessDeniedException f) {
      // an input (or output) the user may not read or write is bad input, as a missing one is: exit 1 until stop 75
      status = CliError.BAD_INPUT;
      what = "cannot use the file: " + reason(f);
      where = f.getFile();
    } else if (t instanceof FileSystemException f) {
      status = CliError.FAILED_RUN;
      what = "cannot use the file: " + reason(f);
      where = f.getFile();
    } else if (t instanceof IOException && (t.getCause() instanceof AccessDeniedException
        || t.getCause() instanceof NoSuchFileException)) {
      // a file named by the message around it ("cannot read the trace t.txt: t.txt"), with the reason in words
      status = CliError.BAD_INPUT;
      what = withReason(t.getMessage(), t.getCause());
      where = "files";
    } else if (t instanceof IOException) {
      status = CliError.FAILED_RUN;
      what = "input/output error: " + t.getMessage();
      where = "files";
    } else if (t instanceof OutOfMemoryError) {
      status = CliError.FAILED_RUN;
      what = "the Java heap is too small for this run; give more with ARIES_JAVA_OPTS=-Xmx<size>";
      where = "memory";
    } else if (t instanceof StackOverflowError) {
      status = CliError.FAILED_RUN;
      what = "input nested too deeply";
      where = "stack";
    } else {
      status = CliError.FAILED_RUN;
      // a refusal's own message says what is wrong; its class name is Java's, not the user's (stop 47: "aries run:
      // IllegalStateException: allocate of ..."); other exceptions keep it, as a sign of a fault in the model
      boolean refusal = t instanceof IllegalStateException || t instanceof IllegalArgumentException;
      what = t.getMessage() == null ? simpleName(t)
          : refusal ? t.getMessage() : simpleName(t) + ": " + t.getMessage();
      where = "the simulation";
    }
    report(cl, cl.getErr(), point + what, where, debug, ex);
    return status;
  }

  /**
   * A command that succeeded but whose standard output could not be written: a failed run (exit status 1), told in one
   * line with the reason ({@code aries systems: cannot write standard output: no space left on device (standard
   * output)}), except when the reader of a pipe went away ({@code | head}), which it wanted: the status alone says
   * it, as a shell tool stopped by SIGPIPE says nothing.
   *
   * @param cl the command that ran
   * @param why why writing failed, or null when not known
   * @param debug whether to print the stack trace too
   * @return the exit status
   */
  static int standardOutputFailed(CommandLine cl, IOException why, boolean debug) {
    if (why != null && BROKEN_PIPE.equals(why.getMessage())) {
      return CliError.FAILED_RUN;
    }
    report(cl, cl.getErr(), "cannot write standard output" + (why == null ? "" : ": " + reason(why)),
        "standard output", debug && why != null, why);
    return CliError.FAILED_RUN;
  }

  /** What the operating system's write says when the reading end of a pipe is closed (EPIPE). */
  static final String BROKEN_PIPE = "Broken pipe";

  /**
   * A trace replay's failure as every command tells it: its message, whose lines (a deadlock's waiting ranks) are
   * joined by "; ".
   *
   * @param e the failure
   * @return the text
   */
  static String replayProblem(TraceReplayException e) {
    return String.valueOf(e.getMessage()).replace("\n", "; ");
  }

  private static void report(CommandLine cl, PrintWriter err, String what, String where, boolean debug,
      Throwable ex) {
    // line breaks join the line; any other control character a message quotes (from a file, an argument) is escaped,
    // so that it cannot act on the terminal (an ESC sequence cleared it)
    String text = what == null ? "failed"
        : Texts.visible(withoutClassNames(what).replaceAll("\\s*\\R\\s*", " ").strip());
    if (text.length() > MAX_WHAT) {
      text = text.substring(0, MAX_WHAT - 1) + "…";
    }
    err.println(cl.getCommandSpec().qualifiedName() + ": " + text + " (" + Texts.abbreviate(where) + ")");
    if (debug) {
      ex.printStackTrace(err);
    }
    err.flush();
  }

  /**
   * The parser's own message in plain words, without the source-location clutter Jackson appends (the location is
   * reported as the {@code where}) or the names of Jackson's options ({@link ResultsJson#parseProblem}).
   */
  static String parseProblem(JsonProcessingException e) {
    return ResultsJson.parseProblem(e);
  }

  /**
   * Why a file operation failed, in words rather than an exception's class name: "no such file", "permission
   * denied", "already exists", "not a directory", "not UTF-8 text", else the operating system's reason.
   *
   * @param e the failure
   * @return the reason
   */
  static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "already exists";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof CharacterCodingException) {
      return "not UTF-8 text";
    }
    String r = e instanceof FileSystemException f ? f.getReason() : e.getMessage();
    if (r == null || r.isBlank()) {
      return "input/output error";
    }
    r = withoutClassNames(r).strip();
    // "Is a directory" reads as a reason inside a sentence; a path or a name keeps its case.
    return r.length() > 1 && Character.isUpperCase(r.charAt(0)) && Character.isLowerCase(r.charAt(1))
        ? Character.toLowerCase(r.charAt(0)) + r.substring(1) : r;
  }

  /**
   * A message that ends with its file-system cause's bare message, which for such a failure is only the file's path
   * ({@code mapping file map.txt cannot be read: map.txt}, since the message was built from {@code getMessage()}),
   * with the reason in words ({@link #reason}) in its place: {@code ... cannot be read: permission denied}. Any other
   * message is returned as it is.
   *
   * @param message the message
   * @param cause its cause, or null
   * @return the message
   */
  static String withReason(String message, Throwable cause) {
    if (message == null || !(cause instanceof FileSystemException f) || f.getMessage() == null) {
      return message;
    }
    String tail = ": " + f.getMessage();
    return message.endsWith(tail) ? message.substring(0, message.length() - tail.length()) + ": " + reason(f)
        : message;
  }

  /** A qualified exception class name in a message ({@code java.nio.file.NoSuchFileException: }), with its colon. */
  private static final Pattern CLASS_NAME =
      Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+([A-Z]\\w*(?:Exception|Error))(?::\\s*)?");

  /** The words that replace the exception classes a message most often quotes (others are dropped). */
  private static final Map<String, String> CLASS_WORDS = Map.of(
      "NoSuchFileException", "no such file: ",
      "AccessDeniedException", "permission denied: ",
      "NotDirectoryException", "not a directory: ",
      "MalformedInputException", "not UTF-8 text: ",
      "UnmappableCharacterException", "not UTF-8 text: ",
      "NumberFormatException", "not a number: ");

  /**
   * A message with the Java class names other code put into it ({@code cannot be read:
   * java.nio.file.NoSuchFileException: /x}, picocli's {@code (java.lang.NumberFormatException: ...)}) replaced by
   * words or left out: the user did not write Java.
   */
  static String withoutClassNames(String message) {
    Matcher m = CLASS_NAME.matcher(message);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(b, Matcher.quoteReplacement(CLASS_WORDS.getOrDefault(m.group(1), "")));
    }
    m.appendTail(b);
    return b.toString();
  }

  private static String location(JsonLocation l) {
    if (l == null || l.getLineNr() < 0) {
      return "input";
    }
    return "line " + l.getLineNr() + ", column " + l.getColumnNr();
  }

  private static String simpleName(Throwable t) {
    return t.getClass().getSimpleName();
  }

  private static boolean debugRequested(ParseResult pr) {
    for (ParseResult p = pr; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption(DEBUG)) {
        return true;
      }
    }
    return false;
  }

  static boolean debugRequested(String[] args) {
    for (String a : args) {
      if (DEBUG.equals(a)) {
        return true;
      }
      if ("--".equals(a)) {
        return false;
      }
    }
    return false;
  }
}
