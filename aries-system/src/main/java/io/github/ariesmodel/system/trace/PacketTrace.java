package io.github.ariesmodel.system.trace;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Records packets' journeys through a fabric (from injection at the source node to ejection at the destination)
 * and writes them in the Chrome trace-event format, which Perfetto ({@code ui.perfetto.dev}) and
 * {@code chrome://tracing} open. Each delivered packet becomes one complete ("X") event on the track of its source
 * node, starting at injection and lasting until ejection, with its kind, destination, hops, wire bytes and tag.
 *
 * <p>It decorates any {@link Fabric} ({@link #wrap}), so the router fabric, the ideal network or a user's fabric
 * can be traced alike. At most {@code limit} packets are kept (the first ones delivered), so a long run's trace
 * stays small. Tracing reads packets and times only; it never changes a result.
 */
public final class PacketTrace {

  private final int limit;
  private final List<long[]> events = new ArrayList<>();
  private final List<String> names = new ArrayList<>();
  private long dropped;

  /**
   * A trace that keeps up to {@code limit} packets.
   *
   * @param limit 1 to 10,000,000
   */
  public PacketTrace(int limit) {
    if (limit < 1 || limit > 10_000_000) {
      throw new IllegalArgumentException("limit must be in [1, 10000000] but was " + limit);
    }
    this.limit = limit;
  }

  /**
   * A fabric that behaves exactly as {@code inner} and records every packet it delivers.
   *
   * @param inner the fabric to trace
   * @return the tracing fabric
   */
  public Fabric wrap(Fabric inner) {
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
            record(nowPs, packet);
            endpoint.deliver(nowPs, packet);
          }

          @Override
          public void injectionReady(long nowPs) {
            endpoint.injectionReady(nowPs);
          }
        });
      }

      @Override
      public boolean inject(Packet packet) {
        return inner.inject(packet);
      }
    };
  }

  private void record(long nowPs, Packet p) {
    if (events.size() >= limit) {
      dropped++;
      return;
    }
    events.add(new long[] {p.sourceNode(), p.destinationNode(), p.injectedAtPs(), nowPs, p.hops(), p.wireBytes(),
        p.tag()});
    names.add(p.kind().name());
  }

  /** @return packets recorded */
  public int recorded() {
    return events.size();
  }

  /** @return packets delivered after the limit was reached (not recorded) */
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
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      write(w);
    }
  }

  /**
   * Writes the trace as Chrome trace-event JSON.
   *
   * @param w where to write
   * @throws IOException when writing fails
   */
  public void write(Writer w) throws IOException {
    w.write("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"recorded\":" + events.size() + ",\"dropped\":" + dropped
        + "},\"traceEvents\":[");
    for (int i = 0; i < events.size(); i++) {
      long[] e = events.get(i);
      // Chrome trace times are microseconds; picoseconds / 1e6.
      w.write(String.format(Locale.ROOT,
          "%s{\"name\":\"%s\",\"cat\":\"packet\",\"ph\":\"X\",\"ts\":%.6f,\"dur\":%.6f,\"pid\":%d,\"tid\":%d,"
              + "\"args\":{\"dst\":%d,\"hops\":%d,\"wireBytes\":%d,\"tag\":%d}}",
          i == 0 ? "" : ",\n", names.get(i), e[2] / 1e6, (e[3] - e[2]) / 1e6, e[0], e[1], e[1], e[4], e[5], e[6]));
    }
    w.write("]}\n");
  }
}
