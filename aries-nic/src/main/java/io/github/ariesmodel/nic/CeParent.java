package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.NetworkAddresses;

/**
 * Where a collective-engine channel sends its combined contribution: a channel of another node's NIC and this
 * channel's child index there (the parent endpoint of {@code GNI_CeConfigure} with its {@code GNI_EpSetCeAttr} child
 * id [S5]).
 *
 * @param node the parent channel's node
 * @param channel the parent channel, 0 to 3
 * @param childIndex this channel's index among the parent's children, 0 to 31
 */
public record CeParent(int node, int channel, int childIndex) {

  /** Validates the fields. */
  public CeParent {
    checkArgument(NetworkAddresses.isValidNodeId(node), "parent.node must be in [0, %s] (18 bits) but was %s",
        NetworkAddress.MAX_NODE_ID, node);
    checkArgument(channel >= 0 && channel < CollectiveEngine.CHANNELS, "parent.channel must be in [0, %s] but was %s",
        CollectiveEngine.CHANNELS - 1, channel);
    checkArgument(childIndex >= 0 && childIndex < CeChannelConfig.MAX_CHILDREN,
        "parent.childIndex must be in [0, %s] but was %s", CeChannelConfig.MAX_CHILDREN - 1, childIndex);
  }
}
