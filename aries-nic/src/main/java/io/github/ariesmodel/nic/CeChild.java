package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.NetworkAddresses;

/**
 * One child of a collective-engine channel (uGNI's {@code gni_ce_child_t} [S5]): a process on the channel's own node,
 * which contributes with {@link Nic#postCollective}, or a channel of another node's NIC, whose combined contribution
 * arrives over the network. A child's place in {@link CeChannelConfig#children()} is its child index, which a
 * process names in its posts and a child channel names in its {@link CeParent}.
 *
 * @param kind a process ({@link Kind#PE}) or a channel of another NIC ({@link Kind#VCE})
 * @param node the child channel's node (-1 for a process)
 * @param channel the child channel at that node (-1 for a process)
 */
public record CeChild(Kind kind, int node, int channel) {

  /** What a child is ({@code GNI_CE_CHILD_PE}, {@code GNI_CE_CHILD_VCE} [S5]). */
  public enum Kind {
    /** A process of this node, contributing through its own posts. */
    PE,
    /** A virtual CE channel of another node, contributing its subtree's combined value. */
    VCE
  }

  /** Validates the fields. */
  public CeChild {
    checkArgument(kind != null, "kind must not be null");
    if (kind == Kind.PE) {
      checkArgument(node == -1 && channel == -1, "a PE child has no node or channel (-1) but had %s and %s", node,
          channel);
    } else {
      checkArgument(NetworkAddresses.isValidNodeId(node), "node must be in [0, %s] (18 bits) but was %s",
          NetworkAddress.MAX_NODE_ID, node);
      checkArgument(channel >= 0 && channel < CollectiveEngine.CHANNELS, "channel must be in [0, %s] but was %s",
          CollectiveEngine.CHANNELS - 1, channel);
    }
  }

  /** @return a process child of this node */
  public static CeChild pe() {
    return new CeChild(Kind.PE, -1, -1);
  }

  /**
   * A child channel of another node.
   *
   * @param node its node
   * @param channel its channel there, 0 to 3
   * @return the child
   */
  public static CeChild channel(int node, int channel) {
    return new CeChild(Kind.VCE, node, channel);
  }

  @Override
  public String toString() {
    return kind == Kind.PE ? "pe" : "vce(" + node + ":" + channel + ")";
  }
}
