package io.github.ariesmodel.system.replay;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.traces.TextLines;
import io.github.ariesmodel.traces.TraceFormatException;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Where a replay puts the trace's ranks. Ranks fill a node ({@code ranksPerNode} of them) before the next node;
 * the placement chooses the order of the nodes:
 *
 * <ul>
 *   <li>{@code linear}: nodes 0, 1, 2, ... (one group, then the next: ALPS's default order; assumed);
 *   <li>{@code random}: distinct nodes drawn uniformly from the whole system with the replay's seed;
 *   <li>{@code round-robin-groups}: the first node of group 0, of group 1, ..., then the second node of each group
 *       (spreads a job over every group, the worst case for global links);
 *   <li>{@code FILE}: a text file naming the node of each rank, one node id a line in rank order ({@code #}
 *       comments and blank lines skipped); here several ranks may share a node in any order, at most
 *       {@link TraceReplay#MAX_RANKS_PER_NODE} of them, as {@code ranksPerNode} allows.
 * </ul>
 */
public final class Placement {

  /** The kinds of placement. */
  public enum Kind {
    /** Consecutive nodes from 0. */
    LINEAR,
    /** Distinct random nodes. */
    RANDOM,
    /** One node of each group in turn. */
    ROUND_ROBIN_GROUPS,
    /** Node of each rank given explicitly. */
    EXPLICIT
  }

  /** Consecutive nodes from 0. */
  public static final Placement LINEAR = new Placement(Kind.LINEAR, null, null);
  /** Distinct random nodes. */
  public static final Placement RANDOM = new Placement(Kind.RANDOM, null, null);
  /** One node of each group in turn. */
  public static final Placement ROUND_ROBIN_GROUPS = new Placement(Kind.ROUND_ROBIN_GROUPS, null, null);

  /**
   * Most node ids a mapping file may name: one a rank of the largest trace the readers open (2^22 ranks,
   * {@link SimGridTrace#MAX_RANKS} and {@link io.github.ariesmodel.traces.dumpi.DumpiTrace#MAX_RANKS}).
   */
  public static final int MAX_NODE_IDS = SimGridTrace.MAX_RANKS;

  private final Kind kind;
  private final int[] nodeOfRank;
  private final String source;

  private Placement(Kind kind, int[] nodeOfRank, String source) {
    this.kind = kind;
    this.nodeOfRank = nodeOfRank;
    this.source = source;
  }

  /**
   * An explicit placement.
   *
   * @param nodeOfRank node of each rank, each ≥ 0, at most {@link TraceReplay#MAX_RANKS_PER_NODE} ranks a node
   * @return the placement
   */
  public static Placement explicit(int... nodeOfRank) {
    checkArgument(nodeOfRank != null && nodeOfRank.length > 0, "nodeOfRank must name at least one node");
    for (int i = 0; i < nodeOfRank.length; i++) {
      checkArgument(nodeOfRank[i] >= 0, "nodeOfRank[%s] must be >= 0 but was %s", i, nodeOfRank[i]);
    }
    int over = rankOverNodeLimit(nodeOfRank, nodeOfRank.length);
    checkArgument(over < 0, "nodeOfRank[%s] puts a %sth rank on node %s, more than %s, the most ranks on one node (as"
        + " ranksPerNode)", over, TraceReplay.MAX_RANKS_PER_NODE + 1, over < 0 ? 0 : nodeOfRank[over],
        TraceReplay.MAX_RANKS_PER_NODE);
    return new Placement(Kind.EXPLICIT, nodeOfRank.clone(), null);
  }

  /**
   * The placement a name gives, in any case and without the spaces around it ({@code RANDOM}, {@code Linear}), as
   * {@link #parse} reads a name.
   *
   * @param text {@code linear}, {@code random} or {@code round-robin-groups}
   * @return the placement, or null when the text is no such name (a file's path, say)
   */
  public static Placement named(String text) {
    if (text == null) {
      return null;
    }
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "linear" -> LINEAR;
      case "random" -> RANDOM;
      case "round-robin-groups" -> ROUND_ROBIN_GROUPS;
      default -> null;
    };
  }

  /**
   * Parses {@code linear}, {@code random}, {@code round-robin-groups} (in any case: {@link #named}), or reads a
   * placement file.
   *
   * @param text a name or a file path
   * @return the placement
   * @throws IllegalArgumentException when the text is neither a name nor a readable file of node ids (naming the
   *     file and line)
   */
  public static Placement parse(String text) {
    checkArgument(text != null && !text.isBlank(), "mapping must not be empty");
    Placement named = named(text);
    if (named != null) {
      return named;
    }
    Path file = Path.of(text);
    if (Files.isDirectory(file)) {
      throw new IllegalArgumentException("mapping file " + Texts.abbreviate(text) + " is a directory, not a file of"
          + " node ids");
    }
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("mapping must be linear, random, round-robin-groups or a file of node ids"
          + " but was \"" + Texts.abbreviate(text) + "\" (" + (Files.exists(file) ? "not a regular file" : "no such file")
          + ")");
    }
    // line by line with bounds (Files.readAllLines of a 4 GB file without a line end ran the heap out, and was told as
    // "the Java heap is too small")
    int[] nodes = new int[16];
    int[] lineOf = new int[16]; // each node id's line, to name the one a refusal is about
    int count = 0;
    try (TextLines lines = TextLines.open(file, StandardCharsets.UTF_8)) {
      for (String raw; (raw = lines.next()) != null; ) {
        String l = raw.trim();
        if (l.isEmpty() || l.startsWith("#")) {
          continue;
        }
        int n;
        try {
          n = Integer.parseInt(l);
          checkArgument(n >= 0, "negative");
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("mapping file " + file + ", line " + lines.lineNumber()
              + ": a node id (an integer >= 0) was expected but found \"" + Texts.abbreviate(l) + "\"");
        }
        if (count == MAX_NODE_IDS) {
          throw new IllegalArgumentException("mapping file " + file + ", line " + lines.lineNumber() + ": more than "
              + MAX_NODE_IDS + " node ids, one a rank (no trace has more ranks)");
        }
        if (count == nodes.length) {
          nodes = Arrays.copyOf(nodes, 2 * count);
          lineOf = Arrays.copyOf(lineOf, 2 * count);
        }
        lineOf[count] = (int) Math.min(Integer.MAX_VALUE, lines.lineNumber());
        nodes[count++] = n;
      }
    } catch (TraceFormatException e) {
      throw new IllegalArgumentException("mapping file " + file + ", line " + e.line() + ": " + e.problem(), e);
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("mapping file " + file + " is not UTF-8 text (it holds one node id a line)",
          e);
    } catch (IOException e) {
      throw new IllegalArgumentException("mapping file " + file + " cannot be read: " + e.getMessage(), e);
    }
    checkArgument(count > 0, "mapping file %s names no node", file);
    // (a file put 200 ranks on node 0, while --ranks-per-node 200 was refused, and 300 were named only by the MPI
    // layer: "placement puts more than 272 ranks on node 0", naming neither the file nor the bound)
    int over = rankOverNodeLimit(nodes, count);
    if (over >= 0) {
      throw new IllegalArgumentException("mapping file " + file + ", line " + lineOf[over] + ": puts a "
          + (TraceReplay.MAX_RANKS_PER_NODE + 1) + "th rank (rank " + over + ") on node " + nodes[over] + ", more than "
          + TraceReplay.MAX_RANKS_PER_NODE + ", the most ranks on one node (as --ranks-per-node)");
    }
    return new Placement(Kind.EXPLICIT, Arrays.copyOf(nodes, count), file.toString());
  }

  /**
   * @return the first rank that is one more than {@link TraceReplay#MAX_RANKS_PER_NODE} on its node, or -1 when no
   *     node holds more than that
   */
  private static int rankOverNodeLimit(int[] nodes, int count) {
    int[] sorted = Arrays.copyOf(nodes, count);
    Arrays.sort(sorted);
    boolean over = false;
    for (int i = TraceReplay.MAX_RANKS_PER_NODE; i < count && !over; i++) {
      over = sorted[i] == sorted[i - TraceReplay.MAX_RANKS_PER_NODE];
    }
    if (!over) {
      return -1;
    }
    // some node is over: the rank at which the first one passes the limit, in rank order
    java.util.Map<Integer, Integer> seen = new java.util.HashMap<>();
    for (int r = 0; r < count; r++) {
      if (seen.merge(nodes[r], 1, Integer::sum) > TraceReplay.MAX_RANKS_PER_NODE) {
        return r;
      }
    }
    throw new IllegalStateException("a node over the limit was found sorted but not in rank order");
  }

  /** @return the kind */
  public Kind kind() {
    return kind;
  }

  /**
   * The node of each rank.
   *
   * @param topology the system's topology
   * @param ranks the trace's ranks, ≥ 1
   * @param ranksPerNode ranks on a node (ignored by an explicit placement)
   * @param seed seed of the random placement
   * @return node of rank i at index i
   * @throws IllegalArgumentException when the system is too small or an explicit placement does not fit
   */
  public int[] nodes(Topology topology, int ranks, int ranksPerNode, long seed) {
    return nodes(topology, ranks, ranksPerNode, seed, new BitSet());
  }

  /**
   * The node of each rank, on nodes other jobs have not taken: linear takes the first free nodes in id order,
   * random draws among the free nodes, round-robin-groups goes round the groups' free nodes; an explicit placement
   * must name free nodes.
   *
   * @param topology the system's topology
   * @param ranks the trace's ranks, ≥ 1
   * @param ranksPerNode ranks on a node (ignored by an explicit placement)
   * @param seed seed of the random placement
   * @param taken nodes other jobs hold (not changed)
   * @return node of rank i at index i
   * @throws IllegalArgumentException when the system's free nodes are too few or an explicit placement does not fit
   */
  public int[] nodes(Topology topology, int ranks, int ranksPerNode, long seed, BitSet taken) {
    checkArgument(topology != null, "topology must not be null");
    checkArgument(taken != null, "taken must not be null");
    checkArgument(ranks >= 1, "ranks must be >= 1 but was %s", ranks);
    checkArgument(ranksPerNode >= 1, "ranksPerNode must be >= 1 but was %s", ranksPerNode);
    int systemNodes = topology.nodeCount();
    if (kind == Kind.EXPLICIT) {
      checkArgument(nodeOfRank.length == ranks, "mapping%s names %s nodes but the trace has %s ranks",
          source == null ? "" : " file " + source, nodeOfRank.length, ranks);
      for (int i = 0; i < ranks; i++) {
        checkArgument(nodeOfRank[i] < systemNodes, "mapping%s puts rank %s on node %s but the system's nodes are"
            + " 0 to %s", source == null ? "" : " file " + source, i, nodeOfRank[i], systemNodes - 1);
        checkArgument(!taken.get(nodeOfRank[i]), "mapping%s puts rank %s on node %s, which another job holds",
            source == null ? "" : " file " + source, i, nodeOfRank[i]);
      }
      return nodeOfRank.clone();
    }
    int needed = (ranks + ranksPerNode - 1) / ranksPerNode;
    int free = systemNodes - taken.cardinality();
    if (taken.isEmpty()) {
      checkArgument(needed <= systemNodes, "%s ranks at %s per node need %s nodes but the system has %s", ranks,
          ranksPerNode, needed, systemNodes);
    } else {
      checkArgument(needed <= free, "%s ranks at %s per node need %s nodes but the system has %s free of its %s (the"
          + " other jobs hold the rest)", ranks, ranksPerNode, needed, free, systemNodes);
    }
    int[] order = new int[needed];
    switch (kind) {
      case LINEAR -> {
        int node = -1;
        for (int i = 0; i < needed; i++) {
          node = taken.nextClearBit(node + 1);
          order[i] = node;
        }
      }
      case RANDOM -> {
        // a partial Fisher-Yates shuffle of the free node ids: distinct nodes, memory O(system nodes)
        int[] all = new int[free];
        for (int i = 0, node = taken.nextClearBit(0); i < free; i++, node = taken.nextClearBit(node + 1)) {
          all[i] = node;
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < needed; i++) {
          int j = i + rnd.nextInt(free - i);
          int t = all[i];
          all[i] = all[j];
          all[j] = t;
          order[i] = all[i];
        }
      }
      case ROUND_ROBIN_GROUPS -> {
        int groups = topology.groupCount();
        int perGroup = systemNodes / groups;
        // the first node of each group, then the second, ..., skipping nodes taken (node ids are group-major: the
        // Topology port)
        for (int i = 0, k = 0; i < needed; k++) {
          int node = (k % groups) * perGroup + k / groups;
          if (!taken.get(node)) {
            order[i++] = node;
          }
        }
      }
      default -> throw new IllegalStateException("unhandled placement " + kind);
    }
    int[] out = new int[ranks];
    for (int r = 0; r < ranks; r++) {
      out[r] = order[r / ranksPerNode];
    }
    return out;
  }

  @Override
  public String toString() {
    return switch (kind) {
      case LINEAR -> "linear";
      case RANDOM -> "random";
      case ROUND_ROBIN_GROUPS -> "round-robin-groups";
      case EXPLICIT -> source != null ? source : "explicit(" + nodeOfRank.length + " ranks)";
    };
  }
}
