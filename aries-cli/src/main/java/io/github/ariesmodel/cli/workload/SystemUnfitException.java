package io.github.ariesmodel.cli.workload;

/**
 * A workload's refusal of the system it was given, not of a parameter: too few nodes for what it measures. The run
 * command locates it at the option or file that chose the system ({@code --system}, or {@code --config FILE}) rather
 * than at {@code (arguments)}, where every {@link IllegalArgumentException} lands (until stop 71). It is one, so code
 * that catches a workload's refusals as such ({@code mixed}'s phases) still does.
 */
public final class SystemUnfitException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /**
   * @param workload the workload's name
   * @param nodes the nodes it needs at least
   * @param has the nodes the system has
   */
  public SystemUnfitException(String workload, int nodes, int has) {
    super(workload + " needs a system of at least " + nodes + " nodes but this one has " + has);
  }
}
