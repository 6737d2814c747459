package io.github.ariesmodel.system.trace;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketKind;
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
  /** The chosen packets in flight: {their slot, the index of their last hop recorded or -1}. */
  private final Map<Packet, int[]> inFlight = new IdentityHashMap<>();
  // The records are primitive arrays (Ints, Longs, Bytes), no object per packet or hop: a packet of three hops took
  // about 0.3 KB as a long[] per journey and per hop, it takes about 0.12 KB (stop 78; README's --trace).
  // A chosen packet's journey, by its slot (0, 1, 2, ... in the order the trace chose the packets), set at delivery.
  /** The packets' numbers by slot; null while every chosen packet's number is its slot (no filter, the default). */
  private Longs ids;
  private final Ints sources = new Ints();
  private final Ints destinations = new Ints();
  private final Longs injectedAt = new Longs();
  private final Longs deliveredAt = new Longs();
  private final Ints hopCounts = new Ints();
  private final Ints wireBytes = new Ints();
  private final Ints tags = new Ints();
  private final Ints systemOf = new Ints();
  /** The kind's ordinal plus 1; 0 while the packet is in flight. */
  private final Bytes kinds = new Bytes();
  /** The slots in the order the packets were delivered: the order the journeys are written. */
  private final Ints deliveries = new Ints();
  // The hops, in the order they were recorded (a packet's in time order).
  private final Ints hopSlot = new Ints();
  private final Longs hopAt = new Longs();
  private final Ints hopRouter = new Ints();
  /** Port, VC and hop index packed ({@link #pack}), or {@link #WIDE} when one does not fit ({@link #wideHops}). */
  private final Ints hopFields = new Ints();
  /** The index of the packet's next hop, or -1 for its last hop recorded (which lasts until delivery). */
  private final Ints hopNext = new Ints();
  /** Port, VC and hop index of the hops whose fields do not fit {@link #pack}, by the hop's index. */
  private final Map<Integer, int[]> wideHops = new HashMap<>();
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

  /** The most packets a trace keeps: 10,000,000 (assumed: about 1.2 GB of records of 3 hops and an 8.5 GB file). */
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
    int slot = (int) chosen++;
    if (ids == null && id != slot) {
      ids = new Longs();
      for (int i = 0; i < slot; i++) {
        ids.set(i, i);
      }
    }
    if (ids != null) {
      ids.set(slot, id);
    }
    inFlight.put(p, new int[] {slot, -1});
  }

  private void hop(long nowPs, Packet p, int router, int port, int vc, int hop) {
    int[] f = inFlight.get(p);
    if (f == null) {
      return;
    }
    int i = hopSlot.size();
    if (f[1] >= 0) {
      hopNext.set(f[1], i);
    }
    f[1] = i;
    hopSlot.set(i, f[0]);
    hopAt.set(i, nowPs);
    hopRouter.set(i, router);
    hopNext.set(i, -1);
    if (port >= 0 && port < 0xFFFF && vc >= 0 && vc <= 0xFF && hop >= 0 && hop <= 0xFF) {
      hopFields.set(i, pack(port, vc, hop));
    } else {
      hopFields.set(i, WIDE);
      wideHops.put(i, new int[] {port, vc, hop});
    }
  }

  /** Marks a hop whose port, VC or hop index does not fit {@link #pack}: the fields of a port 0xFFFF, VC and hop 0xFF. */
  private static final int WIDE = -1;

  /** Port in bits 31-16 (0 to 0xFFFE), VC in bits 15-8 and the hop index in bits 7-0 (0 to 0xFF each). */
  private static int pack(int port, int vc, int hop) {
    return port << 16 | vc << 8 | hop;
  }

  private void delivered(long nowPs, Packet p, int system) {
    int[] f = inFlight.remove(p);
    if (f == null) {
      return;
    }
    int slot = f[0];
    sources.set(slot, p.sourceNode());
    destinations.set(slot, p.destinationNode());
    injectedAt.set(slot, p.injectedAtPs());
    deliveredAt.set(slot, nowPs);
    hopCounts.set(slot, p.hops());
    wireBytes.set(slot, p.wireBytes());
    tags.set(slot, p.tag());
    systemOf.set(slot, system);
    kinds.set(slot, (byte) (p.kind().ordinal() + 1));
    deliveries.set(deliveries.size(), slot);
  }

  /** @return packets recorded (chosen and delivered) */
  public int recorded() {
    return deliveries.size();
  }

  /** @return hops recorded of the chosen packets */
  public int hopsRecorded() {
    return hopSlot.size();
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
    // the hops written: those of delivered packets (it counted the hops of packets still in flight, which the events
    // leave out, until stop 77); inFlight tells of the chosen packets left out
    long hopsWritten = 0;
    for (int i = 0; i < hopSlot.size(); i++) {
      if (kinds.get(hopSlot.get(i)) != 0) {
        hopsWritten++;
      }
    }
    JsonText out = new JsonText(w);
    StringBuilder b = out.text;
    b.append("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"recorded\":").append(deliveries.size())
        .append(",\"hops\":").append(hopsWritten).append(",\"dropped\":").append(dropped).append(",\"inFlight\":")
        .append(inFlight.size()).append(",\"filter\":\"").append(filter).append("\",\"systems\":")
        .append(systems.size()).append("},\"traceEvents\":[");
    // each system's nodes take the pids after those of the systems before it, from 1 (pid 0 is Perfetto's swapper)
    long[] firstPid = new long[systems.size()];
    for (int k = 1; k < firstPid.length; k++) {
      firstPid[k] = firstPid[k - 1] + systems.get(k - 1);
    }
    PacketKind[] kindValues = PacketKind.values();
    boolean first = true;
    java.util.Set<Long> namedNodes = new java.util.HashSet<>();
    for (int i = 0; i < deliveries.size(); i++) {
      int slot = deliveries.get(i);
      long id = ids == null ? slot : ids.get(slot);
      int src = sources.get(slot);
      int system = systemOf.get(slot);
      long pid = firstPid[system] + src + 1;
      if (namedNodes.add(pid)) {
        b.append(first ? "" : ",\n").append("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":").append(pid)
            .append(",\"args\":{\"name\":\"");
        if (systems.size() > 1) {
          b.append("system ").append(system + 1).append(' ');
        }
        b.append("node ").append(src).append("\"}}");
        first = false;
      }
      b.append(first ? "" : ",\n").append("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":").append(pid)
          .append(",\"tid\":").append(id + 1).append(",\"args\":{\"name\":\"packet ").append(id).append(" to node ")
          .append(destinations.get(slot)).append("\"}}");
      first = false;
      // Chrome trace times are microseconds; picoseconds / 10^6.
      long injected = injectedAt.get(slot);
      b.append(",\n{\"name\":\"").append(kindValues[kinds.get(slot) - 1].name())
          .append("\",\"cat\":\"packet\",\"ph\":\"X\",\"ts\":");
      micros(b, injected);
      b.append(",\"dur\":");
      micros(b, deliveredAt.get(slot) - injected);
      b.append(",\"pid\":").append(pid).append(",\"tid\":").append(id + 1).append(",\"args\":{\"packet\":").append(id)
          .append(",\"src\":").append(src).append(",\"dst\":").append(destinations.get(slot)).append(",\"hops\":")
          .append(hopCounts.get(slot)).append(",\"wireBytes\":").append(wireBytes.get(slot)).append(",\"tag\":")
          .append(tags.get(slot)).append(",\"system\":").append(system + 1).append("}}");
      out.flushWhenFull();
    }
    // A packet's hops were recorded in time order; each lasts until its next hop, the last until delivery.
    for (int i = 0; i < hopSlot.size(); i++) {
      int slot = hopSlot.get(i);
      if (kinds.get(slot) == 0) {
        continue;
      }
      long id = ids == null ? slot : ids.get(slot);
      int src = sources.get(slot);
      int system = systemOf.get(slot);
      int router = hopRouter.get(i);
      int fields = hopFields.get(i);
      int[] wide = fields == WIDE ? wideHops.get(i) : null;
      int port = wide == null ? fields >>> 16 : wide[0];
      int vc = wide == null ? fields >>> 8 & 0xFF : wide[1];
      int hop = wide == null ? fields & 0xFF : wide[2];
      long at = hopAt.get(i);
      int next = hopNext.get(i);
      long end = next < 0 ? deliveredAt.get(slot) : hopAt.get(next);
      b.append(first ? "" : ",\n").append("{\"name\":\"router ").append(router).append(" port ").append(port)
          .append(" vc ").append(vc).append("\",\"cat\":\"hop\",\"ph\":\"X\",\"ts\":");
      micros(b, at);
      b.append(",\"dur\":");
      micros(b, end - at);
      b.append(",\"pid\":").append(firstPid[system] + src + 1).append(",\"tid\":").append(id + 1)
          .append(",\"args\":{\"packet\":").append(id).append(",\"hop\":").append(hop).append(",\"router\":")
          .append(router).append(",\"port\":").append(port).append(",\"vc\":").append(vc).append(",\"src\":")
          .append(src).append(",\"dst\":").append(destinations.get(slot)).append(",\"system\":").append(system + 1)
          .append("}}");
      first = false;
      out.flushWhenFull();
    }
    b.append("]}\n");
    out.flush();
  }

  /**
   * Appends {@code ps} in microseconds with six decimals, as {@code String.format(Locale.ROOT, "%.6f", ps / 1e6)}
   * does (the writer's form until stop 78), without the double: from 0 to 10^15 ps (1,000 s) the double's digits
   * round to the picosecond exactly (its ulp stays below 2^-23 us, 0.12 ps, under half a picosecond), so its
   * text is the whole and fractional microseconds of the integer. Other values take the formatter, as before.
   *
   * @param b where to append
   * @param ps picoseconds
   */
  static void micros(StringBuilder b, long ps) {
    if (ps < 0 || ps >= 1_000_000_000_000_000L) {
      b.append(String.format(Locale.ROOT, "%.6f", ps / 1e6));
      return;
    }
    b.append(ps / 1_000_000).append('.');
    int fraction = (int) (ps % 1_000_000);
    for (int d = 100_000; d > fraction && d > 1; d /= 10) {
      b.append('0');
    }
    b.append(fraction);
  }

  /** The text being written, handed to the writer in blocks of about 64 K characters through one reused buffer. */
  private static final class JsonText {
    private static final int BLOCK = 1 << 16;
    final StringBuilder text = new StringBuilder(BLOCK + 1024);
    private final char[] chars = new char[BLOCK + 1024];
    private final Writer w;

    JsonText(Writer w) {
      this.w = w;
    }

    void flushWhenFull() throws IOException {
      if (text.length() >= BLOCK) {
        flush();
      }
    }

    void flush() throws IOException {
      int n = text.length();
      char[] c = n <= chars.length ? chars : new char[n];
      text.getChars(0, n, c, 0);
      w.write(c, 0, n);
      text.setLength(0);
    }
  }

  /** Chunks of 8,192 elements: growing copies none, and the last chunk is all a record array holds unused. */
  private static final int CHUNK_BITS = 13;
  private static final int CHUNK = 1 << CHUNK_BITS;
  private static final int CHUNK_MASK = CHUNK - 1;

  /** A growable array of ints in chunks; an element never set reads 0. */
  private static final class Ints {
    private int[][] chunks = new int[8][];
    private int size;

    int size() {
      return size;
    }

    void set(int i, int v) {
      int c = i >>> CHUNK_BITS;
      if (c >= chunks.length) {
        chunks = java.util.Arrays.copyOf(chunks, Math.max(2 * chunks.length, c + 1));
      }
      if (chunks[c] == null) {
        chunks[c] = new int[CHUNK];
      }
      chunks[c][i & CHUNK_MASK] = v;
      size = Math.max(size, i + 1);
    }

    int get(int i) {
      int[] chunk = i < size ? chunks[i >>> CHUNK_BITS] : null;
      return chunk == null ? 0 : chunk[i & CHUNK_MASK];
    }
  }

  /** A growable array of longs in chunks; an element never set reads 0. */
  private static final class Longs {
    private long[][] chunks = new long[8][];
    private int size;

    void set(int i, long v) {
      int c = i >>> CHUNK_BITS;
      if (c >= chunks.length) {
        chunks = java.util.Arrays.copyOf(chunks, Math.max(2 * chunks.length, c + 1));
      }
      if (chunks[c] == null) {
        chunks[c] = new long[CHUNK];
      }
      chunks[c][i & CHUNK_MASK] = v;
      size = Math.max(size, i + 1);
    }

    long get(int i) {
      long[] chunk = i < size ? chunks[i >>> CHUNK_BITS] : null;
      return chunk == null ? 0 : chunk[i & CHUNK_MASK];
    }
  }

  /** A growable array of bytes in chunks; an element never set reads 0. */
  private static final class Bytes {
    private byte[][] chunks = new byte[8][];
    private int size;

    void set(int i, byte v) {
      int c = i >>> CHUNK_BITS;
      if (c >= chunks.length) {
        chunks = java.util.Arrays.copyOf(chunks, Math.max(2 * chunks.length, c + 1));
      }
      if (chunks[c] == null) {
        chunks[c] = new byte[CHUNK];
      }
      chunks[c][i & CHUNK_MASK] = v;
      size = Math.max(size, i + 1);
    }

    byte get(int i) {
      byte[] chunk = i < size ? chunks[i >>> CHUNK_BITS] : null;
      return chunk == null ? 0 : chunk[i & CHUNK_MASK];
    }
  }
}
