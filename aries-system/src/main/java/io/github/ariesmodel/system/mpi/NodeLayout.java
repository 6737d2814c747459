package io.github.ariesmodel.system.mpi;

import java.util.Arrays;
import java.util.HashMap;
import java.util.function.IntUnaryOperator;

/**
 * A communicator's members grouped by node, as MPICH groups them when it commits a communicator (its node
 * communicator and node-roots communicator, from the process-to-node map; docs/mpi.md [M8]): nodes are numbered in
 * the order of their first member by communicator rank, a node's members keep the communicator's order, and a node's
 * first member is its root. The same for every member, so one layout serves them all; each member's view of it is its
 * {@link Communicator#smp()}.
 */
final class NodeLayout {

  /** Communicator rank → the index of its node among the communicator's nodes. */
  final int[] nodeIndexOf;
  /** Communicator rank → its rank among its node's members. */
  final int[] localRankOf;
  /** Node index → the world ranks of the node's members, in communicator order (a node communicator's members). */
  final int[][] nodeMembers;
  /** Node index → the world rank of the node's first member (the node-roots communicator's members). */
  final int[] rootWorldRanks;

  private NodeLayout(int[] nodeIndexOf, int[] localRankOf, int[][] nodeMembers, int[] rootWorldRanks) {
    this.nodeIndexOf = nodeIndexOf;
    this.localRankOf = localRankOf;
    this.nodeMembers = nodeMembers;
    this.rootWorldRanks = rootWorldRanks;
  }

  /**
   * The layout of a communicator's members over nodes, or null when it has none to exploit: every member on a node of
   * its own (MPICH then builds no node communicators: the roots' would be the communicator itself).
   *
   * @param worldRanks the communicator's members
   * @param nodeOfWorld a world rank's node
   * @return the layout, or null
   */
  static NodeLayout of(int[] worldRanks, IntUnaryOperator nodeOfWorld) {
    int n = worldRanks.length;
    int[] nodeIndexOf = new int[n];
    int[] localRankOf = new int[n];
    int[] nodeIds = new int[Math.min(n, 16)];
    int[] counts = new int[nodeIds.length];
    int nodes = 0;
    HashMap<Integer, Integer> index = new HashMap<>();
    for (int r = 0; r < n; r++) {
      int node = nodeOfWorld.applyAsInt(worldRanks[r]);
      Integer k = index.get(node);
      if (k == null) {
        k = nodes++;
        index.put(node, k);
        if (k == nodeIds.length) {
          nodeIds = Arrays.copyOf(nodeIds, 2 * k);
          counts = Arrays.copyOf(counts, 2 * k);
        }
        nodeIds[k] = node;
      }
      nodeIndexOf[r] = k;
      localRankOf[r] = counts[k]++;
    }
    if (nodes == n) {
      return null;
    }
    int[][] members = new int[nodes][];
    int[] roots = new int[nodes];
    for (int k = 0; k < nodes; k++) {
      members[k] = new int[counts[k]];
    }
    for (int r = 0; r < n; r++) {
      members[nodeIndexOf[r]][localRankOf[r]] = worldRanks[r];
      if (localRankOf[r] == 0) {
        roots[nodeIndexOf[r]] = worldRanks[r];
      }
    }
    return new NodeLayout(nodeIndexOf, localRankOf, members, roots);
  }

  /** One member's view: its node's communicator and, on a node's first member, the roots' communicator. */
  static final class View {
    final NodeLayout layout;
    /** This member's node index. */
    final int node;
    /** The node's members (MPICH's {@code node_comm}), or null when this member is alone on its node. */
    final Communicator nodeComm;
    /** The nodes' first members (MPICH's {@code node_roots_comm}), or null unless this member is its node's first. */
    final Communicator rootsComm;

    View(NodeLayout layout, int node, Communicator nodeComm, Communicator rootsComm) {
      this.layout = layout;
      this.node = node;
      this.nodeComm = nodeComm;
      this.rootsComm = rootsComm;
    }

    /**
     * MPICH's {@code MPIU_Get_intranode_rank}.
     *
     * @param r a communicator rank
     * @return its rank in this member's node communicator, or -1 when it is on another node
     */
    int intranodeRank(int r) {
      return layout.nodeIndexOf[r] == node ? layout.localRankOf[r] : -1;
    }

    /**
     * MPICH's {@code MPIU_Get_internode_rank}.
     *
     * @param r a communicator rank
     * @return its node's rank in the roots' communicator
     */
    int internodeRank(int r) {
      return layout.nodeIndexOf[r];
    }
  }
}
