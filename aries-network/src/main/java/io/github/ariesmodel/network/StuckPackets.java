package io.github.ariesmodel.network;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What is left inside a {@link RouterFabric} at one moment, for a run that should have emptied it (a drain cut short
 * by its bound): how many packets, what each waits for, where they sit most, and the oldest one. Made by {@link
 * RouterFabric#stuck()}.
 *
 * @param atPs the moment, ps
 * @param packets packets inside the fabric (injected, not delivered)
 * @param byCause how many wait for each {@link WaitCause} (every cause present, zeros included)
 * @param places the input buffers holding the most of them, most first (at most {@link #MAX_PLACES})
 * @param placeCount how many distinct input buffers (router, port, VC) hold any
 * @param oldest the packet injected earliest, or null when the fabric is empty
 */
public record StuckPackets(
    long atPs, long packets, Map<WaitCause, Long> byCause, List<Place> places, int placeCount, Packet oldest) {

  /** Most places listed. */
  public static final int MAX_PLACES = 8;

  /** What a packet inside the fabric waits for. */
  public enum WaitCause {
    /** Queued for an output port whose downstream VC buffer has no room for it (or behind such a packet). */
    CREDIT,
    /** Queued for an output port whose link is busy sending others (the credits are there). */
    LINK,
    /** At its destination router, queued for or crossing its node's ejection link. */
    EJECTION,
    /** On a wire or in a router's pipeline, between two routers (nothing holds it). */
    IN_TRANSIT
  }

  /**
   * An input buffer and how many packets sit in it.
   *
   * @param router the router
   * @param port the input port, or -1 for a node's injection buffer
   * @param vc the virtual channel
   * @param packets how many
   */
  public record Place(int router, int port, int vc, long packets) { }

  /**
   * One packet inside the fabric.
   *
   * @param source source node
   * @param destination destination node
   * @param tag the packet's tag
   * @param injectedAtPs when the fabric took it, ps
   * @param hops router-to-router hops so far
   * @param router the router whose input buffer holds it (or that it is travelling to)
   * @param port that input port, or -1 for the source node's injection buffer
   * @param vc that buffer's VC
   * @param outputPort the output port it is queued for, or -1 when not queued for one
   * @param cause what it waits for
   */
  public record Packet(int source, int destination, int tag, long injectedAtPs, int hops, int router, int port, int vc,
      int outputPort, WaitCause cause) { }

  /** Copies the maps and lists (the record is immutable). */
  public StuckPackets {
    if (byCause == null) {
      throw new IllegalArgumentException("byCause must not be null");
    }
    if (places == null) {
      throw new IllegalArgumentException("places must not be null");
    }
    // in the causes' order, the same in every JVM (Map.copyOf's order is not)
    EnumMap<WaitCause, Long> causes = new EnumMap<>(WaitCause.class); // (the copy constructor refuses an empty map)
    causes.putAll(byCause);
    byCause = Collections.unmodifiableMap(causes);
    for (int i = 0; i < places.size(); i++) { // (an immutable list's contains(null) throws)
      if (places.get(i) == null) {
        throw new IllegalArgumentException("places must not hold null but held one at index " + i);
      }
    }
    places = List.copyOf(places);
  }

  /**
   * The counts and the age in the line have their thousands grouped with {@code ,} whatever the locale, as the CLI
   * prints every count (the README's number format); the numbers that name something (nodes, tag, router, port, VC)
   * are written plain, as everywhere else.
   *
   * @return one line: how many packets, by cause, the fullest buffer and the oldest packet with its age, e.g. {@code
   *     2,186 packets stuck (credit 1,750, link 0, ejection 0, in transit 436) in 564 buffers, most at router 3 port 7
   *     VC 0 (12); oldest 0->17 tag 42, 2,512 ns old, 3 hops, at router 3 port 7 VC 0, queued for port 2, waits for
   *     credit}
   */
  public String summary() {
    if (packets == 0) {
      return "no packets stuck";
    }
    StringBuilder b = new StringBuilder();
    b.append(count(packets)).append(packets == 1 ? " packet" : " packets").append(" stuck (");
    boolean first = true;
    for (WaitCause c : WaitCause.values()) {
      b.append(first ? "" : ", ").append(name(c)).append(' ').append(count(byCause.getOrDefault(c, 0L)));
      first = false;
    }
    b.append(") in ").append(count(placeCount)).append(placeCount == 1 ? " buffer" : " buffers");
    if (!places.isEmpty()) {
      Place p = places.get(0);
      b.append(", most at ").append(where(p.router(), p.port(), p.vc())).append(" (").append(count(p.packets()))
          .append(')');
    }
    if (oldest != null) {
      Packet o = oldest;
      b.append(String.format(Locale.ROOT, "; oldest %d->%d tag %d, %,d ns old, %,d hops, at %s", o.source(),
          o.destination(), o.tag(), (atPs - o.injectedAtPs()) / 1000, o.hops(), where(o.router(), o.port(), o.vc())));
      if (o.outputPort() >= 0) {
        b.append(", queued for port ").append(o.outputPort());
      }
      b.append(o.cause() == WaitCause.IN_TRANSIT ? ", in transit" : ", waits for " + name(o.cause()));
    }
    return b.toString();
  }

  /** A count with its thousands grouped, {@code 2,186}, as the CLI's {@code Figures.text} writes a whole number. */
  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  private static String where(int router, int port, int vc) {
    return port < 0 ? "router " + router + " injection buffer" : "router " + router + " port " + port + " VC " + vc;
  }

  private static String name(WaitCause c) {
    return c.name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }
}
