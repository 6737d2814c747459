package io.github.ariesmodel.system.trace;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.network.spi.HopListener;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Records chosen packets' journeys through a fabric (from injection at the source node to ejection at the
 * destination) and, on a router fabric, every hop they take (router, output port, virtual channel, time), and writes
 * them in the Chrome trace-event format, which Perfetto ({@code ui.perfetto.dev}) and {@code chrome://tracing} open.
 *
 * <p>Packets are numbered in the order the fabric accepts them (0, 1, 2, ...; one numbering per trace, across every
 * system it is attached to). A {@link Filter} chooses which packets are traced: by source node, destination node,
 * packet number, and a sample rate; at most {@code limit} chosen packets are kept (the first ones injected), so a
 * long run's trace stays small.
 *
 * <p>In the JSON, each traced packet has its own track (process = its source node, named {@code node N}; thread =
 * its number, named {@code packet N to node D}): one complete ("X") event from injection to ejection with its kind,
 * source, destination, hops, wire bytes and tag, and nested in it one "X" event per hop, from the moment the packet
 * leaves a router until it leaves the next one (or is delivered), named for the router, port and VC. Tracing reads
 * packets and times only; it never changes a result.
 *
 * <p>The pid and tid are the node's and the packet's number plus one: Perfetto takes pid 0 and tid 0 for the
 * kernel's idle ("swapper") process and thread, which a synthesized trace must not use (they were the node's and
 * the packet's number, so node 0's first packet was the swapper's, until stop 77); {@code args} name the source node
 * and the packet by their own numbers.
 *
 * <p>A trace attached to several systems (a workload that builds one system per experiment, each starting at time 0)
 * gives each system's nodes processes of their own, named {@code system K node N} (K = 1, 2, ... in the order the
 * systems first inject a packet; a system that injects none takes no number), whose pids follow those of the systems
 * before; {@code args.system} is K (1 when there is one system) and {@code otherData.systems} the count. Their
 * packets were laid on one another under one {@code node N}, at the same times, until stop 77.
 *
 * <p>It decorates any {@link Fabric} ({@link #wrap}), so the router fabric, the ideal network or a user's fabric can
 * be traced alike; hops need the router fabric to call {@link #hopListener()} (the system builder wires it).
 */
public final class PacketTrace {

  private final int limit;
  private final Filter filter;
  private final Map<Packet, Long> inFlight = new IdentityHashMap<>();
  private final List<long[]> journeys = new ArrayList<>();
  private final List<String> names = new ArrayList<>();
  private final List<long[]> hops = new ArrayList<>();
  /** The node count of each system that injected a packet, in the order of their first packets. */
  private final List<Integer> systems = new ArrayList<>();
  private final HopListener hopListener = this::hop;
  private long nextId;
  private long chosen;
  private long dropped;

  /**
   * A trace of every packet, keeping up to {@code limit}.
   *
   * @param limit 1 to 10,000,000
   */
  public PacketTrace(int limit) {
    this(limit, Filter.all());
  }

  /** The most packets a trace keeps: 10,000,000 (assumed: about 3 GB of records and an 8.5 GB file, README). */
  public static final int MAX_LIMIT = 10_000_000;

  /**
   * A trace of the packets a filter chooses, keeping up to {@code limit} of them.
   *
   * @param limit 1 to {@link #MAX_LIMIT}
   * @param filter which packets to trace
   */
  public PacketTrace(int limit, Filter filter) {
    checkArgument(limit >= 1 && limit <= MAX_LIMIT, "limit must be in [1, %s] but was %s", MAX_LIMIT, limit);
    checkArgument(filter != null, "filter must not be null");
    this.limit = limit;
    this.filter = filter;
  }

  /**
   * Which packets a trace keeps. A negative field matches any value.
   *
   * @param source the source node, or -1 for any
   * @param destination the destination node, or -1 for any
   * @param packet the packet number (order of injection), or -1 for any
   * @param sampleRate the fraction of the matching packets kept, in (0, 1]; the choice is a fixed hash of the
   *     packet number, so the same run samples the same packets
   */
  public record Filter(int source, int destination, long packet, double sampleRate) {

    /** Validates the fields. */
    public Filter {
      checkArgument(source >= -1, "source must be a node id or -1 (any) but was %s", source);
      checkArgument(destination >= -1, "destination must be a node id or -1 (any) but was %s", destination);
      checkArgument(packet >= -1, "packet must be a packet number or -1 (any) but was %s", packet);
      checkArgument(sampleRate > 0 && sampleRate <= 1, "sample rate must be in (0, 1] but was %s", sampleRate);
    }

    /**
     * Refuses a filter that names a node a fabric of {@code nodeCount} nodes lacks: it would match no packet, and the
     * trace would stay empty without a word. {@link PacketTrace#wrap} and the system builder call it.
     *
     * @param nodeCount the nodes of the fabric traced
     * @throws IllegalArgumentException naming the field, the fabric's node range and the value
     */
    public void checkNodes(int nodeCount) {
      checkArgument(source < nodeCount, "trace filter src must be in [0, %s] (the nodes of the fabric traced) but was"
          + " %s", nodeCount - 1, source);
      checkArgument(destination < nodeCount, "trace filter dst must be in [0, %s] (the nodes of the fabric traced) but"
          + " was %s", nodeCount - 1, destination);
    }

    /** @return the filter that keeps every packet */
    public static Filter all() {
      return new Filter(-1, -1, -1, 1.0);
    }

    /**
     * Parses {@code all} or comma-separated {@code src=N}, {@code dst=N}, {@code packet=N}, {@code sample=F}
     * (each at most once, any order), e.g. {@code src=0,dst=40} or {@code sample=0.01}.
     *
     * @param spec the text
     * @return the filter
     * @throws IllegalArgumentException naming the bad field and the valid ones
     */
    public static Filter parse(String spec) {
      checkArgument(spec != null && !spec.isBlank(), "trace filter must not be blank");
      String s = spec.trim();
      if (s.equals("all")) {
        return all();
      }
      int src = -1;
      int dst = -1;
      long packet = -1;
      double sample = 1.0;
      java.util.Set<String> seen = new java.util.HashSet<>();
      // -1: a trailing empty field is refused as a leading or inner one is ("src=0," passed, ",src=0" did not)
      for (String part : s.split(",", -1)) {
        int eq = part.indexOf('=');
        String key = eq < 0 ? part.trim() : part.substring(0, eq).trim();
        String value = eq < 0 ? "" : part.substring(eq + 1).trim();
        checkArgument(eq > 0 && !value.isEmpty(), "trace filter fields are src=N, dst=N, packet=N, sample=F but "
            + "got \"%s\"", io.github.ariesmodel.core.Texts.abbreviate(part));
        checkArgument(seen.add(key), "trace filter field %s given twice", key);
        try {
          switch (key) {
            case "src" -> src = Integer.parseInt(value);
            case "dst" -> dst = Integer.parseInt(value);
            case "packet" -> packet = Long.parseLong(value);
            case "sample" -> sample = Double.parseDouble(value);
            default -> throw new IllegalArgumentException("trace filter fields are src, dst, packet, sample but got \""
                + io.github.ariesmodel.core.Texts.abbreviate(key) + "\"");
          }
        } catch (NumberFormatException e) {
          // the range, not "a number": src=1e3 and packet=99999999999999999999 are numbers, and were told they were not
          String kind = switch (key) {
            case "sample" -> "a number in (0, 1]";
            case "packet" -> "a whole number from 0 to " + Long.MAX_VALUE;
            default -> "a whole number from 0 to " + Integer.MAX_VALUE;
          };
          throw new IllegalArgumentException("trace filter field " + key + " must be " + kind + " but was \""
              + io.github.ariesmodel.core.Texts.abbreviate(value) + "\"", e);
        }
        checkArgument(src >= 0 || !key.equals("src"), "trace filter src must be a node id >= 0 but was %s", src);
        checkArgument(dst >= 0 || !key.equals("dst"), "trace filter dst must be a node id >= 0 but was %s", dst);
        checkArgument(packet >= 0 || !key.equals("packet"), "trace filter packet must be >= 0 but was %s", packet);
      }
      return new Filter(src, dst, packet, sample);
    }

    /**
     * @param id the packet's number
     * @param src its source node
     * @param dst its destination node
     * @return whether this filter keeps it
     */
    public boolean keeps(long id, int src, int dst) {
      if ((source >= 0 && src != source) || (destination >= 0 && dst != destination) || (packet >= 0 && id != packet)) {
        return false;
      }
      if (sampleRate >= 1) {
        return true;
      }
      // SplitMix64's finalizer: a fixed, well-mixed hash of the number, mapped to [0, 1).
      long z = id + 0x9E3779B97F4A7C15L;
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      z ^= z >>> 31;
      return (z >>> 11) * 0x1.0p-53 < sampleRate;
    }

    /** @return the form {@link #parse} reads */
    @Override
    public String toString() {
      List<String> parts = new ArrayList<>();
      if (source >= 0) {
        parts.add("src=" + source);
      }
      if (destination >= 0) {
        parts.add("dst=" + destination);
      }
      if (packet >= 0) {
        parts.add("packet=" + packet);
      }
      if (sampleRate < 1) {
        parts.add("sample=" + sampleRate);
      }
      return parts.isEmpty() ? "all" : String.join(",", parts);
    }
  }

  /** @return the filter */
  public Filter filter() {
    return filter;
  }

  /**
   * A fabric that behaves exactly as {@code inner}, numbers the packets it accepts and records the chosen ones.
   *
   * @param inner the fabric to trace
   * @return the tracing fabric
   * @throws IllegalArgumentException when the filter names a node {@code inner} lacks ({@link Filter#checkNodes})
   */
  public Fabric wrap(Fabric inner) {
    checkArgument(inner != null, "inner must not be null");
    filter.checkNodes(inner.nodeCount());
    int[] system = {-1}; // numbered at its first packet: a system built and never run (a check) takes no number
    return new Fabric() {
      @Override
      public int nodeCount() {
        return inner.nodeCount();
      }

      @Override
      public void attach(int nodeId, FabricEndpoint endpoint) {
        inner.attach(nodeId, new FabricEndpoint() {
          @Override
          public void deliver(long nowPs, Packet packet) {
            delivered(nowPs, packet, system[0]);
            endpoint.deliver(nowPs, packet);
          }

          @Override
          public void injectionReady(long nowPs) {
            endpoint.injectionReady(nowPs);
          }
        });
      }

      @Override
      public void attachOnDemand(java.util.function.IntConsumer attacher) {
        inner.attachOnDemand(attacher);
      }

      @Override
      public boolean inject(Packet packet) {
        boolean accepted = inner.inject(packet);
        if (accepted) {
          if (system[0] < 0) {
            system[0] = systems.size();
            systems.add(inner.nodeCount());
          }
          injected(packet);
        }
        return accepted;
      }
    };
  }

  /**
   * The listener a router fabric calls on every hop ({@code RouterFabric.Builder#hopListener}); it records the hops
   * of the packets this trace chose.
   *
   * @return the listener
   */
  public HopListener hopListener() {
    return hopListener;
  }

  private void injected(Packet p) {
    long id = nextId++;
    if (!filter.keeps(id, p.sourceNode(), p.destinationNode())) {
      return;
    }
    if (chosen >= limit) {
      dropped++;
      return;
    }
    chosen++;
    inFlight.put(p, id);
  }

  private void hop(long nowPs, Packet p, int router, int port, int vc, int hop) {
    Long id = inFlight.get(p);
    if (id != null) {
      hops.add(new long[] {id, nowPs, router, port, vc, hop});
    }
  }

  private void delivered(long nowPs, Packet p, int system) {
    Long id = inFlight.remove(p);
    if (id != null) {
      journeys.add(new long[] {p.sourceNode(), p.destinationNode(), p.injectedAtPs(), nowPs, p.hops(),
          p.wireBytes(), p.tag(), id, system});
      names.add(p.kind().name());
    }
  }

  /** @return packets recorded (chosen and delivered) */
  public int recorded() {
    return journeys.size();
  }

  /** @return hops recorded of the chosen packets */
  public int hopsRecorded() {
    return hops.size();
  }

  /** @return packets the filter chose after the limit was reached (not recorded) */
  public long dropped() {
    return dropped;
  }

  /**
   * Writes the trace as Chrome trace-event JSON.
   *
   * @param file the output file
   * @throws IOException when it cannot be written
   */
  public void write(Path file) throws IOException {
    checkArgument(file != null, "file must not be null");
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      write(w);
    }
  }

  /**
   * Writes the trace as Chrome trace-event JSON: per delivered chosen packet, its journey and its hops (see the class
   * comment). Chosen packets still in flight (a run written before it drained) are left out with their hops;
   * {@code otherData} counts the packets and hops written ({@code recorded}, {@code hops}), the chosen packets beyond
   * the limit ({@code dropped}) and those left out in flight ({@code inFlight}).
   *
   * @param w where to write
   * @throws IOException when writing fails
   */
  public void write(Writer w) throws IOException {
    checkArgument(w != null, "w must not be null");
    Map<Long, Integer> journeyOf = new HashMap<>();
    for (int i = 0; i < journeys.size(); i++) {
      journeyOf.put(journeys.get(i)[7], i);
    }
    // the hops written: those of delivered packets (it counted the hops of packets still in flight, which the events
    // leave out, until stop 77); inFlight tells of the chosen packets left out
    long hopsWritten = hops.stream().filter(h -> journeyOf.containsKey(h[0])).count();
    w.write("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"recorded\":" + journeys.size() + ",\"hops\":" + hopsWritten
        + ",\"dropped\":" + dropped + ",\"inFlight\":" + inFlight.size() + ",\"filter\":\"" + filter
        + "\",\"systems\":" + systems.size() + "},\"traceEvents\":[");
    // each system's nodes take the pids after those of the systems before it, from 1 (pid 0 is Perfetto's swapper)
    long[] firstPid = new long[systems.size()];
    for (int k = 1; k < firstPid.length; k++) {
      firstPid[k] = firstPid[k - 1] + systems.get(k - 1);
    }
    String sep = "";
    java.util.Set<Long> namedNodes = new java.util.HashSet<>();
    for (int i = 0; i < journeys.size(); i++) {
      long[] e = journeys.get(i);
      long pid = pid(firstPid, e);
      if (namedNodes.add(pid)) {
        String process = systems.size() > 1 ? "system " + (e[8] + 1) + " node " + e[0] : "node " + e[0];
        w.write(String.format(Locale.ROOT,
            "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"%s\"}}", sep, pid, process));
        sep = ",\n";
      }
      w.write(String.format(Locale.ROOT,
          "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"packet %d to node %d\"}}",
          sep, pid, e[7] + 1, e[7], e[1]));
      sep = ",\n";
      // Chrome trace times are microseconds; picoseconds / 1e6.
      w.write(String.format(Locale.ROOT,
          ",\n{\"name\":\"%s\",\"cat\":\"packet\",\"ph\":\"X\",\"ts\":%.6f,\"dur\":%.6f,\"pid\":%d,\"tid\":%d,"
              + "\"args\":{\"packet\":%d,\"src\":%d,\"dst\":%d,\"hops\":%d,\"wireBytes\":%d,\"tag\":%d,"
              + "\"system\":%d}}",
          names.get(i), e[2] / 1e6, (e[3] - e[2]) / 1e6, pid, e[7] + 1, e[7], e[0], e[1], e[4], e[5], e[6], e[8] + 1));
    }
    // A packet's hops were recorded in time order; each lasts until its next hop, the last until delivery.
    Map<Long, Integer> lastHop = new HashMap<>();
    long[] endOf = new long[hops.size()];
    for (int i = hops.size() - 1; i >= 0; i--) {
      long[] h = hops.get(i);
      Integer next = lastHop.put(h[0], i);
      if (next != null) {
        endOf[i] = hops.get(next)[1];
      } else {
        Integer j = journeyOf.get(h[0]);
        endOf[i] = j == null ? -1 : journeys.get(j)[3];
      }
    }
    for (int i = 0; i < hops.size(); i++) {
      long[] h = hops.get(i);
      Integer j = journeyOf.get(h[0]);
      if (j == null) {
        continue;
      }
      long[] e = journeys.get(j);
      w.write(String.format(Locale.ROOT,
          "%s{\"name\":\"router %d port %d vc %d\",\"cat\":\"hop\",\"ph\":\"X\",\"ts\":%.6f,\"dur\":%.6f,\"pid\":%d,"
              + "\"tid\":%d,\"args\":{\"packet\":%d,\"hop\":%d,\"router\":%d,\"port\":%d,\"vc\":%d,\"src\":%d,"
              + "\"dst\":%d,\"system\":%d}}",
          sep, h[2], h[3], h[4], h[1] / 1e6, (endOf[i] - h[1]) / 1e6, pid(firstPid, e), h[0] + 1, h[0], h[5], h[2],
          h[3], h[4], e[0], e[1], e[8] + 1));
      sep = ",\n";
    }
    w.write("]}\n");
  }

  /** A journey's process: its source node's, after the nodes of the systems before its own, from 1. */
  private static long pid(long[] firstPid, long[] journey) {
    return firstPid[(int) journey[8]] + journey[0] + 1;
  }
}
