package io.github.ariesmodel.system.mpi;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;

/** Small systems and jobs for the MPI tests. */
final class MpiTesting {

  private MpiTesting() {}

  /** @return the 96-node three-group test system */
  static AriesSystem smallSystem(long seed) {
    return AriesSystem.builder().topology(Topologies.ariesSmall(), "aries-small").seed(seed).build();
  }

  /**
   * A job of n ranks spread over the small system, two ranks on each node where n allows (so that node-local pairs
   * and every distance occur).
   */
  static MpiJob job(AriesSystem sys, int n, MpiConfig config) {
    int perNode = n >= 4 ? 2 : 1;
    int nodes = (n + perNode - 1) / perNode;
    if (nodes * perNode != n) {
      perNode = 1;
      nodes = n;
    }
    int[] ids = new int[nodes];
    for (int i = 0; i < nodes; i++) {
      ids[i] = (i * 37 + 3) % sys.nodeCount();
    }
    return MpiJob.builder(sys).nodes(ids).ranksPerNode(perNode).config(config).build();
  }
}
