package io.github.ariesmodel.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.system.SystemStatistics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The {@code statistics} object of results.json (docs/results-schema.md): a {@link SystemStatistics} written field by
 * field and read back with every field checked, so a file round-trips to equal results.
 */
final class StatisticsJson {

  private StatisticsJson() {}

  static void write(JsonGenerator g, SystemStatistics s) throws IOException {
    if (s == null) {
      g.writeNullField("statistics");
      return;
    }
    g.writeObjectFieldStart("statistics");
    g.writeNumberField("elapsedPs", s.elapsedPs());
    g.writeNumberField("events", s.events());
    g.writeNumberField("nodesBuilt", s.nodesBuilt());
    SystemStatistics.Nics n = s.nics();
    g.writeObjectFieldStart("nics");
    g.writeNumberField("posts", n.posts());
    g.writeNumberField("packetsSent", n.packetsSent());
    g.writeNumberField("packetsReceived", n.packetsReceived());
    g.writeNumberField("payloadBytesSent", n.payloadBytesSent());
    g.writeNumberField("wireBytesSent", n.wireBytesSent());
    g.writeNumberField("injectionsRefused", n.injectionsRefused());
    g.writeNumberField("transactionsCompleted", n.transactionsCompleted());
    g.writeNumberField("transactionsFailed", n.transactionsFailed());
    g.writeEndObject();
    g.writeObjectFieldStart("iommus");
    g.writeNumberField("nodes", s.iommuNodes());
    g.writeObjectFieldStart("clients");
    for (TranslationClient c : TranslationClient.values()) {
      SystemStatistics.Translations t = s.translations().get(c);
      g.writeObjectFieldStart(c.name());
      g.writeNumberField("translations", t.translations());
      g.writeNumberField("hits", t.hits());
      g.writeNumberField("misses", t.misses());
      g.writeNumberField("mergedMisses", t.mergedMisses());
      g.writeEndObject();
    }
    g.writeEndObject();
    g.writeEndObject();
    SystemStatistics.Fabric f = s.fabric();
    if (f == null) {
      g.writeNullField("fabric");
    } else {
      g.writeObjectFieldStart("fabric");
      g.writeNumberField("injected", f.injected());
      g.writeNumberField("delivered", f.delivered());
      g.writeNumberField("packetHops", f.packetHops());
      g.writeNumberField("nonMinimalDelivered", f.nonMinimalDelivered());
      g.writeArrayFieldStart("links");
      for (SystemStatistics.LinkRank l : f.links()) {
        g.writeStartObject();
        g.writeStringField("rank", l.name());
        g.writeNumberField("links", l.links());
        g.writeNumberField("busyPs", l.busyPs());
        g.writeNumberField("capacityPs", l.capacityPs());
        g.writeNumberField("utilization", l.utilization());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  /** Reads the object at {@code $.statistics}; null (or absent, in files written before it existed) gives null. */
  static SystemStatistics read(JsonNode s) {
    if (s == null || s.isNull()) {
      return null;
    }
    String p = "$.statistics";
    object(s, p);
    only(s, p, "elapsedPs", "events", "nodesBuilt", "nics", "iommus", "fabric");
    JsonNode n = object(s.get("nics"), p + ".nics");
    String np = p + ".nics";
    only(n, np, "posts", "packetsSent", "packetsReceived", "payloadBytesSent", "wireBytesSent", "injectionsRefused",
        "transactionsCompleted", "transactionsFailed");
    SystemStatistics.Nics nics = new SystemStatistics.Nics(count(n, "posts", np), count(n, "packetsSent", np),
        count(n, "packetsReceived", np), count(n, "payloadBytesSent", np), count(n, "wireBytesSent", np),
        count(n, "injectionsRefused", np), count(n, "transactionsCompleted", np),
        count(n, "transactionsFailed", np));
    String ip = p + ".iommus";
    JsonNode io = object(s.get("iommus"), ip);
    only(io, ip, "nodes", "clients");
    JsonNode clients = object(io.get("clients"), ip + ".clients");
    String[] names = new String[TranslationClient.values().length];
    Map<TranslationClient, SystemStatistics.Translations> tr = new EnumMap<>(TranslationClient.class);
    for (TranslationClient c : TranslationClient.values()) {
      names[c.ordinal()] = c.name();
      String cp = ip + ".clients." + c.name();
      JsonNode t = object(clients.get(c.name()), cp);
      only(t, cp, "translations", "hits", "misses", "mergedMisses");
      tr.put(c, new SystemStatistics.Translations(count(t, "translations", cp), count(t, "hits", cp),
          count(t, "misses", cp), count(t, "mergedMisses", cp)));
    }
    only(clients, ip + ".clients", names);
    SystemStatistics.Fabric fabric = null;
    JsonNode f = s.get("fabric");
    if (f == null) {
      throw new IllegalArgumentException(p + ".fabric is missing");
    }
    if (!f.isNull()) {
      String fp = p + ".fabric";
      object(f, fp);
      only(f, fp, "injected", "delivered", "packetHops", "nonMinimalDelivered", "links");
      JsonNode links = f.get("links");
      if (links == null || !links.isArray()) {
        throw new IllegalArgumentException(fp + ".links must be an array but was " + links);
      }
      List<SystemStatistics.LinkRank> ranks = new ArrayList<>();
      for (int i = 0; i < links.size(); i++) {
        String lp = fp + ".links[" + i + "]";
        JsonNode l = object(links.get(i), lp);
        only(l, lp, "rank", "links", "busyPs", "capacityPs", "utilization");
        JsonNode rank = l.get("rank");
        if (rank == null || !rank.isTextual()) {
          throw new IllegalArgumentException(lp + ".rank must be a string but was " + rank);
        }
        long linkCount = count(l, "links", lp);
        if (linkCount > Integer.MAX_VALUE) {
          throw new IllegalArgumentException(lp + ".links must be at most " + Integer.MAX_VALUE + " but was "
              + linkCount);
        }
        ranks.add(new SystemStatistics.LinkRank(rank.textValue(), (int) linkCount, count(l, "busyPs", lp),
            bigCount(l, "capacityPs", lp)));
      }
      fabric = new SystemStatistics.Fabric(count(f, "injected", fp), count(f, "delivered", fp),
          count(f, "packetHops", fp), count(f, "nonMinimalDelivered", fp), ranks);
    }
    long built = count(s, "nodesBuilt", p);
    long iommuNodes = count(io, "nodes", ip);
    if (built > Integer.MAX_VALUE || iommuNodes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(p + " node counts must be at most " + Integer.MAX_VALUE);
    }
    return new SystemStatistics(count(s, "elapsedPs", p), count(s, "events", p), (int) built, nics,
        (int) iommuNodes, tr, fabric);
  }

  /** As {@link #count}, for a count that may pass {@code Long.MAX_VALUE} (a link rank's capacity). */
  private static java.math.BigInteger bigCount(JsonNode node, String name, String path) {
    JsonNode v = node.get(name);
    if (v == null || !v.isIntegralNumber() || v.bigIntegerValue().signum() < 0) {
      throw new IllegalArgumentException(path + "." + name + " must be a whole number >= 0 but was "
          + (v == null ? "missing" : v));
    }
    return v.bigIntegerValue();
  }

  private static JsonNode object(JsonNode v, String path) {
    if (v == null || !v.isObject()) {
      throw new IllegalArgumentException(path + " must be an object but was " + (v == null ? "missing" : v));
    }
    return v;
  }

  private static long count(JsonNode node, String name, String path) {
    JsonNode v = node.get(name);
    if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
      throw new IllegalArgumentException(path + "." + name + " must be a whole number >= 0 but was "
          + (v == null ? "missing" : v));
    }
    return v.longValue();
  }

  private static void only(JsonNode node, String path, String... allowed) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!List.of(allowed).contains(name)) {
        throw new IllegalArgumentException(path + " has unknown field \"" + name + "\"; allowed are "
            + String.join(", ", allowed));
      }
    }
  }
}
