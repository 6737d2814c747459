package io.github.ariesmodel.network.traffic;

import io.github.ariesmodel.network.LinkLoad;
import io.github.ariesmodel.network.StuckPackets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one synthetic-traffic run measured. Loads are fractions of the nodes' injection bandwidth (1.0 = every node
 * injecting at its link rate). Latency is from a packet's creation at the source (so it includes source queueing) to
 * its delivery, for packets created in the measurement window.
 *
 * @param offeredLoad packets created in the window, as a load
 * @param acceptedLoad packets delivered in the window, as a load
 * @param latencyMeanNs mean latency, ns
 * @param latencyP50Ns median latency, ns
 * @param latencyP99Ns 99th percentile, ns
 * @param latencyMaxNs maximum, ns
 * @param meanHops mean router-to-router hops of measured packets
 * @param maxHops most hops of any packet in the run
 * @param minimalFraction fraction of measured packets routed minimally
 * @param measuredPackets packets created in the window
 * @param unfinishedPackets measured packets not delivered when the run stopped
 * @param linkUtilization per link class (rank) name: busy fraction of its links during the window
 * @param vcOccupancyBytes per VC: mean bytes held per router input buffer during the window
 * @param generated packets generated in the whole run
 * @param delivered packets delivered in the whole run
 * @param duplicates packets delivered more than once (must be 0)
 * @param drained whether the run drained the network and found it empty and at rest
 * @param simulatedPs simulated time at the end, ps
 * @param events events executed
 * @param packetHops router-to-router hops executed
 * @param wallSeconds wall-clock time of the simulation (not part of the deterministic result)
 * @param queuedAtSources packets generated but still waiting at their sources when the run stopped
 * @param stuck for a drain that did not empty the network: what is left inside the fabric and what it waits for
 *     ({@link StuckPackets#summary()} says it in one line); null otherwise
 * @param busiestLinks the link directions busiest during the window, busiest first, each {@link LinkLoad#busyPs()}
 *     the window's busy time; empty unless asked for ({@code TrafficExperiment.Builder#busiestLinks})
 */
public record TrafficResult(
    double offeredLoad,
    double acceptedLoad,
    double latencyMeanNs,
    double latencyP50Ns,
    double latencyP99Ns,
    double latencyMaxNs,
    double meanHops,
    int maxHops,
    double minimalFraction,
    long measuredPackets,
    long unfinishedPackets,
    Map<String, Double> linkUtilization,
    double[] vcOccupancyBytes,
    long generated,
    long delivered,
    long duplicates,
    boolean drained,
    long simulatedPs,
    long events,
    long packetHops,
    double wallSeconds,
    long queuedAtSources,
    StuckPackets stuck,
    List<LinkLoad> busiestLinks) {

  /**
   * Refuses a null where a value is required and copies the map, the array and the list, so the result cannot be
   * changed after it is made (until stop 76 the map and the array were the experiment's own and took a caller's
   * writes).
   */
  public TrafficResult {
    if (linkUtilization == null) {
      throw new IllegalArgumentException("linkUtilization must not be null");
    }
    if (vcOccupancyBytes == null) {
      throw new IllegalArgumentException("vcOccupancyBytes must not be null");
    }
    if (busiestLinks == null) {
      throw new IllegalArgumentException("busiestLinks must not be null");
    }
    for (int i = 0; i < busiestLinks.size(); i++) { // (an immutable list's contains(null) throws)
      if (busiestLinks.get(i) == null) {
        throw new IllegalArgumentException("busiestLinks must not hold null but held one at index " + i);
      }
    }
    busiestLinks = List.copyOf(busiestLinks);
    linkUtilization = Collections.unmodifiableMap(new LinkedHashMap<>(linkUtilization)); // in its order
    vcOccupancyBytes = vcOccupancyBytes.clone();
  }

  /** @return per VC: mean bytes held per router input buffer during the window; a copy */
  @Override
  public double[] vcOccupancyBytes() {
    return vcOccupancyBytes.clone();
  }

  /** @return events per wall-clock second */
  public double eventsPerSecond() {
    return wallSeconds > 0 ? events / wallSeconds : 0;
  }

  /** @return packet-hops per wall-clock second */
  public double packetHopsPerSecond() {
    return wallSeconds > 0 ? packetHops / wallSeconds : 0;
  }
}
