package io.github.ariesmodel.cli;

import io.github.ariesmodel.system.SystemPreset;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code aries systems}: lists the built-in systems, or describes one. */
@Command(name = "systems", mixinStandardHelpOptions = true, description = "List the built-in systems.")
final class SystemsCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--describe", paramLabel = "SYSTEM", description = "Describe one system in detail.")
  String describe;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (describe != null) {
      SystemPreset p = SystemPreset.byId(describe);
      out.printf("system %s: %s%n", p.id(), p.description());
      out.printf("  groups            %,d%n", p.groups());
      out.printf("  routers (Aries)   %,d  (%d per group: 6 chassis x 16 blades)%n", p.routers(),
          SystemPreset.ROUTERS_PER_GROUP);
      out.printf("  nodes             %,d  (%d per router)%n", p.nodes(), SystemPreset.NODES_PER_ROUTER);
      out.printf("  rank-1 links      %,d  (all-to-all in a chassis row, 15 per router)%n", p.routers() * 15 / 2);
      out.printf("  rank-2 links      %,d  (all-to-all in a column, 3 per pair, 15 per router)%n",
          p.routers() * 15 / 2);
      out.printf("  rank-3 ports      %,d  (10 optical per router)%n", p.routers() * 10);
      return 0;
    }
    out.printf("%-12s %7s %8s %8s  %s%n", "SYSTEM", "GROUPS", "ROUTERS", "NODES", "DESCRIPTION");
    for (SystemPreset p : SystemPreset.values()) {
      out.printf("%-12s %7d %8d %8d  %s%n", p.id(), p.groups(), p.routers(), p.nodes(), p.description());
    }
    return 0;
  }
}
