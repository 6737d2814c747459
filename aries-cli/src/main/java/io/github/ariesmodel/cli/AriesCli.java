package io.github.ariesmodel.cli;

import io.github.ariesmodel.core.Texts;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code aries} command line: the entry point behind the root {@code ./aries} script. With no subcommand it runs
 * the default job; every other job is a subcommand. Every failure is reported by one handler as one line,
 * {@code aries <command>: <what> (<where>)}, with exit status 2 for bad input and 1 for a failed run
 * ({@link CliError}); {@code --debug} adds the stack trace.
 */
@Command(
    name = "aries",
    mixinStandardHelpOptions = true,
    versionProvider = AriesCli.Version.class,
    description = "A model of the Cray Aries interconnect: NIC, IOMMU and dragonfly fabric.",
    subcommands = {
      RunCommand.class,
      ReplayCommand.class,
      ValidateCommand.class,
      SystemsCommand.class,
      IommuCommand.class,
      TrafficCommand.class,
      SweepCommand.class,
      MergeCommand.class,
      CommandLine.HelpCommand.class
    })
public final class AriesCli implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Option(names = ErrorHandler.DEBUG, scope = CommandLine.ScopeType.INHERIT,
      description = "Print the stack trace of a failure after its one-line message.")
  boolean debug;

  /** Why standard output could not be written, for the default job's run (null when not known). */
  private Supplier<IOException> outFailure = () -> null;

  /**
   * Runs the CLI.
   *
   * @param args command-line arguments
   */
  public static void main(String[] args) {
    Recorded stdout = new Recorded(new FileOutputStream(FileDescriptor.out));
    System.exit(execute(args, utf8(stdout), utf8(System.err), stdout::failure));
  }

  /**
   * Standard output, remembering why writing it failed. {@code System.out} and a {@link PrintWriter} keep only that
   * a write failed, so that the reason, a full disk or a reader that went away, could not be told.
   */
  static final class Recorded extends FilterOutputStream {
    private volatile IOException failure;

    Recorded(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      try {
        out.write(b);
      } catch (IOException e) {
        throw failed(e);
      }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      try {
        out.write(b, off, len);
      } catch (IOException e) {
        throw failed(e);
      }
    }

    @Override
    public void flush() throws IOException {
      try {
        out.flush();
      } catch (IOException e) {
        throw failed(e);
      }
    }

    private IOException failed(IOException e) {
      if (failure == null) {
        failure = e;
      }
      return e;
    }

    /** @return the first failure to write, or null */
    IOException failure() {
      return failure;
    }
  }

  /**
   * A writer over a standard stream in UTF-8. {@code new PrintWriter(System.out)} encodes with the platform charset,
   * which under LC_ALL=C is ASCII: '×' and a file name's 'ö' printed as '?', and {@code --json} output differed
   * between machines.
   *
   * @param stream standard output or standard error
   * @return the writer, flushing at each line
   */
  static PrintWriter utf8(OutputStream stream) {
    return new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), true);
  }

  /**
   * Runs the CLI with the given streams, for tests and embedding.
   *
   * @param args command-line arguments
   * @param out standard output
   * @param err standard error
   * @return the exit code
   */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    return execute(args, out, err, () -> null);
  }

  /**
   * Runs the CLI as {@link #execute(String[], PrintWriter, PrintWriter)} does; a command that succeeded but whose
   * standard output could not be written fails (exit status 1). Until stop 78 {@code ./aries systems > /dev/full}
   * lost its whole output and exited 0: a {@link PrintWriter} reports no failure, it only remembers it.
   *
   * @param args command-line arguments
   * @param out standard output
   * @param err standard error
   * @param outFailure why writing {@code out} failed, or null when that is not known
   * @return the exit code
   */
  static int execute(String[] args, PrintWriter out, PrintWriter err, Supplier<IOException> outFailure) {
    ErrorHandler errors = new ErrorHandler();
    AriesCli root = new AriesCli();
    root.outFailure = outFailure;
    CommandLine cl = new CommandLine(root);
    cl.setOut(out);
    cl.setErr(err);
    // an integer option with a range is refused naming it, whatever was wrong with the value (SharedOptions.Range)
    cl.setParameterExceptionHandler((ex, a) -> errors.handleParseException(SharedOptions.inOptionsRange(ex), a));
    cl.setExecutionExceptionHandler(errors);
    cl.setExecutionStrategy(pr -> {
      Integer help = CommandLine.executeHelpRequest(pr);
      if (help != null) {
        return help;
      }
      SharedOptions.checkRanges(pr);
      return new CommandLine.RunLast().execute(pr);
    });
    for (CommandLine sub : cl.getSubcommands().values()) {
      // each subcommand's -V prints the version too: it printed nothing and exited 0 (until stop 75)
      sub.getCommandSpec().versionProvider(new Version());
    }
    cl.registerConverter(Double.class, AriesCli::finiteDouble);
    cl.registerConverter(Double.TYPE, AriesCli::finiteDouble);
    cl.registerConverter(Long.class, AriesCli::wholeLong);
    cl.registerConverter(Long.TYPE, AriesCli::wholeLong);
    cl.registerConverter(Integer.class, AriesCli::wholeInt);
    cl.registerConverter(Integer.TYPE, AriesCli::wholeInt);
    int status;
    try {
      status = cl.execute(args);
    } catch (OutOfMemoryError | StackOverflowError e) {
      // picocli hands only Exceptions to the handler; these two are a run's failures too, reported the same way.
      return ErrorHandler.handle(e, ran(cl), ErrorHandler.debugRequested(args));
    } finally {
      // the command is over: the output directories it kept are its results, no longer the shutdown hook's to remove
      // when the process is stopped (a failed command removed its own already)
      OutputPaths.Made.settled();
    }
    boolean outFailed = out.checkError(); // (which flushes it, whatever the status)
    if (status == 0 && outFailed) {
      return ErrorHandler.standardOutputFailed(ran(cl), outFailure.get(), ErrorHandler.debugRequested(args));
    }
    return status;
  }

  /** @return the command that ran: the last subcommand parsed, or the root */
  private static CommandLine ran(CommandLine cl) {
    CommandLine last = cl;
    for (CommandLine.ParseResult p = cl.getParseResult(); p != null; p = p.subcommand()) {
      last = p.commandSpec().commandLine();
    }
    return last;
  }

  /**
   * Every floating-point option is finite: NaN would pass every range check written as {@code x < min} and
   * infinity overflows any conversion to picoseconds.
   */
  static Double finiteDouble(String text) {
    double x;
    try {
      x = io.github.ariesmodel.cli.workload.Params.decimal(text); // (the workloads' grammar: no 0.5d, 0x1p-1)
    } catch (NumberFormatException e) {
      throw new CommandLine.TypeConversionException("must be a " + (text.strip().matches("[+-]?(NaN|Infinity)")
          ? "finite " : "") + "number but was '" + Texts.abbreviate(text) + "'");
    }
    if (!Double.isFinite(x)) {
      throw new CommandLine.TypeConversionException("must be a finite number but was '" + Texts.abbreviate(text) + "'");
    }
    return x;
  }

  /**
   * Every integer option ({@code --seed}, {@code --trace-limit}, ...) says what it takes in words: picocli's own
   * converter said {@code 'abc' is not a long}. An option whose range is narrower says so with
   * {@link SharedOptions.Range}, and its refusals name that range instead.
   */
  static Long wholeLong(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new CommandLine.TypeConversionException("must be an integer from " + Long.MIN_VALUE + " to "
          + Long.MAX_VALUE + " but was '" + Texts.abbreviate(text) + "'");
    }
  }

  /** As {@link #wholeLong}, for the options that take an {@code int}. */
  static Integer wholeInt(String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new CommandLine.TypeConversionException("must be an integer from " + Integer.MIN_VALUE + " to "
          + Integer.MAX_VALUE + " but was '" + Texts.abbreviate(text) + "'");
    }
  }

  /**
   * The default job: the mixed workload on two full Aries groups (every distance, rank-3 optical links included),
   * with its report in {@code results/default}.
   */
  @Override
  public Integer call() {
    return execute(debug
            ? new String[] {"run", "mixed", "--system", "two-groups", "--out", "results/default", ErrorHandler.DEBUG}
            : new String[] {"run", "mixed", "--system", "two-groups", "--out", "results/default"},
        spec.commandLine().getOut(), spec.commandLine().getErr(), outFailure);
  }

  /** Reports the version from the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {io.github.ariesmodel.cli.report.RunMetadata.currentTool()}; // (as results.json's run.tool)
    }
  }
}
