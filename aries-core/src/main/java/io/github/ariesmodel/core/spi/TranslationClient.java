package io.github.ariesmodel.core.spi;

/**
 * The four clients of the NIC's IOMMU (aries-facts §4): it translates for incoming network requests, arriving
 * network responses (GET data landing at the initiator), NIC-generated local reads (PUT source data) and
 * completion-event writes. Statistics are kept per client.
 */
public enum TranslationClient {
  /** A PUT, GET or AMO request arriving from the network at the target. */
  NETWORK_REQUEST,
  /** A response arriving at the initiator whose data must be written locally. */
  NETWORK_RESPONSE,
  /** A read of local memory the NIC makes itself (source data of a PUT). */
  LOCAL_READ,
  /** A completion-queue event write. */
  COMPLETION_WRITE
}
