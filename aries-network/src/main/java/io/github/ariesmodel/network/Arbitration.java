package io.github.ariesmodel.network;

/** How an output port chooses among its virtual channels' waiting packets. */
public enum Arbitration {
  /** Rotate over the VCs, starting after the one served last. */
  ROUND_ROBIN,
  /** Serve the packet injected earliest (oldest first), ties to the lowest VC. */
  AGE
}
