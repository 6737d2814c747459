package io.github.ariesmodel.system;

/** Which network a system is built with. */
public enum FabricKind {
  /** The packet-level dragonfly router fabric of {@code aries-network}. */
  ROUTERS,
  /**
   * An ideal fixed-latency network (no routers, no serialization limit): the NIC pair alone, for calibration and NIC
   * studies.
   */
  IDEAL
}
