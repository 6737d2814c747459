package io.github.ariesmodel.network;

import io.github.ariesmodel.core.Texts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Chooses the links a {@link CabledDragonfly#withFailedLinks} spec fails, on a working copy of the live cabling, and
 * refuses in one line a spec that cannot be had. A link may fail only while the system stays routable: every two groups
 * keep a rank-3 link and every group stays connected by its rank-1 and rank-2 cables (the conditions
 * {@link CabledDragonfly} checks when it reads a file), and a minimal route still fits the most virtual channels a
 * {@link RouterFabric} can have ({@link RouterFabric#MAX_VCS}; every built-in routing puts a packet on VC = hops
 * taken): two routers of a group stay at most {@link #maxLocalHops} rank-1 and rank-2 hops apart. Beyond that no
 * routing could run the system on any fabric.
 *
 * <p>Checking the last condition for every pick costs one search from the link's end when the group's longest route
 * can be bounded: losing the cable u-v makes no route in the group longer than its longest before plus the new
 * distance from u to v less one (an old shortest route through u-v can go round by the new shortest u-v route); only
 * when that bound passes the limit are all the group's distances searched.
 */
final class LinkFailures {

  private static final Pattern PORT = Pattern.compile("(c\\d+-\\d+c\\d+s\\d+a\\d+)l([0-7])([0-7])",
      Pattern.CASE_INSENSITIVE);
  private static final String FORMS = "random:N[:COLOUR][:seed=S] (COLOUR green, black, blue or any), a port name such"
      + " as c0-0c0s0a0l01, or file:PATH";

  private final CabledDragonfly t;
  private final int[] peers;
  private final byte[] classes;
  private final int per;
  private final int groups;
  /** Both ends of every link this spec has failed so far (the system's own failed links are {@code t.failedAt}). */
  private final java.util.BitSet failedHere = new java.util.BitSet();
  private Map<String, Integer> routerOfName;
  /** Per group, at least the most rank-1 and rank-2 hops between two of its routers (exact after a full search). */
  private final int[] longest;
  /** What {@link #longest} of the group becomes when the link {@link #cut} last accepted fails. */
  private int longestAfterCut;
  /** The most hops two routers of a group may be apart: {@link #maxLocalHops} for this system. */
  private final int localLimit;
  /**
   * Whether a pick was refused for taking routes past {@link #localLimit}. Without such a refusal the picks made are as
   * many as any order could make: the links whose loss leaves every group pair a rank-3 link and every group connected
   * form a matroid's independent sets (one link kept a pair; a graph's cographic matroid), where picking in any order
   * and skipping what does not fit ends with the largest set. The route-length bound is no such condition, so with it
   * another order can fail more.
   */
  private boolean hopsRefused;

  private LinkFailures(CabledDragonfly t) {
    this.t = t;
    this.peers = t.peers().clone();
    this.classes = t.portClasses();
    this.per = t.routersPerGroup();
    this.groups = t.groupCount();
    this.longest = new int[groups];
    java.util.Arrays.fill(longest, t.maxLocalHops());
    this.localLimit = maxLocalHops(groups);
  }

  /**
   * The most rank-1 and rank-2 hops two routers of a group may be apart after failures: a minimal route (one group:
   * up to L hops; more groups: L, a rank-3 hop and L, {@code DragonflyPaths.maxRouteHops}) must fit the fabric's
   * {@link RouterFabric#MAX_VCS} virtual channels, so 16 with one group and 7 with more (derived).
   *
   * @param groups the system's groups
   * @return the bound
   */
  static int maxLocalHops(int groups) {
    return groups > 1 ? (RouterFabric.MAX_VCS - 1) / 2 : RouterFabric.MAX_VCS;
  }

  /**
   * @return the lower-end global port of each link the spec fails, in the order chosen
   * @throws IllegalArgumentException in one line naming the spec and what is wrong
   */
  static int[] choose(CabledDragonfly t, String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("failed links must be " + FORMS + " but was empty");
    }
    String s = spec.strip();
    LinkFailures f = new LinkFailures(t);
    if (s.regionMatches(true, 0, "random:", 0, 7)) {
      return f.random(s);
    }
    if (s.regionMatches(true, 0, "file:", 0, 5)) {
      return f.file(s.substring(5).strip());
    }
    return new int[] {f.named(s, "failed link " + Texts.abbreviate(s), false)};
  }

  // ---- random ----

  private int[] random(String spec) {
    String[] parts = spec.substring(7).split(":", -1);
    String what = "failed links " + Texts.abbreviate(spec);
    if (parts.length > 3) {
      throw new IllegalArgumentException(what + ": random takes N, a colour and seed=S at most, as " + FORMS);
    }
    long n = parseCount(parts[0], what);
    int colour = -1;
    long seed = 1;
    boolean seeded = false;
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].strip().toLowerCase(Locale.ROOT);
      boolean isColour = p.equals("any") || java.util.Arrays.asList(CabledDragonfly.COLOURS).contains(p);
      // a repeated seed= was taken, the last winning; a colour after seed= or after a colour was "neither"
      if (p.startsWith("seed=") && seeded) {
        throw new IllegalArgumentException(what + ": seed=S may be given once, but was given twice");
      }
      if (isColour && i > 1) {
        throw new IllegalArgumentException(what + ": " + (seeded ? "the colour comes before seed=S, as in"
            + " random:N:COLOUR:seed=S, but \"" + Texts.abbreviate(parts[i].strip()) + "\" comes after it"
            : "random takes one colour, but \"" + Texts.abbreviate(parts[i].strip()) + "\" follows \""
            + Texts.abbreviate(parts[1].strip()) + "\""));
      }
      if (p.startsWith("seed=")) {
        seeded = true;
        String digits = p.substring(5).strip();
        try {
          seed = Long.parseLong(digits);
        } catch (NumberFormatException e) {
          // a whole number beyond a long was told it was no whole number
          throw new IllegalArgumentException(what + ": seed must be a whole number" + (digits.matches("[+-]?[0-9]+")
              ? " from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE : "") + " but was \""
              + Texts.abbreviate(parts[i].strip().substring(5)) + "\"", e);
        }
      } else if (i == 1 && !p.equals("any")) {
        colour = colourOf(p, what);
      } else if (!(i == 1 && p.equals("any"))) {
        throw new IllegalArgumentException(what + ": after N come a colour (green, black, blue or any) and seed=S,"
            + " but \"" + Texts.abbreviate(parts[i].strip()) + "\" is neither");
      }
    }
    int[] candidates = new int[peers.length];
    int m = 0;
    for (int q = 0; q < peers.length; q++) {
      if (peers[q] > q && (colour < 0 || classes[q] == colour)) {
        candidates[m++] = q;
      }
    }
    String kind = colour < 0 ? "" : CabledDragonfly.COLOURS[colour] + " ";
    if (n > m) {
      throw new IllegalArgumentException(what + ": N must be at most the " + CabledDragonfly.count(m, kind + "link")
          + " cabled now but was " + (n == Long.MAX_VALUE ? Texts.abbreviate(parts[0].strip()) : n));
    }
    // a seeded shuffle, then the first n in that order whose loss leaves the system routable
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = m - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int x = candidates[i];
      candidates[i] = candidates[j];
      candidates[j] = x;
    }
    int[] chosen = new int[(int) n];
    int k = 0;
    for (int i = 0; i < m && k < n; i++) {
      int q = candidates[i];
      if (cut(q) == null) {
        fail(q);
        chosen[k++] = q;
      }
    }
    if (k < n) {
      throw new IllegalArgumentException(what + ": only " + k + " of the " + CabledDragonfly.count(m, kind + "link")
          + " can fail" + (hopsRefused ? " in this spec's random order (seed " + seed + ")" : "") + " without "
          + reasons(candidates, m) + ", but N was " + n);
    }
    return chosen;
  }

  /**
   * What can keep a link of the candidates from failing: only a rank-3 link can be the last between two groups, only
   * a rank-1 or rank-2 one can cut a group apart or lengthen its routes (it used to list all three for every colour).
   */
  private String reasons(int[] candidates, int m) {
    boolean blue = false;
    boolean local = false;
    for (int i = 0; i < m; i++) {
      blue |= classes[candidates[i]] == 2;
      local |= classes[candidates[i]] != 2;
    }
    String hops = "cutting a group apart or taking two of its routers more than " + localLimit + " hops apart";
    String rank3 = "leaving two groups with no rank-3 link";
    return !local ? rank3 : !blue ? hops : rank3 + ", " + hops;
  }

  /** @return N, or {@link Long#MAX_VALUE} for a whole number beyond a long (more links than any system has) */
  private static long parseCount(String text, String what) {
    long n;
    String digits = text.strip();
    try {
      n = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      // a whole number, only too large, is refused as more than the links cabled, not as no whole number
      n = digits.matches("\\+?[0-9]+") ? Long.MAX_VALUE : -1;
    }
    if (n < 1) {
      throw new IllegalArgumentException(what + ": N must be a whole number of links, at least 1, but was \""
          + Texts.abbreviate(text.strip()) + "\"");
    }
    return n;
  }

  private static int colourOf(String word, String what) {
    for (int c = 0; c < CabledDragonfly.COLOURS.length; c++) {
      if (CabledDragonfly.COLOURS[c].equals(word)) {
        return c;
      }
    }
    throw new IllegalArgumentException(what + ": the colour must be green, black, blue or any but was \""
        + Texts.abbreviate(word) + "\"");
  }

  // ---- by name ----

  private int[] file(String path) {
    if (path.isEmpty()) {
      throw new IllegalArgumentException("failed links file: needs a file, e.g. file:failed-links.txt");
    }
    String shown = Texts.abbreviate(path);
    List<Integer> out = new ArrayList<>();
    int lines = 0;
    // strict UTF-8 (a byte that is not UTF-8 is refused, not replaced), read line by line within BoundedLines' bounds
    java.nio.charset.CharsetDecoder utf8 = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
    try (java.io.Reader reader = new java.io.InputStreamReader(Files.newInputStream(Path.of(path)), utf8)) {
      BoundedLines in = new BoundedLines(reader, path);
      String text;
      while ((text = in.readLine()) != null) {
        lines = in.lineNumber();
        String line = text.strip();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        int end = 0;
        while (end < line.length() && line.charAt(end) != '(' && !Character.isWhitespace(line.charAt(end))) {
          end++;
        }
        out.add(named(line.substring(0, end), shown + ":" + lines + ": failed link "
            + Texts.abbreviate(line.substring(0, end)), true));
      }
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("failed links file " + shown + " cannot be read: no such file", e);
    } catch (IOException e) {
      String why = Files.isDirectory(Path.of(path)) ? "is a directory"
          : e.getMessage() == null ? "input/output error" : e.getMessage();
      throw new IllegalArgumentException("failed links file " + shown + " cannot be read: " + why, e);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("failed links file " + shown + " names no port ("
          + CabledDragonfly.count(lines, "line") + "); it needs one port name a line, e.g. c0-0c0s0a0l01");
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  private int named(String name, String what, boolean inFile) {
    Matcher m = PORT.matcher(name);
    if (!m.matches()) {
      // a file's line can only name a port: random: and file: are specs, not lines of a failed-links file
      throw new IllegalArgumentException(what + ": must be " + (inFile ? "a port name such as c0-0c0s0a0l01 (a"
          + " failed-links file names one port a line)" : FORMS));
    }
    int router = routerOf(m.group(1));
    if (router < 0) {
      throw new IllegalArgumentException(what + ": " + Texts.abbreviate(t.source()) + " has no router "
          + Texts.abbreviate(m.group(1)));
    }
    int row = m.group(2).charAt(0) - '0';
    if (row > 5) {
      // an Aries' 48 tiles are rows 0-5 of eight (aries-facts §2): rows 6 and 7 were called processor tiles
      throw new IllegalArgumentException(what + ": an Aries has no tile l" + m.group(2) + m.group(3) + "; its tiles"
          + " are rows 0-5, network tiles l00..l47 and processor tiles l50..l57");
    }
    if (row > 4) {
      throw new IllegalArgumentException(what + ": tile l" + m.group(2) + m.group(3) + " is a processor tile (NIC"
          + " port), not a network link; network tiles are l00..l47");
    }
    int q = router * CabledDragonfly.NETWORK_TILES + row * 8 + (m.group(3).charAt(0) - '0');
    if (peers[q] < 0) {
      throw new IllegalArgumentException(what + (t.failedAt(q) || failedHere.get(q) ? ": has failed already" : ": is not cabled ("
          + Texts.abbreviate(t.source()) + " lists it unused or not at all)"));
    }
    String why = cut(q);
    if (why != null) {
      throw new IllegalArgumentException(what + ": " + why + "; the system must stay routable");
    }
    int lower = Math.min(q, peers[q]);
    fail(q);
    return lower;
  }

  private int routerOf(String name) {
    if (routerOfName == null) {
      routerOfName = new HashMap<>();
      for (int r = 0; r < t.routerCount(); r++) {
        routerOfName.put(t.routerName(r).toLowerCase(Locale.ROOT), r);
      }
    }
    return routerOfName.getOrDefault(name.toLowerCase(Locale.ROOT), -1);
  }

  // ---- what a loss would do ----

  private void fail(int q) {
    int far = peers[q];
    if (classes[q] != 2) {
      longest[q / CabledDragonfly.NETWORK_TILES / per] = longestAfterCut;
    }
    peers[q] = -1;
    peers[far] = -1;
    failedHere.set(q);
    failedHere.set(far);
  }

  /** @return why losing the live link at port {@code q} would leave the system unroutable, or null when it would not */
  private String cut(int q) {
    int far = peers[q];
    int g = q / CabledDragonfly.NETWORK_TILES / per;
    int d = far / CabledDragonfly.NETWORK_TILES / per;
    if (classes[q] == 2) {
      for (int r = g * per; r < (g + 1) * per; r++) {
        for (int p = 0; p < CabledDragonfly.NETWORK_TILES; p++) {
          int e = r * CabledDragonfly.NETWORK_TILES + p;
          if (e != q && peers[e] >= 0 && classes[e] == 2 && peers[e] / CabledDragonfly.NETWORK_TILES / per == d) {
            return null;
          }
        }
      }
      return "it is the last rank-3 link between groups " + t.fileGroup(g) + " and " + t.fileGroup(d)
          + " (as the file numbers them)";
    }
    // a rank-1 or rank-2 cable: is the group still connected without it, and how far apart are its ends now?
    int[] distance = new int[per];
    int u = q / CabledDragonfly.NETWORK_TILES % per;
    int v = far / CabledDragonfly.NETWORK_TILES % per;
    int reached = search(g, u, q, far, distance);
    if (reached < per) {
      return "it would cut group " + t.fileGroup(g) + " apart (its rank-1 and rank-2 cables would no longer join all "
          + per + " routers)";
    }
    longestAfterCut = longest[g] + distance[v] - 1;
    if (longestAfterCut <= localLimit) {
      return null;
    }
    longestAfterCut = 0;
    for (int from = 0; from < per; from++) {
      search(g, from, q, far, distance);
      for (int to = 0; to < per; to++) {
        if (distance[to] > localLimit) {
          hopsRefused = true;
          return "it would take routers (" + t.fileGroup(g) + ":" + from / t.columns() + ":" + from % t.columns()
              + ") and (" + t.fileGroup(g) + ":" + to / t.columns() + ":" + to % t.columns() + ") " + distance[to]
              + " rank-1 and rank-2 hops apart, more than the " + localLimit + " a minimal route can take in a group"
              + " of " + (groups > 1 ? "a system of several groups" : "a one-group system") + " within the fabric's "
              + RouterFabric.MAX_VCS + " virtual channels";
        }
        longestAfterCut = Math.max(longestAfterCut, distance[to]);
      }
    }
    return null;
  }

  /**
   * Breadth-first search over group {@code g}'s live rank-1 and rank-2 cables but the one at ports {@code q} and
   * {@code far}, from its router {@code from}.
   *
   * @param distance receives each router's hops from {@code from}, -1 when not reached
   * @return how many routers were reached
   */
  private int search(int g, int from, int q, int far, int[] distance) {
    java.util.Arrays.fill(distance, -1);
    int[] queue = new int[per];
    int head = 0;
    int tail = 0;
    queue[tail++] = from;
    distance[from] = 0;
    while (head < tail) {
      int x = queue[head++];
      int r = g * per + x;
      for (int p = 0; p < CabledDragonfly.NETWORK_TILES; p++) {
        int e = r * CabledDragonfly.NETWORK_TILES + p;
        if (e == q || e == far || peers[e] < 0 || classes[e] == 2) {
          continue;
        }
        int y = peers[e] / CabledDragonfly.NETWORK_TILES % per;
        if (distance[y] < 0) {
          distance[y] = distance[x] + 1;
          queue[tail++] = y;
        }
      }
    }
    return tail;
  }
}
