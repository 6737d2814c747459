package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.DeliveryMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Wires a reduction tree of collective-engine channels over a set of NICs, one channel on each, the way a job's
 * launcher would (Cray's uGNI CE example builds the same shape: one virtual CE channel a node, the node's processes
 * as PE children, the nodes in a tree of small radix [S5 companion, aries-facts §5]). NIC k's parent is NIC
 * (k - 1) / radix; its channel's children are its processes first (child indexes 0 to processes - 1, in the order
 * the caller gives them) and then its child NICs' channels.
 */
public final class CeTree {

  private CeTree() {}

  /**
   * Refuses, before anything is made, a tree in which some channel would have more than 32 children.
   *
   * @param nodes each NIC's node id, for the message
   * @param processes each NIC's processes, at least 1
   * @param radix child channels a channel has, 1 to 31
   * @param setting the name of the radix setting, for the message
   * @throws IllegalArgumentException naming the node, its processes and child channels, and the radix
   */
  public static void check(int[] nodes, int[] processes, int radix, String setting) {
    checkArgument(nodes.length == processes.length, "nodes (%s) and processes (%s) must have one entry a NIC",
        nodes.length, processes.length);
    checkArgument(radix >= 1 && radix <= CeChannelConfig.MAX_CHILDREN - 1, "%s must be in [1, 31] but was %s",
        setting, radix);
    int m = nodes.length;
    for (int k = 0; k < m; k++) {
      int kids = childCount(k, m, radix);
      checkArgument(processes[k] >= 1, "processes[%s] must be at least 1 but was %s", k, processes[k]);
      checkArgument(processes[k] + kids <= CeChannelConfig.MAX_CHILDREN, "the collective engine needs each node's"
          + " processes plus its child channels (%s %s) to be at most 32, the children of a CE channel, but node %s"
          + " has %s processes and %s child channels", setting, radix, nodes[k], processes[k], kids);
    }
  }

  /**
   * Takes a channel on each NIC and configures the tree.
   *
   * @param nics the NICs, in tree order (NIC 0 is the root)
   * @param processes each NIC's processes
   * @param radix child channels a channel has
   * @param mode routing mode of the tree's packets
   * @return the channel taken on each NIC
   * @throws IllegalStateException when a NIC has no free channel (the channels taken before it stay taken)
   */
  public static int[] wire(List<Nic> nics, int[] processes, int radix, DeliveryMode mode) {
    int m = nics.size();
    int[] nodes = new int[m];
    for (int k = 0; k < m; k++) {
      nodes[k] = nics.get(k).nodeId();
    }
    check(nodes, processes, radix, "radix");
    int[] channel = new int[m];
    for (int k = 0; k < m; k++) {
      channel[k] = nics.get(k).createCollectiveChannel();
    }
    for (int k = 0; k < m; k++) {
      List<CeChild> children = new ArrayList<>();
      for (int p = 0; p < processes[k]; p++) {
        children.add(CeChild.pe());
      }
      for (int c = k * radix + 1; c <= k * radix + radix && c < m; c++) {
        children.add(CeChild.channel(nodes[c], channel[c]));
      }
      CeParent parent = null;
      if (k > 0) {
        int p = (k - 1) / radix;
        parent = new CeParent(nodes[p], channel[p], processes[p] + (k - 1) % radix);
      }
      nics.get(k).configureCollectiveChannel(channel[k], CeChannelConfig.of(children, parent).withDeliveryMode(mode));
    }
    return channel;
  }

  /** @return child channels NIC k has in a tree of m NICs */
  private static int childCount(int k, int m, int radix) {
    long first = (long) k * radix + 1;
    long last = Math.min(m - 1L, (long) k * radix + radix);
    return (int) Math.max(0, last - first + 1);
  }
}
