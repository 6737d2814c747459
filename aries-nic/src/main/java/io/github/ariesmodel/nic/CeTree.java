package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.DeliveryMode;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

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
   * @throws IllegalArgumentException naming the node, its processes and child channels, and the radix (or the
   *     argument that is null)
   */
  public static void check(int[] nodes, int[] processes, int radix, String setting) {
    checkArgument(nodes != null, "nodes must not be null");
    checkArgument(processes != null, "processes must not be null");
    checkArgument(setting != null, "setting must not be null");
    checkArgument(nodes.length == processes.length, "nodes (%s) and processes (%s) must have one entry a NIC",
        nodes.length, processes.length);
    checkArgument(radix >= 1 && radix <= CeChannelConfig.MAX_CHILDREN - 1, "%s must be in [1, 31] but was %s",
        setting, radix);
    int m = nodes.length;
    for (int k = 0; k < m; k++) {
      int kids = childCount(k, m, radix);
      checkArgument(processes[k] >= 1, "processes[%s] must be at least 1 but was %s", k, processes[k]);
      checkArgument((long) processes[k] + kids <= CeChannelConfig.MAX_CHILDREN,
          "the collective engine needs each node's processes plus its child channels (%s %s) to be at most 32, the"
              + " children of a CE channel, but node %s has %s processes and %s child channels",
          setting, radix, nodes[k], processes[k], kids);
    }
  }

  /**
   * Takes a channel on each NIC and configures the tree. A refusal leaves no channel taken.
   *
   * @param nics the NICs, in tree order (NIC 0 is the root), at least one, each once
   * @param processes each NIC's processes
   * @param radix child channels a channel has
   * @param mode routing mode of the tree's packets
   * @return the channel taken on each NIC
   * @throws IllegalArgumentException when an argument or a NIC is null, the list is empty or names a NIC twice, or
   *     {@link #check} refuses the tree; or when a NIC refuses its configuration (a node outside another NIC's
   *     fabric), after the channels taken are freed
   * @throws IllegalStateException when a NIC has no free channel, after the channels taken before it are freed
   */
  public static int[] wire(List<Nic> nics, int[] processes, int radix, DeliveryMode mode) {
    checkArgument(nics != null, "nics must not be null");
    checkArgument(mode != null, "mode must not be null");
    int m = nics.size();
    checkArgument(m >= 1, "nics must hold at least one NIC but held 0");
    int[] nodes = new int[m];
    Map<Nic, Integer> first = new IdentityHashMap<>();
    for (int k = 0; k < m; k++) {
      Nic nic = nics.get(k);
      checkArgument(nic != null, "nics[%s] must not be null", k);
      Integer before = first.putIfAbsent(nic, k);
      checkArgument(before == null, "nics[%s] is nics[%s] again (node %s): a tree takes one channel on each NIC", k,
          before, nic.nodeId());
      nodes[k] = nic.nodeId();
    }
    check(nodes, processes, radix, "radix");
    int[] channel = new int[m];
    int taken = 0;
    try {
      for (; taken < m; taken++) {
        channel[taken] = nics.get(taken).createCollectiveChannel();
      }
      configure(nics, nodes, channel, processes, radix, mode);
    } catch (RuntimeException e) {
      for (int k = 0; k < taken; k++) {
        nics.get(k).destroyCollectiveChannel(channel[k]);
      }
      throw e;
    }
    return channel;
  }

  /** Configures the channel taken on each NIC. */
  private static void configure(List<Nic> nics, int[] nodes, int[] channel, int[] processes, int radix,
      DeliveryMode mode) {
    int m = nodes.length;
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
  }

  /** @return child channels NIC k has in a tree of m NICs */
  private static int childCount(int k, int m, int radix) {
    long first = (long) k * radix + 1;
    long last = Math.min(m - 1L, (long) k * radix + radix);
    return (int) Math.max(0, last - first + 1);
  }
}
