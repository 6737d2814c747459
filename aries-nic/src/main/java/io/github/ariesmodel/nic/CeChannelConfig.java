package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.DeliveryMode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How one virtual collective-engine channel is wired into a reduction tree ({@code GNI_CeConfigure} [S5]): its
 * children (processes of this node and channels of other nodes), its parent (none at the root), the floating-point
 * rounding of its additions ({@code GNI_CE_MODE_ROUND_*}) and the routing mode of the packets it sends
 * ({@code GNI_CE_MODE_RC_*}).
 *
 * <p>A channel has four routing modes, {@code GNI_CE_MODE_RC_NMIN_HASH}, {@code _MIN_HASH}, {@code _MNON_HASH} and
 * {@code _ADAPT} [S5], against the seven of a post ({@code GNI_DLVMODE_*}): NMIN_HASH, MIN_HASH and IN_ORDER (which
 * is {@code MNON_HASH}, aries-facts §2) are kept, and every adaptive mode becomes ADAPTIVE_0, the model's one
 * {@code ADAPT} (assumed: [S5] names no bias for a channel's adaptive routing, and ADAPTIVE_0, no bias, is the
 * default of posts). So an MPI job whose messages go ADAPTIVE_1, 2 or 3 can still use the engine, as a job on the
 * hardware could, and {@link #deliveryMode()} is what the channel's packets carry.
 *
 * @param children 1 to {@value #MAX_CHILDREN} children ({@code GNI_CE_MAX_CHILDREN} [S5]); a child's index is its place
 * @param parent where the combined contribution goes, or null at the root (which sends the result down)
 * @param rounding rounding of floating-point additions
 * @param deliveryMode routing mode of this channel's CE packets: any adaptive mode is stored as ADAPTIVE_0
 */
public record CeChannelConfig(List<CeChild> children, CeParent parent, CeRounding rounding,
    DeliveryMode deliveryMode) {

  /** Most children a channel has ({@code GNI_CE_MAX_CHILDREN} [S5]). */
  public static final int MAX_CHILDREN = 32;

  /** Validates the fields and copies the list. */
  public CeChannelConfig {
    checkArgument(children != null, "children must not be null");
    checkArgument(!children.isEmpty() && children.size() <= MAX_CHILDREN,
        "children must hold 1 to %s children but held %s", MAX_CHILDREN, children.size());
    Set<CeChild> remote = new HashSet<>();
    for (int i = 0; i < children.size(); i++) {
      CeChild c = children.get(i);
      checkArgument(c != null, "children[%s] must not be null", i);
      checkArgument(c.kind() == CeChild.Kind.PE || remote.add(c), "children[%s] repeats %s", i, c);
    }
    checkArgument(rounding != null, "rounding must not be null");
    checkArgument(deliveryMode != null, "deliveryMode must not be null");
    deliveryMode = deliveryMode.adaptive() ? DeliveryMode.ADAPTIVE_0 : deliveryMode;
    children = List.copyOf(children);
  }

  /**
   * A channel with round-to-nearest additions whose packets go by the default routing (ADAPTIVE_0).
   *
   * @param children the children, in index order
   * @param parent the parent, or null for the root
   * @return the configuration
   */
  public static CeChannelConfig of(List<CeChild> children, CeParent parent) {
    return new CeChannelConfig(children, parent, CeRounding.NEAREST, DeliveryMode.ADAPTIVE_0);
  }

  /** @param r the rounding @return this configuration with another rounding */
  public CeChannelConfig withRounding(CeRounding r) {
    return new CeChannelConfig(children, parent, r, deliveryMode);
  }

  /**
   * @param m the routing mode (any adaptive mode becomes ADAPTIVE_0, the channel's {@code ADAPT})
   * @return this configuration with another routing mode for its packets
   */
  public CeChannelConfig withDeliveryMode(DeliveryMode m) {
    return new CeChannelConfig(children, parent, rounding, m);
  }

  /**
   * The uGNI channel mode bit of {@link #deliveryMode()} [S5].
   *
   * @return {@code GNI_CE_MODE_RC_NMIN_HASH} 0x80, {@code _MIN_HASH} 0x100, {@code _MNON_HASH} 0x200 or
   *     {@code _ADAPT} 0x400
   */
  public int gniRoutingMode() {
    return switch (deliveryMode) {
      case NMIN_HASH -> 0x080;
      case MIN_HASH -> 0x100;
      case IN_ORDER -> 0x200;
      default -> 0x400; // ADAPTIVE_0, the only adaptive mode a channel keeps
    };
  }

  /** @return whether this channel is the root of its tree */
  public boolean root() {
    return parent == null;
  }
}
