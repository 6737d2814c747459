package io.github.ariesmodel.system;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.iommu.TranslationStatistics;
import io.github.ariesmodel.nic.NicStatistics;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A snapshot of a whole system's statistics, summed over the nodes built so far: the NICs' packets, bytes and refused
 * injections, the IOMMUs' translations, hits and misses by client, the router fabric's packets and the utilization of
 * its links by rank, and the event loop's count. Snapshots of several systems (a workload that builds one per
 * distance, say) add up with {@link #plus}.
 *
 * @param elapsedPs simulated time, picoseconds (for a sum: the sum of the systems' times)
 * @param events events the event loop executed
 * @param nodesBuilt nodes built (only built nodes have NICs and IOMMUs)
 * @param nics the NICs' counters, summed
 * @param iommuNodes built nodes whose translation is the IOMMU (0 with the flat translator)
 * @param translations the IOMMUs' counters by client, summed (every client present, zeros when idle)
 * @param fabric the router fabric's counters, or null for the ideal network or a user's fabric
 */
public record SystemStatistics(
    long elapsedPs,
    long events,
    int nodesBuilt,
    Nics nics,
    int iommuNodes,
    Map<TranslationClient, Translations> translations,
    Fabric fabric) {

  /** Validates and copies the map so the snapshot cannot change. */
  public SystemStatistics {
    checkArgument(nics != null, "nics must not be null");
    checkArgument(translations != null && translations.size() == TranslationClient.values().length,
        "translations must hold every client but was %s", translations);
    for (TranslationClient c : TranslationClient.values()) {
      // (get, not containsValue(null): an immutable map throws for that)
      checkArgument(translations.get(c) != null, "translations must hold every client but was %s", translations);
    }
    // in the clients' order, the same in every JVM (Map.copyOf's order is not: stop 76's API hunt saw three orders in
    // six runs), as IommuStatistics keeps its own
    translations = Collections.unmodifiableMap(new EnumMap<>(translations));
  }

  /**
   * The NICs' counters, summed over nodes.
   *
   * @param posts posts accepted
   * @param packetsSent packets injected into the fabric
   * @param packetsReceived packets received from it
   * @param payloadBytesSent payload bytes sent
   * @param wireBytesSent bytes on the wire, headers included
   * @param injectionsRefused injections the fabric refused (no space in its injection buffer), each retried
   * @param transactionsCompleted transactions completed, successfully or not (as {@code NicStatistics}' own: those
   *     that failed are counted here and in {@code transactionsFailed}; this said "without error" until stop 76)
   * @param transactionsFailed transactions completed with an error
   */
  public record Nics(long posts, long packetsSent, long packetsReceived, long payloadBytesSent, long wireBytesSent,
      long injectionsRefused, long transactionsCompleted, long transactionsFailed) {

    static Nics of(NicStatistics s) {
      return new Nics(s.posts(), s.packetsSent(), s.packetsReceived(), s.payloadBytesSent(), s.wireBytesSent(),
          s.injectionsRefused(), s.transactionsCompleted(), s.transactionsFailed());
    }

    /** @param o more counters @return the sum */
    public Nics plus(Nics o) {
      checkArgument(o != null, "o must not be null");
      return new Nics(posts + o.posts, packetsSent + o.packetsSent, packetsReceived + o.packetsReceived,
          payloadBytesSent + o.payloadBytesSent, wireBytesSent + o.wireBytesSent,
          injectionsRefused + o.injectionsRefused, transactionsCompleted + o.transactionsCompleted,
          transactionsFailed + o.transactionsFailed);
    }
  }

  /**
   * One client's IOMMU counters, summed over nodes.
   *
   * @param translations completed translations, faults included
   * @param hits translations served from the PTE cache alone
   * @param misses translations that fetched a PTE line
   * @param mergedMisses translations that waited for a fetch another request started
   */
  public record Translations(long translations, long hits, long misses, long mergedMisses) {
    static final Translations NONE = new Translations(0, 0, 0, 0);

    static Translations of(TranslationStatistics s) {
      return new Translations(s.translations(), s.hits(), s.misses(), s.mergedMisses());
    }

    /** @param o more counters @return the sum */
    public Translations plus(Translations o) {
      checkArgument(o != null, "o must not be null");
      return new Translations(translations + o.translations, hits + o.hits, misses + o.misses,
          mergedMisses + o.mergedMisses);
    }

    /** @return hits / (hits + misses + merged misses) as the IOMMU reports it, or 0 when nothing walked */
    public double hitRate() {
      long n = hits + misses + mergedMisses;
      return n == 0 ? 0 : (double) hits / n;
    }
  }

  /**
   * The router fabric's counters.
   *
   * @param injected packets injected
   * @param delivered packets delivered
   * @param packetHops router-to-router link traversals
   * @param nonMinimalDelivered delivered packets routed through an intermediate
   * @param links utilization of each link rank (class), in the topology's order
   */
  public record Fabric(long injected, long delivered, long packetHops, long nonMinimalDelivered, List<LinkRank> links) {
    /** Validates and copies the list. */
    public Fabric {
      checkArgument(links != null, "links must not be null");
      for (int i = 0; i < links.size(); i++) {
        checkArgument(links.get(i) != null, "links[%s] must not be null", i);
      }
      links = List.copyOf(links);
    }

    /** @param o another fabric's counters on the same kind of topology @return the sum */
    public Fabric plus(Fabric o) {
      checkArgument(o != null, "o must not be null");
      checkArgument(o.links.size() == links.size(), "fabrics must have the same link ranks but had %s and %s",
          links.size(), o.links.size());
      List<LinkRank> sum = new ArrayList<>();
      for (int i = 0; i < links.size(); i++) {
        sum.add(links.get(i).plus(o.links.get(i)));
      }
      return new Fabric(injected + o.injected, delivered + o.delivered, packetHops + o.packetHops,
          nonMinimalDelivered + o.nonMinimalDelivered, sum);
    }
  }

  /**
   * The links of one rank (class).
   *
   * @param name the rank's name ({@code rank-1}, {@code rank-2}, {@code rank-3}, or {@code local}, {@code global})
   * @param links cabled link directions of this rank
   * @param busyPs picoseconds they spent serializing, summed
   * @param capacityPs links × elapsed time, picoseconds (for a sum: summed over the systems), exact: a BigInteger
   *     because the product passes {@code Long.MAX_VALUE} after 27 s of simulated time on the full system (347,040
   *     link directions of one rank) or 7 minutes on Edison; as a long it wrapped to a negative capacity and
   *     utilization (until stop 76)
   */
  public record LinkRank(String name, int links, long busyPs, BigInteger capacityPs) {
    /** Validates the name and the capacity. */
    public LinkRank {
      checkArgument(name != null, "name must not be null");
      checkArgument(capacityPs != null && capacityPs.signum() >= 0, "capacityPs must be >= 0 but was %s",
          capacityPs);
    }

    /**
     * The links of one rank over one system's run.
     *
     * @param name the rank's name
     * @param links cabled link directions of this rank
     * @param busyPs picoseconds they spent serializing, summed
     * @param elapsedPs the simulated time they had
     * @return the rank's counters, its capacity {@code links × elapsedPs}
     */
    public static LinkRank over(String name, int links, long busyPs, long elapsedPs) {
      checkArgument(elapsedPs >= 0, "elapsedPs must be >= 0 but was %s", elapsedPs);
      return new LinkRank(name, links, busyPs, BigInteger.valueOf(links).multiply(BigInteger.valueOf(elapsedPs)));
    }

    /** @param o the same rank of another system @return the sum */
    public LinkRank plus(LinkRank o) {
      checkArgument(o != null, "o must not be null");
      checkArgument(o.name.equals(name), "link ranks must match but were %s and %s", name, o.name);
      return new LinkRank(name, links + o.links, busyPs + o.busyPs, capacityPs.add(o.capacityPs));
    }

    /** @return busy time / capacity: the mean utilization of this rank's links, 0 when no time passed */
    public double utilization() {
      return capacityPs.signum() == 0 ? 0 : busyPs / capacityPs.doubleValue();
    }
  }

  static SystemStatistics of(AriesSystem s) {
    Nics nics = new Nics(0, 0, 0, 0, 0, 0, 0, 0);
    Map<TranslationClient, Translations> tr = new EnumMap<>(TranslationClient.class);
    for (TranslationClient c : TranslationClient.values()) {
      tr.put(c, Translations.NONE);
    }
    int built = 0;
    int iommus = 0;
    for (int id = 0; id < s.nodeCount(); id++) {
      Node n = s.builtNodeOrNull(id);
      if (n == null) {
        continue;
      }
      built++;
      nics = nics.plus(Nics.of(n.nicStatistics()));
      var st = n.iommuStatistics();
      if (st.isPresent()) {
        iommus++;
        for (TranslationClient c : TranslationClient.values()) {
          tr.merge(c, Translations.of(st.get().client(c)), Translations::plus);
        }
      }
    }
    long now = s.now();
    Fabric fabric = s.routerFabric().map(f -> {
      List<LinkRank> links = new ArrayList<>();
      for (int c = 0; c < f.linkClassCount(); c++) {
        links.add(LinkRank.over(s.topology().linkClassName(c), f.linkCount(c), f.busyPs(c), now));
      }
      return new Fabric(f.injected(), f.delivered(), f.packetHops(), f.nonMinimalDelivered(), links);
    }).orElse(null);
    return new SystemStatistics(now, s.eventsExecuted(), built, nics, iommus, tr, fabric);
  }

  /**
   * The sum of two snapshots (two systems of one run).
   *
   * @param o the other snapshot
   * @return the sum; the fabric part sums when both have router fabrics, else it is the one present
   */
  public SystemStatistics plus(SystemStatistics o) {
    checkArgument(o != null, "o must not be null");
    Map<TranslationClient, Translations> tr = new EnumMap<>(TranslationClient.class);
    for (TranslationClient c : TranslationClient.values()) {
      tr.put(c, translations.get(c).plus(o.translations.get(c)));
    }
    Fabric f = fabric == null ? o.fabric : o.fabric == null ? fabric : fabric.plus(o.fabric);
    return new SystemStatistics(elapsedPs + o.elapsedPs, events + o.events, nodesBuilt + o.nodesBuilt,
        nics.plus(o.nics), iommuNodes + o.iommuNodes, tr, f);
  }

  /** A few lines: time and events, NICs, IOMMUs by client (idle clients left out), fabric and links by rank. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
        "SystemStatistics{%.3f us simulated, %d events, %d nodes built}%n", elapsedPs / 1e6, events, nodesBuilt));
    b.append(String.format(Locale.ROOT,
        "  nics: %d posts, %d tx completed (%d failed), sent %d pkts %d payload / %d wire B, received %d pkts, %d refused%n",
        nics.posts, nics.transactionsCompleted, nics.transactionsFailed, nics.packetsSent, nics.payloadBytesSent,
        nics.wireBytesSent, nics.packetsReceived, nics.injectionsRefused));
    b.append("  iommus: ").append(iommuNodes).append(" nodes");
    for (TranslationClient c : TranslationClient.values()) {
      Translations t = translations.get(c);
      if (t.translations > 0) {
        b.append(String.format(Locale.ROOT, ", %s %d (%d hits, %d misses, %d merged)", c, t.translations, t.hits,
            t.misses, t.mergedMisses));
      }
    }
    b.append(String.format("%n"));
    if (fabric == null) {
      b.append("  fabric: no routers");
    } else {
      b.append(String.format(Locale.ROOT, "  fabric: %d injected, %d delivered (%d non-minimal), %d hops; links",
          fabric.injected, fabric.delivered, fabric.nonMinimalDelivered, fabric.packetHops));
      for (LinkRank l : fabric.links) {
        b.append(String.format(Locale.ROOT, " %s %.2f%%", l.name, 100 * l.utilization()));
      }
    }
    return b.toString();
  }
}
