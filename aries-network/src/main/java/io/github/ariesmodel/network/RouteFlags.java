package io.github.ariesmodel.network;

/**
 * Bits of {@link io.github.ariesmodel.core.packet.Packet#routeFlags()} the fabric and the built-in routings use. User
 * routings may use bits from {@link #FIRST_USER_BIT} up.
 */
public final class RouteFlags {

  /** Set by the fabric when a candidate with an intermediate was chosen: the packet travels non-minimally. */
  public static final int NON_MINIMAL = 1;
  /** Set by the built-in routings once their source decision (minimal or not) is made. */
  public static final int DECIDED = 1 << 1;
  /** The lowest bit free for user routings. */
  public static final int FIRST_USER_BIT = 1 << 8;

  private RouteFlags() {}
}
