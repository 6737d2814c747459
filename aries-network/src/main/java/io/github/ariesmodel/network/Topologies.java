package io.github.ariesmodel.network;

import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.network.spi.Topology;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Named topologies and the {@code --topology} text form.
 *
 * <ul>
 *   <li>{@code canonical:p=4,a=8,h=4} (optional {@code g=}, {@code arrangement=absolute|relative|interleaved}, {@code bw=} bytes/s
 *       for every link and injection, 84,000 to 10^12: {@link RouterFabric#MIN_BANDWIDTH}, {@link
 *       RouterFabric#MAX_BANDWIDTH}): Kim et al.'s dragonfly.
 *   <li>{@code aries:groups=9} (optional {@code rows=}, {@code cols=}, {@code rank2=}, {@code h=}, {@code nodes=},
 *       {@code links=} per group pair, {@code arrangement=}): an Aries system.
 *   <li>Both take {@code exit=own|any}: how a packet for another group picks its global link
 *       ({@link Dragonfly.Builder#anyExitLink(boolean)}; default {@code own}).
 *   <li>Presets: {@code default} (1 group, 384 nodes) and {@code two-groups} (2 groups), as the simulator's presets of
 *       those names, {@code theta} (9 groups, 3,456 nodes [S11]), {@code edison} (15 groups, 5,760 nodes [S11]),
 *       {@code full} (241 groups, 92,544 nodes), {@code aries-small} (3 groups of 2 × 4 routers, 2 global ports per
 *       router: a test system), {@code canonical-small} (p=2, a=4, h=2, 9 groups).
 *   <li>Real cabling ({@link #parseTopology} only, since the result is a {@link CabledDragonfly}, not a
 *       {@link Dragonfly}): {@code links:FILE} reads a link list ({@code .gz} allowed), {@code edison-cabled} is
 *       NERSC Edison's shipped one. The preset {@code edison} is Edison's size with assumed cabling.
 *   <li>{@code cabled:SYSTEM} ({@link #parseTopology} only): a generated Aries system's cabling as a cabled system
 *       ({@link CabledDragonfly#of}), e.g. {@code cabled:theta}, so that its links can fail.
 *   <li>Failed links, after a cabled system ({@link #parseTopology} only): {@code +failed=SPEC}, repeatable, each
 *       spec as {@link CabledDragonfly#withFailedLinks} takes it: {@code edison-cabled+failed=random:24:blue},
 *       {@code links:FILE+failed=c0-0c0s0a0l01+failed=file:down.txt}.
 * </ul>
 */
public final class Topologies {

  private static final String LINKS_PREFIX = "links:";
  private static final String EDISON_CABLED = "edison-cabled";
  private static final String CABLED_PREFIX = "cabled:";
  /** What joins a cabled system's spec and each of its failures: {@code edison-cabled+failed=random:24:blue}. */
  public static final String FAILED = "+failed=";

  /** The presets {@link #parse} knows by name, each a generated system of one size. */
  private static final java.util.List<String> PRESETS =
      java.util.List.of("default", "two-groups", "theta", "edison", "full", "aries-small", "canonical-small");

  /** A one-group Aries system and the smallest canonical one as the builders make them: their defaults. */
  private static final Dragonfly DEFAULT_ARIES = Dragonfly.aries(1);
  private static final Dragonfly DEFAULT_CANONICAL = Dragonfly.canonical(1, 1, 1);

  private Topologies() {}

  /**
   * An Aries system of full groups (the factory the simulator's presets call).
   *
   * @param groups 1 to 241
   * @return the topology
   */
  public static Dragonfly aries(int groups) {
    return Dragonfly.aries(groups);
  }

  /** @return the small Aries test system: 3 groups of 2 rows × 4 columns, 2 global ports per router */
  public static Dragonfly ariesSmall() {
    return Dragonfly.ariesBuilder(3).rows(2).columns(4).globalPorts(2).build();
  }

  /** @return the small canonical test system: p=2, a=4, h=2, 9 groups */
  public static Dragonfly canonicalSmall() {
    return Dragonfly.canonical(2, 4, 2);
  }

  /**
   * Parses any topology description: everything {@link #parse} accepts, plus {@code links:FILE} and
   * {@code edison-cabled} (see the class comment).
   *
   * @param spec e.g. {@code edison-cabled}, {@code links:/path/links.txt} or {@code aries:groups=9}
   * @return the topology
   * @throws IllegalArgumentException naming the bad part (for a link list: the file, line and what is wrong)
   */
  public static Topology parseTopology(String spec) {
    String s = spec == null ? "" : spec.trim();
    int cut = failuresAt(s);
    if (cut >= 0) {
      return withFailures(s.substring(0, cut).trim(), s.substring(cut));
    }
    if (s.regionMatches(true, 0, LINKS_PREFIX, 0, LINKS_PREFIX.length())) {
      String file = s.substring(LINKS_PREFIX.length()).trim();
      if (file.isEmpty()) {
        throw new IllegalArgumentException("topology links: needs a file, e.g. links:edison-links.txt");
      }
      return CabledDragonfly.read(Path.of(file));
    }
    if (s.equalsIgnoreCase(EDISON_CABLED)) {
      return CabledDragonfly.edison();
    }
    if (s.regionMatches(true, 0, CABLED_PREFIX, 0, CABLED_PREFIX.length())) {
      String generated = s.substring(CABLED_PREFIX.length()).trim();
      if (generated.isEmpty()) {
        throw new IllegalArgumentException("topology cabled: needs a generated Aries system, e.g. cabled:theta");
      }
      if (generated.equalsIgnoreCase(EDISON_CABLED) || generated.regionMatches(true, 0, LINKS_PREFIX, 0,
          LINKS_PREFIX.length()) || generated.regionMatches(true, 0, CABLED_PREFIX, 0, CABLED_PREFIX.length())) {
        throw new IllegalArgumentException("topology cabled: needs a generated Aries system, e.g. cabled:theta, but "
            + Texts.abbreviate(generated) + " is cabled already: give it without cabled:");
      }
      return CabledDragonfly.of(parse(generated));
    }
    return parse(spec);
  }

  /**
   * A port's name in reports: its Cray name on a cabled system ({@code c0-0c0s0a0l01}), else its router and port.
   *
   * @param t the topology
   * @param router a router
   * @param port a port of it
   * @return the name
   */
  public static String portName(Topology t, int router, int port) {
    return t instanceof CabledDragonfly c ? c.portName(router, port) : "router " + router + " port " + port;
  }

  /** A cabled system, then each {@code +failed=SPEC} in turn ({@link CabledDragonfly#withFailedLinks}). */
  private static Topology withFailures(String base, String failures) {
    if (base.isEmpty()) {
      throw new IllegalArgumentException("topology \"" + Texts.abbreviate(failures) + "\" names no system before "
          + FAILED + "; e.g. edison-cabled" + FAILED + "random:24:blue");
    }
    Topology t = parseTopology(base);
    if (!(t instanceof CabledDragonfly)) {
      throw new IllegalArgumentException("topology " + Texts.abbreviate(base) + " is generated, so it has no cables"
          + " to fail; " + FAILED + " needs a cabled system: edison-cabled, links:FILE, or cabled:"
          + Texts.abbreviate(base) + " (its cabling as a link list)");
    }
    CabledDragonfly c = (CabledDragonfly) t;
    int at = 0;
    while (at < failures.length()) {
      int next = failuresAt(failures.substring(at + FAILED.length()));
      int end = next < 0 ? failures.length() : at + FAILED.length() + next;
      c = c.withFailedLinks(failures.substring(at + FAILED.length(), end));
      at = end;
    }
    return c;
  }

  /**
   * @param spec a topology spec
   * @return where its first {@value #FAILED} starts (in any case), or -1 when it fails no link
   * @throws IllegalArgumentException when {@code spec} is null
   */
  public static int failuresAt(String spec) {
    if (spec == null) {
      throw new IllegalArgumentException("spec must not be null");
    }
    for (int i = 0; i + FAILED.length() <= spec.length(); i++) {
      if (spec.regionMatches(true, i, FAILED, 0, FAILED.length())) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Whether a spec names cabling ({@code links:FILE}, {@code cabled:SYSTEM}, or failed links): its errors name their
   * own file, line or link, and a caller listing the presets as well would bury them.
   *
   * @param spec a topology spec
   * @return whether it names cabling
   * @throws IllegalArgumentException when {@code spec} is null
   */
  public static boolean namesCabling(String spec) {
    if (spec == null) {
      throw new IllegalArgumentException("spec must not be null");
    }
    String s = spec.trim();
    return s.regionMatches(true, 0, LINKS_PREFIX, 0, LINKS_PREFIX.length())
        || s.regionMatches(true, 0, CABLED_PREFIX, 0, CABLED_PREFIX.length()) || failuresAt(s) >= 0;
  }

  /**
   * A spec's canonical form: the one text of every spelling of one system, for records (two runs of
   * {@code ARIES:groups=2} and {@code aries: groups=2, rows=6} are runs of one system and record it alike).
   *
   * <ul>
   *   <li>Whitespace around the spec and its parts is dropped; kinds, keys, presets and prefixes ({@code links:},
   *       {@code cabled:}, {@code +failed=}) are in lower case.
   *   <li>{@code aries:} and {@code canonical:} options are in the grammar's order (canonical: p, a, h, g, bw, links,
   *       arrangement, exit; aries: groups, rows, cols, rank2, h, nodes, links, arrangement, exit), numbers in plain
   *       decimal ({@code +02} is 2, {@code bw=5.5e9} is 5500000000), arrangements by their first name
   *       ({@code consecutive} is {@code absolute}, {@code palmtree} {@code relative}), and an option equal to its
   *       default is left out: the Aries layout's 6 rows, 16 columns, 3 rank-2 links, 10 global ports and 4 nodes,
   *       canonical's g = a·h + 1 and 5.25 GB/s, the most links a pair that the ports allow (with more than one
   *       group), the absolute arrangement and {@code exit=own}.
   *   <li>A link list's path and each failure's spec keep their case (a path is the file system's).
   *   <li>A preset stays a preset: {@code theta} is not written {@code aries:groups=9}, nor the reverse.
   * </ul>
   *
   * <p>Only the text is read, nothing is built: {@link #parseTopology} builds the same system from the canonical
   * form as from the spec, and refuses one exactly when it refuses the other (with the message of the form given).
   *
   * @param spec a topology spec, as {@link #parseTopology} takes it
   * @return its canonical form
   * @throws IllegalArgumentException when the spec is null, or its text is malformed (an unknown kind or option, an
   *     option given twice or with a value of the wrong type, a missing required option); values out of range are
   *     left to {@link #parseTopology}
   */
  public static String canonical(String spec) {
    if (spec == null) {
      throw new IllegalArgumentException("spec must not be null");
    }
    String s = spec.trim();
    int cut = failuresAt(s);
    if (cut >= 0) {
      String base = s.substring(0, cut).trim();
      if (base.isEmpty()) {
        throw new IllegalArgumentException("topology \"" + Texts.abbreviate(s) + "\" names no system before "
            + FAILED);
      }
      StringBuilder out = new StringBuilder(canonical(base));
      String failures = s.substring(cut);
      int at = 0;
      while (at < failures.length()) {
        int next = failuresAt(failures.substring(at + FAILED.length()));
        int end = next < 0 ? failures.length() : at + FAILED.length() + next;
        out.append(FAILED).append(failures.substring(at + FAILED.length(), end).strip()); // as LinkFailures reads it
        at = end;
      }
      return out.toString();
    }
    if (s.regionMatches(true, 0, LINKS_PREFIX, 0, LINKS_PREFIX.length())) {
      return LINKS_PREFIX + s.substring(LINKS_PREFIX.length()).trim();
    }
    if (s.equalsIgnoreCase(EDISON_CABLED)) {
      return EDISON_CABLED;
    }
    if (s.regionMatches(true, 0, CABLED_PREFIX, 0, CABLED_PREFIX.length())) {
      return CABLED_PREFIX + canonical(s.substring(CABLED_PREFIX.length()));
    }
    String lower = s.toLowerCase(Locale.ROOT);
    if (PRESETS.contains(lower)) {
      return lower;
    }
    String kind = kindOf(lower, spec);
    Map<String, String> kv = options(lower, spec);
    boolean canonical = kind.equals("canonical");
    java.util.List<String> order = canonical
        ? java.util.List.of("p", "a", "h", "g", "bw", "links", "arrangement", "exit")
        : java.util.List.of("groups", "rows", "cols", "rank2", "h", "nodes", "links", "arrangement", "exit");
    java.util.List<String> unknown = kv.keySet().stream().filter(k -> !order.contains(k)).toList();
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("topology options " + unknown.stream().limit(3).map(Texts::abbreviate)
          .toList() + (unknown.size() > 3 ? " and " + (unknown.size() - 3) + " more" : "") + " are unknown for "
          + kind);
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (String key : order) {
      if (!kv.containsKey(key)) {
        continue;
      }
      String v = switch (key) {
        case "bw" -> plain(doubleOf(kv, key));
        case "arrangement" -> arrangementName(kv.get(key));
        case "exit" -> exitName(kv.get(key));
        default -> Integer.toString(intOf(kv, key, null));
      };
      values.put(key, v);
    }
    // the layout's defaults, as the builders hold them (read off systems built without the options)
    Map<String, String> defaults = new LinkedHashMap<>();
    defaults.put("arrangement", "absolute");
    defaults.put("exit", "own");
    int slots;
    int groups;
    if (canonical) {
      int a = intOf(kv, "a", null);
      int h = intOf(kv, "h", null);
      intOf(kv, "p", null);
      long g = (long) a * h + 1;
      defaults.put("g", Long.toString(g));
      if (DEFAULT_CANONICAL.linkBandwidth(0) == DEFAULT_CANONICAL.linkBandwidth(1)
          && DEFAULT_CANONICAL.linkBandwidth(1) == DEFAULT_CANONICAL.linkBandwidth(2)
          && DEFAULT_CANONICAL.linkBandwidth(2) == DEFAULT_CANONICAL.injectionBandwidth()) {
        defaults.put("bw", plain(DEFAULT_CANONICAL.injectionBandwidth())); // (uniform, as bw= sets it)
      }
      slots = (int) Math.min(Integer.MAX_VALUE, (long) a * h);
      groups = (int) Math.min(Integer.MAX_VALUE, kv.containsKey("g") ? intOf(kv, "g", null) : g);
    } else {
      Dragonfly d = DEFAULT_ARIES;
      defaults.put("rows", Integer.toString(d.rows()));
      defaults.put("cols", Integer.toString(d.columns()));
      // (ports of a router: columns − 1 rank-1, then rank2 to each of the other rows, then the global ports)
      defaults.put("rank2", Integer.toString((d.firstGlobalPort() - (d.columns() - 1)) / (d.rows() - 1)));
      defaults.put("h", Integer.toString(d.globalPorts()));
      defaults.put("nodes", Integer.toString(d.nodesPerRouter()));
      groups = intOf(kv, "groups", null);
      long perGroup = (long) intOf(values, "rows", d.rows()) * intOf(values, "cols", d.columns());
      slots = (int) Math.min(Integer.MAX_VALUE, perGroup * intOf(values, "h", d.globalPorts()));
    }
    if (groups > 1) {
      // the builder's default with more than one group: every slot cabled (with one, links= is refused, so kept)
      defaults.put("links", Integer.toString(slots / (groups - 1)));
    }
    StringBuilder out = new StringBuilder(kind).append(':');
    String sep = "";
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (!e.getValue().equals(defaults.get(e.getKey()))) {
        out.append(sep).append(e.getKey()).append('=').append(e.getValue());
        sep = ",";
      }
    }
    return out.toString();
  }

  /** A rate in plain decimal, no exponent and no trailing zeros, that {@link Double#parseDouble} reads back exactly. */
  private static String plain(double x) {
    if (!(Math.abs(x) < 1e18)) {
      return Double.toString(x).toLowerCase(Locale.ROOT); // (out of range, refused when built)
    }
    // Double.toString is the shortest decimal that reads back as x; the same decimal without its exponent reads back
    return new java.math.BigDecimal(Double.toString(x)).stripTrailingZeros().toPlainString();
  }

  /** An arrangement's first name, the one its aliases stand for. */
  private static String arrangementName(String name) {
    GlobalArrangement a = GlobalArrangement.byName(name);
    return a == GlobalArrangement.ABSOLUTE ? "absolute" : a == GlobalArrangement.RELATIVE ? "relative"
        : a == GlobalArrangement.INTERLEAVED ? "interleaved" : name;
  }

  private static String exitName(String e) {
    if (!e.equals("own") && !e.equals("any")) {
      throw new IllegalArgumentException("topology option exit must be own or any but was \"" + Texts.abbreviate(e)
          + "\"");
    }
    return e;
  }

  /**
   * Parses a regular dragonfly's description (see the class comment); cabled systems need {@link #parseTopology}.
   *
   * @param spec e.g. {@code canonical:p=4,a=8,h=4} or {@code aries:groups=9}
   * @return the topology
   * @throws IllegalArgumentException naming the bad part
   */
  public static Dragonfly parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("topology must be canonical:p=..,a=..,h=.. or aries:groups=.. but was empty");
    }
    String s = spec.trim().toLowerCase(Locale.ROOT);
    if (s.equals(EDISON_CABLED) || s.startsWith(LINKS_PREFIX) || s.startsWith(CABLED_PREFIX)) {
      throw new IllegalArgumentException("topology \"" + Texts.abbreviate(spec.trim()) + "\" is a cabled system, not"
          + " a generated dragonfly, and is not taken here (in Java, Topologies.parseTopology reads it)");
    }
    switch (s) {
      case "default":
        return aries(1);
      case "two-groups":
        return aries(2);
      case "theta":
        return aries(9);
      case "edison":
        return aries(15);
      case "full":
        return aries(241);
      case "aries-small":
        return ariesSmall();
      case "canonical-small":
        return canonicalSmall();
      default:
        break;
    }
    String kind = kindOf(s, spec);
    Map<String, String> kv = options(s, spec);
    Dragonfly.Builder b;
    if (kind.equals("canonical")) {
      b = Dragonfly.canonicalBuilder(intOf(kv, "p", null), intOf(kv, "a", null), intOf(kv, "h", null));
      if (kv.containsKey("g")) {
        b.groups(intOf(kv, "g", null));
      }
      if (kv.containsKey("bw")) {
        double bw = doubleOf(kv, "bw");
        try {
          b.uniformBandwidth(bw);
        } catch (IllegalArgumentException e) {
          // the builder names its setter; the spec's user typed bw
          String m = e.getMessage();
          throw new IllegalArgumentException("topology option bw" + m.substring(m.indexOf(' ')), e);
        }
      }
      kv.keySet().removeAll(java.util.List.of("p", "a", "h", "g", "bw"));
    } else if (kind.equals("aries")) {
      b = Dragonfly.ariesBuilder(intOf(kv, "groups", null));
      if (kv.containsKey("rows")) {
        b.rows(intOf(kv, "rows", null));
      }
      if (kv.containsKey("cols")) {
        b.columns(intOf(kv, "cols", null));
      }
      if (kv.containsKey("rank2")) {
        b.rank2Links(intOf(kv, "rank2", null));
      }
      if (kv.containsKey("h")) {
        b.globalPorts(intOf(kv, "h", null));
      }
      if (kv.containsKey("nodes")) {
        b.nodesPerRouter(intOf(kv, "nodes", null));
      }
      kv.keySet().removeAll(java.util.List.of("groups", "rows", "cols", "rank2", "h", "nodes"));
    } else {
      throw new IllegalArgumentException("topology kind must be canonical, aries, theta, edison, full, aries-small or"
          + " canonical-small but was \"" + Texts.abbreviate(kind) + "\"");
    }
    if (kv.containsKey("links")) {
      b.linksPerPair(intOf(kv, "links", null));
      kv.remove("links");
    }
    if (kv.containsKey("arrangement")) {
      String a = kv.remove("arrangement");
      b.arrangement(GlobalArrangement.byName(a), a);
    }
    if (kv.containsKey("exit")) {
      String e = kv.remove("exit");
      if (!e.equals("own") && !e.equals("any")) {
        throw new IllegalArgumentException("topology option exit must be own or any but was \"" + Texts.abbreviate(e)
            + "\"");
      }
      b.anyExitLink(e.equals("any"));
    }
    if (!kv.isEmpty()) {
      // each key cut, and at most three of them: the message stays one short line whatever the spec
      java.util.List<String> keys = kv.keySet().stream().limit(3).map(Texts::abbreviate).toList();
      throw new IllegalArgumentException("topology options " + keys
          + (kv.size() > 3 ? " and " + (kv.size() - 3) + " more" : "") + " are unknown for " + kind);
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(userNames(kind, e.getMessage()), e);
    }
  }

  /**
   * The kind of a generated spec's text: {@code canonical} or {@code aries}, whitespace before the colon ignored
   * ({@code "aries :groups=2"} was refused as the kind "aries " while the options' whitespace was ignored).
   *
   * @param s the spec, trimmed and in lower case
   * @param spec the spec as given, for the message
   */
  private static String kindOf(String s, String spec) {
    int colon = s.indexOf(':');
    String kind = (colon < 0 ? s : s.substring(0, colon)).trim();
    if (!kind.equals("canonical") && !kind.equals("aries")) {
      // the kind first: "foo:bar" was told its option was no key=value, and "theta:groups=2" that theta is no kind
      throw new IllegalArgumentException(PRESETS.contains(kind)
          ? "topology " + kind + " is a preset and takes no options but was \"" + Texts.abbreviate(spec) + "\"; use"
              + " aries:groups=N or canonical:p=..,a=..,h=.. to choose a size"
          : "topology kind must be canonical, aries, " + String.join(", ", PRESETS.subList(0, PRESETS.size() - 1))
              + " or " + PRESETS.get(PRESETS.size() - 1) + " but was \"" + Texts.abbreviate(kind) + "\"");
    }
    return kind;
  }

  /**
   * A generated spec's options, key to value, in the order given, each trimmed; empty parts skipped.
   *
   * @param s the spec, trimmed and in lower case
   * @param spec the spec as given, for the message
   * @throws IllegalArgumentException for a part that is no key=value, or a key given twice
   */
  private static Map<String, String> options(String s, String spec) {
    int colon = s.indexOf(':');
    Map<String, String> kv = new LinkedHashMap<>();
    if (colon >= 0) {
      for (String part : s.substring(colon + 1).split(",")) {
        if (part.isBlank()) {
          continue;
        }
        int eq = part.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("topology option must be key=value but was \"" + Texts.abbreviate(part)
              + "\" in " + Texts.abbreviate(spec));
        }
        String key = part.substring(0, eq).trim();
        if (kv.put(key, part.substring(eq + 1).trim()) != null) {
          throw new IllegalArgumentException("topology option " + Texts.abbreviate(key) + " is given twice in "
              + Texts.abbreviate(spec));
        }
      }
    }
    return kv;
  }

  /**
   * The builder's messages name its fields; a topology spec's user knows the spec's option names: {@code canonical}'s
   * p, a, h and g (its a routers of a group are the builder's columns of one row), or {@code aries}' nodes, cols,
   * rank2 and h.
   */
  private static String userNames(String kind, String message) {
    String m = message == null ? "invalid topology" : message;
    if (kind.equals("canonical")) {
      // only the field a message starts with: "groups" and "nodesPerRouter" also appear inside the totals' messages
      for (String[] r : new String[][] {{"nodesPerRouter ", "p "}, {"columns ", "a "}, {"globalPorts ", "h "},
          {"groups ", "g "}, {"linksPerPair ", "links "}}) {
        if (m.startsWith(r[0])) {
          return "topology option " + r[1] + m.substring(r[0].length());
        }
      }
      String total = "nodes (groups × routers × nodesPerRouter) ";
      if (m.startsWith(total)) {
        return "topology nodes (g × a × p) " + m.substring(total.length()); // a total, not an option
      }
      return "topology option " + m;
    }
    // the totals are no option: "topology option nodes (groups × routers × nodes) must be at most 262144" named the
    // nodes= option of a spec that gave rows=32,cols=32 and no nodes= (until stop 78)
    for (String[] r : new String[][] {{"nodes (groups × routers × nodesPerRouter) ", "nodes (groups × rows × cols ×"
        + " nodes) "}, {"rows × columns ", "rows × cols "}}) {
      if (m.startsWith(r[0])) {
        return "topology " + r[1] + m.substring(r[0].length());
      }
    }
    for (String[] r : new String[][] {{"nodesPerRouter", "nodes"}, {"columns", "cols"}, {"rank2Links", "rank2"},
        {"globalPorts", "h"}, {"linksPerPair", "links"}}) {
      m = m.replace(r[0], r[1]);
    }
    return "topology option " + m;
  }

  private static int intOf(Map<String, String> kv, String key, Integer dflt) {
    String v = kv.get(key);
    if (v == null) {
      if (dflt != null) {
        return dflt;
      }
      throw new IllegalArgumentException("topology option " + key + "= is required");
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("topology option " + key + " must be an integer but was \""
          + Texts.abbreviate(v) + "\"", e);
    }
  }

  private static double doubleOf(Map<String, String> kv, String key) {
    String v = kv.get(key);
    try {
      double x = Double.parseDouble(v);
      if (!Double.isFinite(x)) {
        throw new IllegalArgumentException("topology option " + key + " must be a finite number but was \""
            + Texts.abbreviate(v) + "\"");
      }
      return x;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("topology option " + key + " must be a number but was \""
          + Texts.abbreviate(v) + "\"", e);
    }
  }
}
