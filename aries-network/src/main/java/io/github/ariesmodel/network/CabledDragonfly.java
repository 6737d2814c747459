package io.github.ariesmodel.network;

import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.network.spi.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * An Aries dragonfly whose cables come from a real machine's link list (Cray's {@code rtr --interconnect} style
 * format, one line per router port), instead of from an assumed {@link GlobalArrangement}.
 *
 * <p><b>Format</b> ({@link LinkList}): {@code c0-0c0s0a0l00(0:0:0) green -> c0-0c0s6a0l10(0:0:6)}: the port's
 * Cray name (cabinet, chassis, slot, Aries, tile {@code l<row><column>}) with (group:row:column) of its router, the
 * link colour ({@code green} rank-1 inside a chassis row, {@code black} rank-2 inside a column, {@code blue} rank-3
 * optical between groups, {@code ptile} a NIC port), then the far end, {@code unused} or {@code processor}. Blank
 * lines and lines starting with {@code #} are skipped.
 *
 * <p><b>Numbering.</b> A router's network port {@code p} is its tile {@code l<p/8><p%8>}: the 40 network tiles of the
 * Aries' 6 × 8 tile matrix are rows 0–4 (aries-facts §2, S15, S16), so {@link #portCount()} is 40 and the
 * Cray tile name of a port can be read back from its number. Ports listed {@code unused} (or not listed) are absent
 * links ({@link #neighborRouter} -1), with the class their colour says (rank-3 for a port the file never lists). Nodes per router are the router's
 * {@code ptile} lines / 2 (each NIC uses two processor tiles, aries-facts §2, S15). Real machines skip group
 * numbers (Edison has no group 12): groups are renumbered densely in increasing order of the file's numbers, and
 * {@link #fileGroup(int)} maps back. Inside a group, router {@code row × columns + column} as in {@link Dragonfly}.
 *
 * <p><b>Routing questions.</b> Minimal paths inside a group are computed from the cables (breadth-first search per
 * group), so a missing rank-1 or rank-2 cable lengthens a path instead of breaking it. Toward another group,
 * {@link #minimalPorts} follows {@link Dragonfly}'s default rule: a router with its own rank-3 links to the target
 * group offers those; any other router goes minimally toward the exit router of one of the group pair's links,
 * chosen by the hash (the same link at every router of the group). Every two groups must be joined by at least one
 * rank-3 link and every group must be connected, else the file is refused.
 *
 * <p><b>Rates.</b> Link bandwidths, wire latencies and the injection rate are those of {@link Dragonfly}'s Aries
 * system (read from it, so a calibration of one applies to the other); only the cabling differs.
 */
public final class CabledDragonfly implements Topology {

  /** Classpath resource (beside this class) holding NERSC Edison's link list, gzip-compressed. */
  public static final String EDISON_RESOURCE = "edison-links.txt.gz";

  /** Network tiles per Aries: rows 0–4 of the 6 × 8 tile matrix (aries-facts §2, S15, S16). */
  public static final int NETWORK_TILES = 40;

  private static final int CLASS_COUNT = 3;

  /** The link list's colour of each class: rank-1 green, rank-2 black, rank-3 blue. */
  static final String[] COLOURS = {"green", "black", "blue"};

  private final String source;
  private final int groups;
  private final int rows;
  private final int columns;
  private final int routersPerGroup;
  private final int nodesPerRouter;
  /** Routers and nodes of the whole system, the bounds of the query methods' arguments. */
  private final int routers;
  private final int nodes;
  private final int[] fileGroups;
  private final int[] peer; // router*40+port -> router*40+port of the far end, or -1
  private final byte[] portClass;
  private final int[] linkCount; // per class, links (not port ends)
  private final int unusedPorts;
  /**
   * Most rank-1 and rank-2 hops between two routers of a group: 127, what {@link #localDistance} holds a distance in
   * (derived: a byte). No routing could run such a group anyway: a route inside it takes up to that many VCs, and the
   * fabric has at most 16.
   */
  static final int MAX_LOCAL_DISTANCE = Byte.MAX_VALUE;

  private final byte[] localDistance; // [group][i*per+j]
  private final int[] localStart; // (router*per + targetIndex) -> start in localPorts
  private final byte[] localPorts;
  private final int[] pairStart; // (g*groups + d) -> start in pairLinks
  private final int[] pairLinks; // global port index router*40+port of the exit end, group g toward d
  private final int maxMinimalPorts;
  private final int maxLocalHops;
  private final Dragonfly rates;
  /** What it was built from, kept so that {@link #withFailedLinks} can derive a system with fewer links. */
  private final LinkList list;

  CabledDragonfly(LinkList list) {
    this.list = list;
    this.source = list.source();
    this.groups = list.groupCount();
    this.rows = list.rows();
    this.columns = list.columns();
    this.routersPerGroup = rows * columns;
    this.nodesPerRouter = list.nodesPerRouter();
    this.fileGroups = list.fileGroups();
    this.peer = list.peers();
    this.portClass = list.portClasses();
    this.rates = Dragonfly.aries(1);
    this.routers = groups * routersPerGroup;
    this.nodes = routers * nodesPerRouter;
    this.linkCount = new int[CLASS_COUNT];
    for (int q = 0; q < peer.length; q++) {
      if (peer[q] > q) {
        linkCount[portClass[q]]++;
      }
    }
    // ports with no far end, whether the file lists them unused, leaves them out or a failure took them (counting the
    // file's "unused" lines, a list without them said "0 ports unused" of a system with 152 uncabled ports)
    int absent = 0;
    for (int q : peer) {
      if (q < 0) {
        absent++;
      }
    }
    this.unusedPorts = absent;

    this.localDistance = new byte[groups * routersPerGroup * routersPerGroup];
    int maxHops = 0;
    int[] queue = new int[routersPerGroup];
    for (int g = 0; g < groups; g++) {
      for (int i = 0; i < routersPerGroup; i++) {
        maxHops = Math.max(maxHops, bfs(g, i, queue));
      }
    }
    this.maxLocalHops = maxHops;

    this.localStart = new int[routers * routersPerGroup + 1];
    byte[] buf = new byte[routers * routersPerGroup * 4];
    int n = 0;
    int maxPorts = 1;
    for (int r = 0; r < routers; r++) {
      int g = r / routersPerGroup;
      int i = r % routersPerGroup;
      for (int t = 0; t < routersPerGroup; t++) {
        localStart[r * routersPerGroup + t] = n;
        int d = dist(g, i, t);
        if (d == 0) {
          continue;
        }
        int before = n;
        for (int p = 0; p < NETWORK_TILES; p++) {
          int q = peer[r * NETWORK_TILES + p];
          if (q < 0 || portClass[r * NETWORK_TILES + p] == 2) {
            continue;
          }
          int nb = q / NETWORK_TILES % routersPerGroup;
          if (dist(g, nb, t) == d - 1) {
            if (n == buf.length) {
              buf = Arrays.copyOf(buf, buf.length * 2);
            }
            buf[n++] = (byte) p;
          }
        }
        maxPorts = Math.max(maxPorts, n - before);
      }
    }
    localStart[routers * routersPerGroup] = n;
    this.localPorts = Arrays.copyOf(buf, n);

    this.pairStart = new int[groups * groups + 1];
    int[] perPair = new int[groups * groups];
    for (int q = 0; q < peer.length; q++) {
      if (peer[q] >= 0 && portClass[q] == 2) {
        perPair[groupOfPort(q) * groups + groupOfPort(peer[q])]++;
      }
    }
    for (int k = 0; k < perPair.length; k++) {
      pairStart[k + 1] = pairStart[k] + perPair[k];
    }
    this.pairLinks = new int[pairStart[groups * groups]];
    int[] fill = Arrays.copyOf(pairStart, perPair.length);
    for (int q = 0; q < peer.length; q++) {
      if (peer[q] >= 0 && portClass[q] == 2) {
        pairLinks[fill[groupOfPort(q) * groups + groupOfPort(peer[q])]++] = q;
      }
    }
    for (int g = 0; g < groups; g++) {
      for (int d = 0; d < groups; d++) {
        if (g != d && perPair[g * groups + d] == 0) {
          throw new IllegalArgumentException(source + ": groups " + fileGroups[g] + " and " + fileGroups[d]
              + " (as the file numbers them) have no rank-3 (blue) link; minimal routes need one between every two"
              + " groups");
        }
      }
    }
    for (int r = 0; r < routers; r++) {
      int[] own = new int[groups];
      for (int p = 0; p < NETWORK_TILES; p++) {
        int q = peer[r * NETWORK_TILES + p];
        if (q >= 0 && portClass[r * NETWORK_TILES + p] == 2) {
          maxPorts = Math.max(maxPorts, ++own[groupOfPort(q)]);
        }
      }
    }
    this.maxMinimalPorts = maxPorts;
  }

  private int groupOfPort(int globalPort) {
    return globalPort / NETWORK_TILES / routersPerGroup;
  }

  private int dist(int g, int i, int t) {
    return localDistance[(g * routersPerGroup + i) * routersPerGroup + t];
  }

  /** Breadth-first search over rank-1 and rank-2 cables from router {@code i} of group {@code g}. */
  private int bfs(int g, int i, int[] queue) {
    int base = (g * routersPerGroup + i) * routersPerGroup;
    Arrays.fill(localDistance, base, base + routersPerGroup, (byte) -1);
    localDistance[base + i] = 0;
    int head = 0;
    int tail = 0;
    queue[tail++] = i;
    int far = 0;
    while (head < tail) {
      int u = queue[head++];
      int du = localDistance[base + u];
      int r = g * routersPerGroup + u;
      for (int p = 0; p < NETWORK_TILES; p++) {
        int q = peer[r * NETWORK_TILES + p];
        if (q < 0 || portClass[r * NETWORK_TILES + p] == 2) {
          continue;
        }
        int v = q / NETWORK_TILES % routersPerGroup;
        if (localDistance[base + v] < 0) {
          if (du == MAX_LOCAL_DISTANCE) {
            throw new IllegalArgumentException(source + ": routers of a group must be at most " + MAX_LOCAL_DISTANCE
                + " rank-1 and rank-2 hops apart but router (" + fileGroups[g] + ":" + v / columns + ":"
                + v % columns + ") is " + (du + 1) + " from (" + fileGroups[g] + ":" + i / columns + ":"
                + i % columns + ")");
          }
          localDistance[base + v] = (byte) (du + 1);
          far = du + 1;
          queue[tail++] = v;
        }
      }
    }
    if (tail < routersPerGroup) {
      int missing = 0;
      while (localDistance[base + missing] >= 0) {
        missing++;
      }
      throw new IllegalArgumentException(source + ": group " + fileGroups[g] + " is not connected by its rank-1 and"
          + " rank-2 cables: router (" + fileGroups[g] + ":" + missing / columns + ":" + missing % columns
          + ") cannot be reached from (" + fileGroups[g] + ":" + i / columns + ":" + i % columns + ")");
    }
    return far;
  }

  // ---- factories ----

  /**
   * Reads a link list from a file ({@code .gz} files are decompressed).
   *
   * @param file the link list
   * @return the topology
   * @throws IllegalArgumentException naming the file (and line) when it cannot be read or is not a valid link list
   */
  public static CabledDragonfly read(Path file) {
    if (file == null) {
      throw new IllegalArgumentException("links file must not be null");
    }
    String name = file.toString();
    String shown = Texts.abbreviate(name);
    try (InputStream in = Files.newInputStream(file)) {
      return read(name.endsWith(".gz") ? new GZIPInputStream(in) : in, name);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("links file " + shown + " cannot be read: no such file", e);
    } catch (IOException e) {
      // (an empty .gz has no gzip header: GZIPInputStream says EOFException with no message)
      String why = Files.isDirectory(file) ? "is a directory"
          : e instanceof java.io.EOFException && name.endsWith(".gz") ? "not gzip data, or cut short"
          : e.getMessage() == null ? "input/output error" : e.getMessage();
      throw new IllegalArgumentException("links file " + shown + " cannot be read: " + why, e);
    }
  }

  /**
   * NERSC's Edison (Cray XC30, 15 groups of 6 × 16 Aries, 5,760 nodes) as cabled: the link list shipped in this jar
   * (origin: LLNL's Damselfly, {@code hpcgroup/damselfly} {@code utils/connection/links-edison.txt}, commit
   * 394e39b3; see {@code edison-links.README.md} beside the resource).
   *
   * @return the topology
   */
  public static CabledDragonfly edison() {
    try (InputStream raw = CabledDragonfly.class.getResourceAsStream(EDISON_RESOURCE)) {
      if (raw == null) {
        throw new IllegalStateException("resource " + EDISON_RESOURCE + " is missing from the aries-network jar");
      }
      return read(new GZIPInputStream(raw), EDISON_RESOURCE);
    } catch (IOException e) {
      throw new UncheckedIOException("resource " + EDISON_RESOURCE + " cannot be read", e);
    }
  }

  /**
   * Reads a link list from a stream.
   *
   * @param in the text, UTF-8 (ASCII in practice; a leading byte-order mark is skipped, at most {@code
   *     BoundedLines.MAX_CHARS}, 128 MiB, and 4,096 characters a line)
   * @param sourceName what error messages call it (a file name)
   * @return the topology
   * @throws IOException when the stream fails
   * @throws IllegalArgumentException naming {@code sourceName}, the line and what is wrong
   */
  public static CabledDragonfly read(InputStream in, String sourceName) throws IOException {
    if (in == null) {
      throw new IllegalArgumentException("in must not be null");
    }
    return read(new InputStreamReader(in, StandardCharsets.UTF_8), sourceName);
  }

  /**
   * Reads a link list.
   *
   * @param in the text
   * @param sourceName what error messages call it (a file name)
   * @return the topology
   * @throws IOException when the reader fails
   * @throws IllegalArgumentException naming {@code sourceName}, the line and what is wrong
   */
  public static CabledDragonfly read(Reader in, String sourceName) throws IOException {
    if (in == null) {
      throw new IllegalArgumentException("in must not be null");
    }
    return new CabledDragonfly(LinkList.parse(in, sourceName == null ? "links" : sourceName));
  }

  // ---- generated systems as cabled ones ----

  /**
   * The tiles a generated system's rank-3 ports take, in port order: Edison's ten blue tiles ({@code l01..l06},
   * {@code l12..l15}: every router of its link list has its rank-3 ports there), then any other tile. The rank-1 and
   * rank-2 ports take the remaining tiles in increasing order. Edison mixes green and black tiles router by router;
   * this order is assumed, and only names ports: routing reads the cables, not the tile numbers.
   */
  private static final int[] BLUE_TILES = {1, 2, 3, 4, 5, 6, 10, 11, 12, 13};

  /**
   * A generated Aries system's cabling as a cabled system: the same routers, nodes, cables and rates, each router
   * named as Cray names its blade's Aries (group {@code g}, row {@code r}, column {@code c}: cabinet
   * {@code c<2g + r/3>-0}, chassis {@code r % 3}, slot {@code c}: two cabinets of three chassis a group, more for
   * groups of more than 6 rows) and each port
   * a tile ({@link #BLUE_TILES}). Links can then fail ({@link #withFailedLinks}), and {@link #linkList()} writes it
   * as a file. Routes toward another group follow this class's rule, so the same traffic does not take exactly the
   * generated system's routes: compare failures against this form without them.
   *
   * @param generated an Aries dragonfly ({@link Dragonfly#isAries()}) of at most 40 network ports and 4 nodes a router
   *     and at most 256 groups, rows and columns
   * @return the cabled form
   * @throws IllegalArgumentException in one line when the system does not fit Aries' tiles
   */
  public static CabledDragonfly of(Dragonfly generated) {
    if (generated == null) {
      throw new IllegalArgumentException("generated must not be null");
    }
    String what = generated.describe();
    if (!generated.isAries()) {
      throw new IllegalArgumentException("only an Aries dragonfly has Aries tiles to cable, not " + what);
    }
    if (generated.portCount() > NETWORK_TILES || generated.nodesPerRouter() > 4 || generated.groupCount() > 256
        || generated.rows() > 256 || generated.columns() > 256) {
      throw new IllegalArgumentException("an Aries has 40 network tiles and 4 NICs, and a link list numbers groups,"
          + " rows and columns below 256, but " + what + " has " + generated.portCount() + " ports and "
          + generated.nodesPerRouter() + " nodes a router");
    }
    int ports = generated.portCount();
    int firstGlobal = generated.firstGlobalPort();
    int[] tile = new int[ports];
    boolean[] taken = new boolean[NETWORK_TILES];
    int next = 0;
    for (int p = firstGlobal; p < ports; p++) {
      int i = p - firstGlobal;
      if (i < BLUE_TILES.length) {
        tile[p] = BLUE_TILES[i];
      } else {
        while (taken[next] || contains(BLUE_TILES, next)) {
          next++;
        }
        tile[p] = next;
      }
      taken[tile[p]] = true;
    }
    next = 0;
    for (int p = 0; p < firstGlobal; p++) {
      while (taken[next]) {
        next++;
      }
      tile[p] = next;
      taken[next] = true;
    }
    int per = generated.routersPerGroup();
    int columns = generated.columns();
    int routers = generated.routerCount();
    int[] peers = new int[routers * NETWORK_TILES];
    java.util.Arrays.fill(peers, -1);
    byte[] classes = new byte[peers.length];
    java.util.Arrays.fill(classes, (byte) 2); // a tile no port takes is an absent rank-3 port, as in a file
    int unused = 0;
    String[] names = new String[routers];
    int cabinets = (generated.rows() + 2) / 3; // a group's cabinets of three chassis: 2 on Aries
    for (int r = 0; r < routers; r++) {
      int i = r % per;
      int row = i / columns;
      names[r] = "c" + (cabinets * (r / per) + row / 3) + "-0c" + row % 3 + "s" + i % columns + "a0";
      for (int p = 0; p < ports; p++) {
        int q = r * NETWORK_TILES + tile[p];
        classes[q] = (byte) generated.linkClass(r, p);
        int far = generated.neighborRouter(r, p);
        if (far < 0) {
          unused++;
        } else {
          peers[q] = far * NETWORK_TILES + tile[generated.neighborPort(r, p)];
        }
      }
    }
    return new CabledDragonfly(LinkList.generated("the cabling of a generated system ("
        + count(generated.groupCount(), "group") + ")", generated.groupCount(), generated.rows(), columns, generated.nodesPerRouter(), peers, classes,
        unused, names));
  }

  private static boolean contains(int[] a, int v) {
    for (int x : a) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }

  /**
   * This system as a link list, the format {@link #read(Path)} reads: a line a network tile of every router
   * ({@code unused} for absent ports, failed links included), then its NICs' {@code ptile} lines.
   *
   * @return the lines
   */
  public java.util.List<String> linkList() {
    java.util.List<String> out = new java.util.ArrayList<>(routers * (NETWORK_TILES + 2 * nodesPerRouter));
    for (int r = 0; r < routers; r++) {
      for (int p = 0; p < NETWORK_TILES; p++) {
        int q = r * NETWORK_TILES + p;
        out.add(portLine(q, peer[q]));
      }
      String coords = portText(r * NETWORK_TILES).substring(list.routerNames()[r].length() + 3);
      for (int n = 0; n < 2 * nodesPerRouter; n++) {
        out.add(list.routerNames()[r] + "l5" + n + coords + " ptile -> processor");
      }
    }
    return out;
  }

  // ---- failed links ----

  /**
   * This system with links failed: each failed link is a cable the routing no longer uses, both its ends absent
   * ports, as after the machine's routes were recomputed around it (docs/network.md, "Failed links"). The failures add
   * to any this system already has; links are never restored.
   *
   * <p>{@code spec} is one of:
   * <ul>
   *   <li>{@code random:N}, {@code random:N:COLOUR}, {@code random:N:COLOUR:seed=S}: N links of the colour
   *       ({@code green}, {@code black}, {@code blue} or {@code any}, the default), chosen uniformly among the cabled
   *       ones by a random stream of seed S (default 1), skipping any whose loss would leave two groups without a
   *       rank-3 link, a group cut in two or two of its routers too many hops apart (docs/network.md), so the same
   *       spec always fails the same links; more than can go is refused naming only what can stop the colour's links;
   *   <li>a port's Cray name, either end of the link, e.g. {@code c0-0c0s0a0l01};
   *   <li>{@code file:PATH}: one port name a line (the rest of the line is ignored, so the lines of a link list and of
   *       {@link #failedLinks()} serve), blank lines and lines starting with {@code #} skipped.
   * </ul>
   *
   * @param spec what fails
   * @return the system with the links failed (this one is unchanged)
   * @throws IllegalArgumentException in one line naming the spec and what is wrong: a malformed spec, a name that is
   *     no cabled network port of this system, more random failures than can be had, or a named link whose loss
   *     would cut the system apart
   */
  public CabledDragonfly withFailedLinks(String spec) {
    return new CabledDragonfly(list.withFailed(LinkFailures.choose(this, spec)));
  }

  /**
   * The links failed by {@link #withFailedLinks}, in the order they failed, each as a link-list line from its lower
   * end, e.g. {@code c0-0c0s0a0l01(0:0:0) blue -> c2-0c0s0a0l01(1:0:0)}: a file of these lines fails them again.
   *
   * @return the lines, empty when no link has failed
   */
  public java.util.List<String> failedLinks() {
    int[] failed = list.failed();
    java.util.List<String> out = new java.util.ArrayList<>(failed.length / 2);
    for (int i = 0; i < failed.length; i += 2) {
      out.add(portLine(failed[i], failed[i + 1]));
    }
    return out;
  }

  /** @return links failed so far */
  public int failedLinkCount() {
    return list.failed().length / 2;
  }

  /** @return whether the port is an end of a link that failed ({@link #withFailedLinks}) */
  boolean failedAt(int globalPort) {
    for (int q : list.failed()) {
      if (q == globalPort) {
        return true;
      }
    }
    return false;
  }

  /**
   * A port's Cray name: its router's name in the link list and its tile.
   *
   * @param router a router
   * @param port a network port, 0 to 39
   * @return e.g. {@code c0-0c0s0a0l01}
   */
  public String portName(int router, int port) {
    checkPort(router, port);
    return list.routerNames()[router] + tileName(port);
  }

  /** A port as a link-list line's first part: name and (group:row:column) as the file numbers them. */
  String portText(int globalPort) {
    int router = globalPort / NETWORK_TILES;
    int i = router % routersPerGroup;
    return portName(router, globalPort % NETWORK_TILES) + "(" + fileGroups[router / routersPerGroup] + ":"
        + i / columns + ":" + i % columns + ")";
  }

  /** A link-list line of a port: its name, its colour and its far end ({@code unused} for -1). */
  private String portLine(int q, int far) {
    return portText(q) + " " + COLOURS[portClass[q]] + " -> " + (far < 0 ? "unused" : portText(far));
  }

  /** The live far end of each port (-1 for absent ones): read by {@link LinkFailures}. */
  int[] peers() {
    return peer;
  }

  /** @return each port's class, 0 rank-1, 1 rank-2, 2 rank-3 (not a copy) */
  byte[] portClasses() {
    return portClass;
  }

  /** @return a router's Cray name, e.g. {@code c0-0c0s0a0} */
  String routerName(int router) {
    return list.routerNames()[router];
  }

  // ---- what the file says ----

  /** @return where the link list came from (file or resource name) */
  public String source() {
    return source;
  }

  /**
   * The file's number of a group: the inverse of the dense renumbering.
   *
   * @param group a group of this topology, 0 to groupCount - 1
   * @return its number in the link list (Edison: 0–11 and 13–15)
   */
  public int fileGroup(int group) {
    if (group < 0 || group >= groups) {
      throw new IllegalArgumentException("group must be in [0, " + (groups - 1) + "] but was " + group);
    }
    return fileGroups[group];
  }

  /** @return rows (chassis) per group */
  public int rows() {
    return rows;
  }

  /** @return columns (slots) per group */
  public int columns() {
    return columns;
  }

  /**
   * @param linkClass 0 rank-1, 1 rank-2, 2 rank-3
   * @return cabled links of the class (each counted once, not per end)
   */
  public int linkCount(int linkClass) {
    if (linkClass < 0 || linkClass >= CLASS_COUNT) {
      throw new IllegalArgumentException("linkClass must be in [0, 2] but was " + linkClass);
    }
    return linkCount[linkClass];
  }

  /**
   * @return network ports with no far end: listed {@code unused}, not listed at all, or failed (on Edison, 9,360
   *     rank-3 ports, all listed {@code unused})
   */
  public int unusedPorts() {
    return unusedPorts;
  }

  /**
   * @param group a group
   * @param peerGroup another group
   * @return rank-3 links joining the two
   */
  public int linksBetween(int group, int peerGroup) {
    if ((Args.outside(group, groups) | Args.outside(peerGroup, groups)) < 0) {
      throw Args.outOfRange("group", group, groups, "peerGroup", peerGroup, groups);
    }
    int k = group * groups + peerGroup;
    return pairStart[k + 1] - pairStart[k];
  }

  /**
   * The Cray tile name of a port, the inverse of the port numbering.
   *
   * @param port 0 to 39
   * @return e.g. {@code l07} for port 7, {@code l47} for port 39
   */
  public static String tileName(int port) {
    if (port < 0 || port >= NETWORK_TILES) {
      throw new IllegalArgumentException("port must be in [0, 39] but was " + port);
    }
    return "l" + port / 8 + port % 8;
  }

  // ---- Topology ----

  @Override
  public int nodeCount() {
    return nodes;
  }

  @Override
  public int routerCount() {
    return routers;
  }

  @Override
  public int nodesPerRouter() {
    return nodesPerRouter;
  }

  @Override
  public int groupCount() {
    return groups;
  }

  @Override
  public int routersPerGroup() {
    return routersPerGroup;
  }

  @Override
  public int portCount() {
    return NETWORK_TILES;
  }

  // The query methods below check their arguments with one compare (Args.outside) and build no message unless
  // it fails; routing calls several of them on every packet-hop, and the methods that call each other use the
  // private, unchecked forms.

  /** @throws IllegalArgumentException when {@code node} is outside [0, nodeCount) */
  @Override
  public int routerOfNode(int node) {
    if (Args.outside(node, nodes) < 0) {
      throw Args.outOfRange("node", node, nodes);
    }
    return node / nodesPerRouter;
  }

  /** @throws IllegalArgumentException when {@code router} is outside [0, routerCount) */
  @Override
  public int groupOfRouter(int router) {
    if (Args.outside(router, routers) < 0) {
      throw Args.outOfRange("router", router, routers);
    }
    return router / routersPerGroup;
  }

  /** @throws IllegalArgumentException when {@code group} or {@code index} is out of range */
  @Override
  public int routerInGroup(int group, int index) {
    if ((Args.outside(group, groups) | Args.outside(index, routersPerGroup)) < 0) {
      throw Args.outOfRange("group", group, groups, "index", index, routersPerGroup);
    }
    return group * routersPerGroup + index;
  }

  /** @throws IllegalArgumentException when {@code router} or {@code port} is out of range */
  @Override
  public int neighborRouter(int router, int port) {
    checkPort(router, port);
    int q = peer[router * NETWORK_TILES + port];
    return q < 0 ? -1 : q / NETWORK_TILES;
  }

  /** @throws IllegalArgumentException when {@code router} or {@code port} is out of range */
  @Override
  public int neighborPort(int router, int port) {
    checkPort(router, port);
    int q = peer[router * NETWORK_TILES + port];
    return q < 0 ? -1 : q % NETWORK_TILES;
  }

  /** @throws IllegalArgumentException when {@code router} or {@code port} is out of range */
  @Override
  public int linkClass(int router, int port) {
    checkPort(router, port);
    return portClass[router * NETWORK_TILES + port];
  }

  private void checkPort(int router, int port) {
    if ((Args.outside(router, routers) | Args.outside(port, NETWORK_TILES)) < 0) {
      throw Args.outOfRange("router", router, routers, "port", port, NETWORK_TILES);
    }
  }

  private void checkRouters(int router, int target) {
    if ((Args.outside(router, routers) | Args.outside(target, routers)) < 0) {
      throw Args.outOfRange("router", router, routers, "target", target, routers);
    }
  }

  @Override
  public int linkClassCount() {
    return CLASS_COUNT;
  }

  /** @throws IllegalArgumentException when {@code linkClass} is outside [0, 2] */
  @Override
  public String linkClassName(int linkClass) {
    return rates.linkClassName(linkClass);
  }

  /** @throws IllegalArgumentException when {@code linkClass} is outside [0, 2] */
  @Override
  public double linkBandwidth(int linkClass) {
    return rates.linkBandwidth(linkClass);
  }

  /** @throws IllegalArgumentException when {@code linkClass} is outside [0, 2] */
  @Override
  public long linkLatencyPs(int linkClass) {
    return rates.linkLatencyPs(linkClass);
  }

  @Override
  public double injectionBandwidth() {
    return rates.injectionBandwidth();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Preconditions, not checked (this is called at every packet-hop, and a check there costs every run): {@code
   * out} is not null and has room for {@link #maxMinimalPorts()} ports; a null array fails with a {@link
   * NullPointerException} and a shorter one with an {@link ArrayIndexOutOfBoundsException}, perhaps only for some
   * routers.
   *
   * @throws IllegalArgumentException when {@code router} or {@code target} is out of range
   */
  @Override
  public int minimalPorts(int router, int target, int hash, int[] out) {
    checkRouters(router, target);
    int gr = router / routersPerGroup;
    int gt = target / routersPerGroup;
    if (gr == gt) {
      return localPorts(router, target % routersPerGroup, out);
    }
    int n = 0;
    int base = router * NETWORK_TILES;
    for (int p = 0; p < NETWORK_TILES; p++) {
      int q = peer[base + p];
      if (q >= 0 && portClass[base + p] == 2 && groupOfPort(q) == gt) {
        out[n++] = p;
      }
    }
    if (n > 0) {
      return n;
    }
    int k = gr * groups + gt;
    int exit = pairLinks[pairStart[k] + Math.floorMod(hash, pairStart[k + 1] - pairStart[k])] / NETWORK_TILES;
    return localPorts(router, exit % routersPerGroup, out);
  }

  private int localPorts(int router, int targetIndex, int[] out) {
    int k = router * routersPerGroup + targetIndex;
    int n = 0;
    for (int i = localStart[k]; i < localStart[k + 1]; i++) {
      out[n++] = localPorts[i];
    }
    return n;
  }

  @Override
  public int maxMinimalPorts() {
    return maxMinimalPorts;
  }

  /** @throws IllegalArgumentException when {@code router} or {@code target} is out of range */
  @Override
  public int minimalHops(int router, int target) {
    checkRouters(router, target);
    int gr = router / routersPerGroup;
    int gt = target / routersPerGroup;
    int ti = target % routersPerGroup;
    if (gr == gt) {
      return dist(gr, router % routersPerGroup, ti);
    }
    int best = Integer.MAX_VALUE;
    int base = router * NETWORK_TILES;
    for (int p = 0; p < NETWORK_TILES; p++) {
      int q = peer[base + p];
      if (q >= 0 && portClass[base + p] == 2 && groupOfPort(q) == gt) {
        best = Math.min(best, 1 + dist(gt, q / NETWORK_TILES % routersPerGroup, ti));
      }
    }
    if (best != Integer.MAX_VALUE) {
      return best;
    }
    int k = gr * groups + gt;
    int ri = router % routersPerGroup;
    for (int i = pairStart[k]; i < pairStart[k + 1]; i++) {
      int exit = pairLinks[i] / NETWORK_TILES % routersPerGroup;
      int entry = peer[pairLinks[i]] / NETWORK_TILES % routersPerGroup;
      best = Math.min(best, dist(gr, ri, exit) + 1 + dist(gt, entry, ti));
    }
    return best;
  }

  @Override
  public int maxLocalHops() {
    return maxLocalHops;
  }

  @Override
  public String describe() {
    // a count of one is singular: a one-group system was "1 groups (file groups 0)", one failure "1 links failed"
    return String.format(Locale.ROOT,
        "cabled aries dragonfly from %s: %s (file %s %s) × (%s × %s) routers, %s/router; links rank-1 %d, rank-2 %d,"
            + " rank-3 %d (%s unused%s); %s, %s",
        source, count(groups, "group"), groups == 1 ? "group" : "groups", ranges(fileGroups), count(rows, "row"),
        count(columns, "column"), count(nodesPerRouter, "node"), linkCount[0], linkCount[1], linkCount[2],
        count(unusedPorts, "port"), failedLinkCount() == 0 ? "" : ", " + count(failedLinkCount(), "link") + " failed",
        count(routerCount(), "router"), count(nodeCount(), "node"));
  }

  /** @return {@code n} and the noun, with an s unless {@code n} is 1 */
  static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  /** @return the groups as ranges, e.g. {@code 0-11,13-15} */
  private static String ranges(int[] sorted) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < sorted.length) {
      int j = i;
      while (j + 1 < sorted.length && sorted[j + 1] == sorted[j] + 1) {
        j++;
      }
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(sorted[i]);
      if (j > i) {
        sb.append('-').append(sorted[j]);
      }
      i = j + 1;
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return describe();
  }
}
