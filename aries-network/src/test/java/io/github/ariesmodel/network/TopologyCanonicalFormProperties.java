package io.github.ariesmodel.network;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.network.spi.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Topologies#canonical} against the parser: for generated specs spelled at random (case, whitespace, option
 * order, signs and leading zeros, defaults given or not, values in and out of range), the canonical form is a fixed
 * point, is the canonical form of the plain spelling of the same options, and is refused by {@link Topologies#parse}
 * exactly when the spec is, else builds a system with the same cables, rates and latencies.
 */
class TopologyCanonicalFormProperties {

  /** One option: its key and value, the value as the plain spelling writes it. */
  private record Option(String key, String value) {}

  @Test
  void theCanonicalFormIsAFixedPointAndBuildsWhatTheSpecBuilds() {
    qt().withExamples(300).forAll(longs().all()).check(seed -> {
      Random r = new Random(seed);
      boolean aries = r.nextBoolean();
      List<Option> options = aries ? ariesOptions(r) : canonicalOptions(r);
      String kind = aries ? "aries" : "canonical";
      String plain = kind + ":" + String.join(",", options.stream().map(o -> o.key + "=" + o.value).toList());
      String spelled = spell(kind, options, r);
      String canonical;
      try {
        canonical = Topologies.canonical(spelled);
      } catch (IllegalArgumentException e) {
        return refused(spelled) != null; // malformed text: the parser refuses it too
      }
      if (!canonical.equals(Topologies.canonical(canonical)) || !canonical.equals(Topologies.canonical(plain))) {
        return false;
      }
      String refusedSpec = refused(spelled);
      String refusedCanonical = refused(canonical);
      if (refusedSpec != null || refusedCanonical != null) {
        return refusedSpec != null && refusedCanonical != null;
      }
      return signature(Topologies.parse(spelled)).equals(signature(Topologies.parse(canonical)));
    });
  }

  private static String refused(String spec) {
    try {
      Topologies.parse(spec);
      return null;
    } catch (IllegalArgumentException e) {
      return String.valueOf(e.getMessage());
    }
  }

  private static List<Option> ariesOptions(Random r) {
    List<Option> o = new ArrayList<>();
    o.add(new Option("groups", Integer.toString(pick(r, 1, 2, 3, 4, 0, 300))));
    // small groups mostly, so that a system builds in a moment
    maybe(r, o, "rows", pick(r, 1, 2, 3, 6));
    maybe(r, o, "cols", pick(r, 1, 2, 4, 16));
    if (o.stream().noneMatch(x -> x.key.equals("rows"))) {
      o.add(new Option("rows", Integer.toString(pick(r, 1, 2, 6))));
    }
    maybe(r, o, "rank2", pick(r, 1, 3, 0));
    maybe(r, o, "h", pick(r, 0, 1, 2, 10));
    maybe(r, o, "nodes", pick(r, 1, 2, 4));
    maybe(r, o, "links", pick(r, 0, 1, 2, 4, 8, 16, 960));
    common(r, o);
    return o;
  }

  private static List<Option> canonicalOptions(Random r) {
    List<Option> o = new ArrayList<>();
    int a = pick(r, 1, 2, 4);
    int h = pick(r, 1, 2, 3);
    o.add(new Option("p", Integer.toString(pick(r, 1, 2, 0))));
    o.add(new Option("a", Integer.toString(a)));
    o.add(new Option("h", Integer.toString(h)));
    maybe(r, o, "g", pick(r, 1, 2, a * h + 1, a * h + 2));
    if (r.nextInt(3) == 0) {
      o.add(new Option("bw", pickText(r, "5.25e9", "5250000000", "5.250E+9", "1e9", "84000", "1", "NaN")));
    }
    maybe(r, o, "links", pick(r, 0, 1, 2, 3, 6, 12));
    common(r, o);
    return o;
  }

  private static void common(Random r, List<Option> o) {
    if (r.nextInt(3) == 0) {
      o.add(new Option("arrangement", pickText(r, "absolute", "consecutive", "relative", "palmtree", "palm-tree",
          "interleaved")));
    }
    if (r.nextInt(3) == 0) {
      o.add(new Option("exit", pickText(r, "own", "any")));
    }
  }

  private static void maybe(Random r, List<Option> o, String key, int value) {
    if (r.nextBoolean()) {
      o.add(new Option(key, Integer.toString(value)));
    }
  }

  /** The options in another order and case, with whitespace, signs, leading zeros and empty parts. */
  private static String spell(String kind, List<Option> options, Random r) {
    List<Option> shuffled = new ArrayList<>(options);
    Collections.shuffle(shuffled, r);
    StringBuilder s = new StringBuilder(space(r)).append(mixCase(kind, r)).append(space(r)).append(':');
    for (Option o : shuffled) {
      String v = o.value;
      if (v.chars().allMatch(Character::isDigit) && r.nextBoolean()) {
        v = (r.nextBoolean() ? "+" : "") + "0".repeat(r.nextInt(3)) + v;
      }
      s.append(space(r)).append(mixCase(o.key, r)).append(space(r)).append('=').append(space(r)).append(mixCase(v, r))
          .append(space(r)).append(r.nextInt(5) == 0 ? ",," : ",");
    }
    return s.append(space(r)).toString();
  }

  private static String space(Random r) {
    return r.nextInt(3) == 0 ? " " : r.nextInt(4) == 0 ? "\t " : "";
  }

  private static String mixCase(String s, Random r) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      b.append(r.nextInt(3) == 0 ? Character.toUpperCase(c) : c);
    }
    return b.toString();
  }

  private static int pick(Random r, int... values) {
    return values[r.nextInt(values.length)];
  }

  private static String pickText(Random r, String... values) {
    return values[r.nextInt(values.length)];
  }

  /** Everything a run sees of a topology: its sizes, every port's far end and class, rates and latencies. */
  private static String signature(Dragonfly t) {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%d %d %d %d %d %b %d;", t.groupCount(),
        t.routersPerGroup(), t.nodesPerRouter(), t.portCount(), t.linksPerPair(), t.anyExitLink(),
        t.firstGlobalPort()));
    Topology topo = t;
    for (int c = 0; c < topo.linkClassCount(); c++) {
      s.append(topo.linkBandwidth(c)).append(' ').append(topo.linkLatencyPs(c)).append(' ');
    }
    s.append(topo.injectionBandwidth()).append(';');
    for (int router = 0; router < topo.routerCount(); router++) {
      for (int p = 0; p < topo.portCount(); p++) {
        s.append(topo.neighborRouter(router, p)).append('.').append(topo.neighborPort(router, p)).append('.')
            .append(topo.linkClass(router, p)).append(' ');
      }
    }
    return s.toString();
  }
}
