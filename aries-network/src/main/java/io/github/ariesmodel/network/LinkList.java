package io.github.ariesmodel.network;

import io.github.ariesmodel.core.Texts;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed link list (the format is described on {@link CabledDragonfly}): the checked, densely renumbered cabling
 * that {@link CabledDragonfly} is built from. Every refusal is one {@link IllegalArgumentException} whose message
 * starts {@code SOURCE:LINE:} and says what is wrong and what was expected.
 *
 * <p>Checks: the line's shape; the colour; the tile (network colours on tiles {@code l00..l47}, {@code ptile} on
 * {@code l50..l57}); one Cray router name per (group:row:column) and back; each port listed once; colour against
 * coordinates (green: same group and row; black: same group and column; blue: another group); both ends of a cable
 * list each other with the same colour; every group holds the same rows × columns routers, at most {@link
 * #MAX_ROUTERS_PER_GROUP}; every router the same number of ptiles, two per NIC.
 */
final class LinkList {

  private static final Pattern LINE = Pattern.compile(
      "(\\S+?)\\((\\d{1,3}):(\\d{1,3}):(\\d{1,3})\\)\\s+(\\S+)\\s+->\\s+(\\S+?)(?:\\((\\d{1,3}):(\\d{1,3}):(\\d{1,3})\\))?");
  private static final Pattern NAME = Pattern.compile("(c\\d+-\\d+c\\d+s\\d+a\\d+)l([0-7])([0-7])");
  private static final int MAX_COORD = 255;
  /**
   * Most routers a group may have: 1,024, the bound a generated {@link Dragonfly} keeps (an Aries group has 96
   * [S10]); it keeps the tables of routes inside a group ({@code groups × routers²}, {@link CabledDragonfly}) within
   * an int's range and a few hundred MiB.
   */
  static final int MAX_ROUTERS_PER_GROUP = 1024;

  private enum Colour {
    GREEN(0), BLACK(1), BLUE(2), PTILE(-1);

    final int linkClass;

    Colour(int linkClass) {
      this.linkClass = linkClass;
    }
  }

  /** One network-port line, kept until the far ends are resolved. */
  private record PortLine(int line, String text, int router, int tile, Colour colour, int farRouter, int farTile) {}

  private final String source;
  private final int groupCount;
  private final int rows;
  private final int columns;
  private final int nodesPerRouter;
  private final int[] fileGroups;
  private final int[] peers;
  private final byte[] portClasses;
  private final int unusedPorts;
  /** Each router's Cray name ({@code c0-0c0s0a0}), in dense router order. */
  private final String[] routerNames;
  /**
   * The links failed since the file was read ({@link #withFailed}), in order, two entries a link: the global port of
   * its lower end, then of its far end.
   */
  private final int[] failed;

  private LinkList(String source, int groupCount, int rows, int columns, int nodesPerRouter, int[] fileGroups,
      int[] peers, byte[] portClasses, int unusedPorts, String[] routerNames, int[] failed) {
    this.source = source;
    this.groupCount = groupCount;
    this.rows = rows;
    this.columns = columns;
    this.nodesPerRouter = nodesPerRouter;
    this.fileGroups = fileGroups;
    this.peers = peers;
    this.portClasses = portClasses;
    this.unusedPorts = unusedPorts;
    this.routerNames = routerNames;
    this.failed = failed;
  }

  String source() {
    return source;
  }

  int groupCount() {
    return groupCount;
  }

  int rows() {
    return rows;
  }

  int columns() {
    return columns;
  }

  int nodesPerRouter() {
    return nodesPerRouter;
  }

  int[] fileGroups() {
    return fileGroups;
  }

  int[] peers() {
    return peers;
  }

  /** Network ports not listed at all keep rank-3 (blue) as their class: they are absent either way. */
  byte[] portClasses() {
    return portClasses;
  }

  /** @return network ports the file lists as {@code unused} */
  int unusedPorts() {
    return unusedPorts;
  }

  /** @return each router's Cray name, in dense router order (not a copy: the caller must not change it) */
  String[] routerNames() {
    return routerNames;
  }

  /**
   * A generated system's cabling, made without a file ({@link CabledDragonfly#of}): groups numbered densely, every
   * port as given. The caller's arrays are consistent by construction (both ends of a cable list each other, colours
   * fit the coordinates), which {@link #parse} would otherwise check.
   */
  static LinkList generated(String source, int groups, int rows, int columns, int nodesPerRouter, int[] peers,
      byte[] classes, int unused, String[] routerNames) {
    int[] fileGroups = new int[groups];
    for (int g = 0; g < groups; g++) {
      fileGroups[g] = g;
    }
    return new LinkList(source, groups, rows, columns, nodesPerRouter, fileGroups, peers, classes, unused, routerNames,
        new int[0]);
  }

  /** @return the failed links in the order they failed, lower end then far end of each (not a copy) */
  int[] failed() {
    return failed;
  }

  /**
   * The same cabling with more links gone: both ends of each become absent ports, counted as unused, and the links
   * are added to {@link #failed()}. The caller has checked that each is a cabled network link.
   *
   * @param lowerEnds the global port of each link's lower end
   * @return the new list
   */
  LinkList withFailed(int[] lowerEnds) {
    int[] p = peers.clone();
    int[] all = Arrays.copyOf(failed, failed.length + 2 * lowerEnds.length);
    int n = failed.length;
    for (int q : lowerEnds) {
      int far = p[q];
      all[n++] = q;
      all[n++] = far;
      p[q] = -1;
      p[far] = -1;
    }
    return new LinkList(source, groupCount, rows, columns, nodesPerRouter, fileGroups, p, portClasses,
        unusedPorts + 2 * lowerEnds.length, routerNames, all);
  }

  /** Coordinates packed as one key: group, row and column of the file, each below 256. */
  private static int key(int g, int r, int c) {
    return (g << 16) | (r << 8) | c;
  }

  static LinkList parse(java.io.Reader reader, String sourceName) throws IOException {
    String source = Texts.abbreviate(sourceName); // as messages show it: a long path is cut, as other echoes are
    BoundedLines in = new BoundedLines(reader, source);
    Map<Integer, String> nameOfRouter = new HashMap<>();
    Map<String, Integer> routerOfName = new HashMap<>();
    Map<Long, PortLine> byPort = new HashMap<>();
    Map<Integer, Integer> ptiles = new HashMap<>();
    Map<Long, Integer> ptileLine = new HashMap<>();
    TreeSet<Integer> groups = new TreeSet<>();
    int maxRow = -1;
    int maxCol = -1;
    int lineNo = 0;
    String text;
    while ((text = in.readLine()) != null) {
      lineNo = in.lineNumber();
      String t = text.strip();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(t);
      if (!m.matches()) {
        throw error(source, lineNo, t, "a line must read NAME(group:row:column) COLOUR -> FAR-NAME(group:row:column)"
            + " or -> unused or -> processor");
      }
      int g = coord(source, lineNo, t, m.group(2), "group");
      int r = coord(source, lineNo, t, m.group(3), "row");
      int c = coord(source, lineNo, t, m.group(4), "column");
      Colour colour = colour(source, lineNo, t, m.group(5));
      int[] tile = tile(source, lineNo, t, m.group(1));
      String routerName = m.group(1).substring(0, m.group(1).length() - 3);
      int router = key(g, r, c);
      bindName(source, lineNo, t, routerName, router, nameOfRouter, routerOfName);
      groups.add(g);
      maxRow = Math.max(maxRow, r);
      maxCol = Math.max(maxCol, c);
      int tileIndex = tile[0] * 8 + tile[1];
      long portKey = (long) router << 8 | tileIndex;
      String far = m.group(6);
      if (colour == Colour.PTILE) {
        if (tile[0] != 5) {
          throw error(source, lineNo, t, "ptile (NIC) ports are tiles l50..l57 but this is tile l" + tile[0] + tile[1]);
        }
        if (!far.equals("processor") || m.group(7) != null) {
          throw error(source, lineNo, t, "a ptile port must lead to \"processor\" but leads to \"" + far + "\"");
        }
        Integer seen = ptileLine.putIfAbsent(portKey, lineNo);
        if (seen != null) {
          throw error(source, lineNo, t, "port listed twice (first on line " + seen + ")");
        }
        ptiles.merge(router, 1, Integer::sum);
        continue;
      }
      if (tile[0] > 4) {
        throw error(source, lineNo, t, colour.name().toLowerCase(java.util.Locale.ROOT) + " (network) ports are tiles"
            + " l00..l47 but this is tile l" + tile[0] + tile[1]);
      }
      int farRouter = -1;
      int farTile = -1;
      if (m.group(7) == null) {
        if (!far.equals("unused")) {
          throw error(source, lineNo, t, "the far end must be NAME(group:row:column) or \"unused\" but was \""
              + far + "\"");
        }
      } else {
        int fg = coord(source, lineNo, t, m.group(7), "far group");
        int fr = coord(source, lineNo, t, m.group(8), "far row");
        int fc = coord(source, lineNo, t, m.group(9), "far column");
        int[] ft = tile(source, lineNo, t, far);
        if (ft[0] > 4) {
          throw error(source, lineNo, t, "a network port must lead to a network tile (l00..l47) but leads to l"
              + ft[0] + ft[1]);
        }
        farRouter = key(fg, fr, fc);
        farTile = ft[0] * 8 + ft[1];
        bindName(source, lineNo, t, far.substring(0, far.length() - 3), farRouter, nameOfRouter, routerOfName);
        checkColour(source, lineNo, t, colour, g, r, c, fg, fr, fc);
      }
      PortLine pl = new PortLine(lineNo, t, router, tileIndex, colour, farRouter, farTile);
      PortLine seen = byPort.putIfAbsent(portKey, pl);
      if (seen != null) {
        throw error(source, lineNo, t, "port listed twice (first on line " + seen.line() + ")");
      }
    }
    if (byPort.isEmpty()) {
      // a file of NIC ports alone said "no router ports listed (2 lines)" of its two listed ports (until stop 73)
      int nicPorts = ptileLine.size();
      throw new IllegalArgumentException(source + ": " + (nicPorts == 0 ? "no ports listed (" + lineNo + " lines)"
          : "no network (router-to-router) ports among the " + nicPorts + " listed, which are all NIC (ptile) ports")
          + "; a link list has one line per port, e.g. c0-0c0s0a0l00(0:0:0) green -> c0-0c0s6a0l10(0:0:6)");
    }
    return build(sourceName, source, byPort, ptiles, groups, maxRow + 1, maxCol + 1, nameOfRouter);
  }

  private static LinkList build(String sourceName, String source, Map<Long, PortLine> byPort,
      Map<Integer, Integer> ptiles, TreeSet<Integer> groupSet, int rows, int columns,
      Map<Integer, String> nameOfRouter) {
    int[] fileGroups = groupSet.stream().mapToInt(Integer::intValue).toArray();
    int[] dense = new int[MAX_COORD + 1];
    Arrays.fill(dense, -1);
    for (int i = 0; i < fileGroups.length; i++) {
      dense[fileGroups[i]] = i;
    }
    int per = rows * columns;
    if (per > MAX_ROUTERS_PER_GROUP) {
      throw new IllegalArgumentException(source + ": routers per group (rows × columns) must be at most "
          + MAX_ROUTERS_PER_GROUP + ", as a generated Dragonfly's, but the file lists " + rows + " rows × " + columns
          + " columns = " + per);
    }
    int routers = fileGroups.length * per;
    for (int g : fileGroups) {
      for (int r = 0; r < rows; r++) {
        for (int c = 0; c < columns; c++) {
          if (!nameOfRouter.containsKey(key(g, r, c))) {
            throw new IllegalArgumentException(source + ": router (" + g + ":" + r + ":" + c + ") is never listed;"
                + " every group must have the same " + rows + " rows × " + columns + " columns of routers");
          }
        }
      }
    }
    int nodes = -1;
    for (int g : fileGroups) {
      for (int r = 0; r < rows; r++) {
        for (int c = 0; c < columns; c++) {
          int count = ptiles.getOrDefault(key(g, r, c), 0);
          if (count == 0 || count % 2 != 0 || (nodes >= 0 && count / 2 != nodes)) {
            throw new IllegalArgumentException(source + ": router (" + g + ":" + r + ":" + c + ") lists " + count
                + " ptile ports; every router must list the same even, non-zero number (two per NIC)"
                + (nodes >= 0 ? ", here " + 2 * nodes : ""));
          }
          nodes = count / 2;
        }
      }
    }
    if ((long) routers * nodes > (1 << 18)) {
      throw new IllegalArgumentException(source + ": nodes must be at most 262144 (18-bit node ids) but the file"
          + " lists " + (long) routers * nodes);
    }
    int[] peers = new int[routers * CabledDragonfly.NETWORK_TILES];
    Arrays.fill(peers, -1);
    byte[] classes = new byte[peers.length];
    Arrays.fill(classes, (byte) Colour.BLUE.linkClass);
    int unused = 0;
    for (PortLine pl : byPort.values()) {
      int q = denseRouter(pl.router(), dense, rows, columns) * CabledDragonfly.NETWORK_TILES + pl.tile();
      classes[q] = (byte) pl.colour().linkClass;
      if (pl.farRouter() < 0) {
        unused++;
        continue;
      }
      PortLine back = byPort.get((long) pl.farRouter() << 8 | pl.farTile());
      String farPort = name(pl.farRouter(), nameOfRouter) + CabledDragonfly.tileName(pl.farTile());
      if (back == null) {
        throw error(source, pl.line(), pl.text(), "the far end " + farPort + " has no line of its own; both ends of a"
            + " cable must be listed");
      }
      if (back.farRouter() != pl.router() || back.farTile() != pl.tile()) {
        throw error(source, pl.line(), pl.text(), "the far end " + farPort + " (line " + back.line() + ") leads "
            + (back.farRouter() < 0 ? "nowhere (unused)" : "to " + name(back.farRouter(), nameOfRouter)
                + CabledDragonfly.tileName(back.farTile())) + ", not back to this port");
      }
      if (back.colour() != pl.colour()) {
        throw error(source, pl.line(), pl.text(), "the far end " + farPort + " (line " + back.line() + ") calls the"
            + " cable " + back.colour().name().toLowerCase(java.util.Locale.ROOT));
      }
      peers[q] = denseRouter(pl.farRouter(), dense, rows, columns) * CabledDragonfly.NETWORK_TILES + pl.farTile();
    }
    String[] names = new String[routers];
    for (Map.Entry<Integer, String> e : nameOfRouter.entrySet()) {
      names[denseRouter(e.getKey(), dense, rows, columns)] = e.getValue();
    }
    return new LinkList(sourceName, fileGroups.length, rows, columns, nodes, fileGroups, peers, classes, unused,
        names, new int[0]);
  }

  private static int denseRouter(int key, int[] dense, int rows, int columns) {
    int g = key >>> 16;
    int r = (key >>> 8) & 0xFF;
    int c = key & 0xFF;
    return (dense[g] * rows + r) * columns + c;
  }

  private static String name(int key, Map<Integer, String> nameOfRouter) {
    return nameOfRouter.get(key);
  }

  private static void bindName(String source, int line, String text, String name, int router,
      Map<Integer, String> nameOfRouter, Map<String, Integer> routerOfName) {
    String had = nameOfRouter.putIfAbsent(router, name);
    if (had != null && !had.equals(name)) {
      throw error(source, line, text, "router (" + coords(router) + ") is called " + name + " here but " + had
          + " before");
    }
    Integer at = routerOfName.putIfAbsent(name, router);
    if (at != null && at != router) {
      throw error(source, line, text, "router " + name + " is at (" + coords(router) + ") here but at ("
          + coords(at) + ") before");
    }
  }

  private static String coords(int key) {
    return (key >>> 16) + ":" + ((key >>> 8) & 0xFF) + ":" + (key & 0xFF);
  }

  private static void checkColour(String source, int line, String text, Colour colour, int g, int r, int c, int fg,
      int fr, int fc) {
    boolean ok;
    String rule;
    switch (colour) {
      case GREEN:
        ok = fg == g && fr == r && fc != c;
        rule = "a green (rank-1) cable joins two routers of one group and row";
        break;
      case BLACK:
        ok = fg == g && fc == c && fr != r;
        rule = "a black (rank-2) cable joins two routers of one group and column";
        break;
      default:
        ok = fg != g;
        rule = "a blue (rank-3) cable joins two groups";
        break;
    }
    if (!ok) {
      throw error(source, line, text, rule + ", but this one joins (" + g + ":" + r + ":" + c + ") to (" + fg + ":"
          + fr + ":" + fc + ")");
    }
  }

  private static int coord(String source, int line, String text, String digits, String what) {
    int v = Integer.parseInt(digits);
    if (v > MAX_COORD) {
      throw error(source, line, text, what + " must be in [0, " + MAX_COORD + "] but was " + v);
    }
    return v;
  }

  private static Colour colour(String source, int line, String text, String word) {
    switch (word) {
      case "green":
        return Colour.GREEN;
      case "black":
        return Colour.BLACK;
      case "blue":
        return Colour.BLUE;
      case "ptile":
        return Colour.PTILE;
      default:
        throw error(source, line, text, "the colour must be green, black, blue or ptile but was \""
            + Texts.abbreviate(word) + "\"");
    }
  }

  private static int[] tile(String source, int line, String text, String portName) {
    Matcher n = NAME.matcher(portName);
    if (!n.matches()) {
      throw error(source, line, text, "a port name must read cX-YcCsSaAlRC (Cray cabinet, chassis, slot, Aries,"
          + " tile row 0-5 and column 0-7) but was \"" + Texts.abbreviate(portName) + "\"");
    }
    int row = n.group(2).charAt(0) - '0';
    int col = n.group(3).charAt(0) - '0';
    if (row > 5) {
      throw error(source, line, text, "tile row must be in [0, 5] but was " + row);
    }
    return new int[] {row, col};
  }

  private static IllegalArgumentException error(String source, int line, String text, String what) {
    return new IllegalArgumentException(source + ":" + line + ": " + what + " (line: \"" + Texts.abbreviate(text)
        + "\")");
  }
}
