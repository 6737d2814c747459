package io.github.ariesmodel.cli.system;

/**
 * A system spec that names no system the model can build: an unknown preset or topology kind, a topology option out
 * of range, or a link list ({@code links:FILE}) or failed-links file that cannot be read or is malformed, with the
 * library's message (for a file, its name, line and problem). Kept apart from the other refusals of a build (a routing
 * that does not fit the fabric, say) so that a command can locate it at the option, file or parameter that chose the
 * system ({@code --system}, {@code --config FILE}) rather than at {@code (arguments)}.
 */
public final class SystemSpecException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** @param cause the library's refusal of the spec, whose message this one is */
  SystemSpecException(IllegalArgumentException cause) {
    super(cause.getMessage(), cause);
  }
}
