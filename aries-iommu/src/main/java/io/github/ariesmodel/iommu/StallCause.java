package io.github.ariesmodel.iommu;

/**
 * Why the translation pipeline could not accept or advance a request (the Aries IOMMU's stall counters, aries-facts
 * §4 [S6c]). A request is counted once per cause it waited for.
 */
public enum StallCause {
  /** Every way of the set the line maps to is pending a fetch ("can't allocate an entry (all ways pending)"). */
  ALL_WAYS_PENDING,
  /** No outstanding fetch buffer is free ("stalls for PTE cache OFB allocation"). */
  NO_FETCH_BUFFER,
  /** The in-flight limit (32 by default) is reached. */
  IN_FLIGHT_LIMIT
}
