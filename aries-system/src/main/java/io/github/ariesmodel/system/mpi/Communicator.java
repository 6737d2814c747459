package io.github.ariesmodel.system.mpi;

import java.util.Arrays;

/**
 * A group of ranks with its own message space ({@code MPI_Comm}), as one rank sees it: its rank in the group, the
 * group's size and the world rank of each member. Point-to-point messages and collectives on a communicator never
 * match those of another (each communicator has a context id for point-to-point and one for collectives, as in
 * MPICH). Create new ones with {@link Mpi#split} and {@link Mpi#dup}.
 */
public final class Communicator {

  /**
   * The largest number of bits a context's creation path may take ({@link #childContext}): the path with its leading
   * marker bit then fits in 62 bits, so that both context ids of a communicator are non-negative longs.
   */
  static final int MAX_PATH_BITS = 61;

  /** Added to the collective tags of a node communicator's messages ({@link #smp()}). */
  static final int NODE_TAGS = 16;
  /** Added to the collective tags of a node-roots communicator's messages ({@link #smp()}). */
  static final int ROOT_TAGS = 32;

  private final long context;
  private final int[] worldRanks;
  private final int rank;
  private int created;
  /** Collective calls this rank has made on this communicator ({@link CollectiveLedger}). */
  private int collectiveCalls;
  /** The rank whose handle this is: a communicator is used by the rank (and job) that made it, and by no other. */
  private final Rank owner;
  /** Added to the tag of each collective message on this communicator: 0 but on the node sub-communicators. */
  private final int tagBase;
  /** Whether this is a node or node-roots sub-communicator (MPICH's SUBCOMM contexts), which has none of its own. */
  private final boolean sub;
  private NodeLayout.View smp;
  private boolean smpKnown;

  /** A communicator no rank holds (the context-id tests make such); no rank accepts it. */
  Communicator(long context, int[] worldRanks, int rank) {
    this(context, worldRanks, rank, null);
  }

  Communicator(long context, int[] worldRanks, int rank, Rank owner) {
    this(context, worldRanks, rank, owner, 0, false);
  }

  private Communicator(long context, int[] worldRanks, int rank, Rank owner, int tagBase, boolean sub) {
    this.context = context;
    this.worldRanks = worldRanks;
    this.rank = rank;
    this.owner = owner;
    this.tagBase = tagBase;
    this.sub = sub;
  }

  /**
   * This member's node communicator and node-roots communicator, as MPICH builds them when it commits a communicator
   * (MPIR_Comm_commit, docs/mpi.md [M8]), or null when the communicator is not node-aware: it is itself a node or
   * node-roots communicator, or every member is on a node of its own. The sub-communicators share this communicator's
   * collective context; their messages take tags of their own ({@link #NODE_TAGS}, {@link #ROOT_TAGS}) where MPICH
   * gives them context ids of their own, so they never match this communicator's own collective messages.
   *
   * @return the view, made on first use
   */
  NodeLayout.View smp() {
    if (!smpKnown) {
      smpKnown = true;
      NodeLayout l = sub || owner == null || worldRanks.length < 2 ? null : owner.job.nodeLayout(this);
      if (l != null) {
        int k = l.nodeIndexOf[rank];
        int local = l.localRankOf[rank];
        Communicator node = l.nodeMembers[k].length > 1
            ? new Communicator(context, l.nodeMembers[k], local, owner, NODE_TAGS, true) : null;
        Communicator roots = local == 0 ? new Communicator(context, l.rootWorldRanks, k, owner, ROOT_TAGS, true) : null;
        smp = new NodeLayout.View(l, k, node, roots);
      }
    }
    return smp;
  }

  /** @return the number added to the tag of each collective message on this communicator */
  int tagBase() {
    return tagBase;
  }

  /** @return the rank that holds this communicator */
  Rank owner() {
    return owner;
  }

  /** @return the calling rank's index in this communicator */
  public int rank() {
    return rank;
  }

  /** @return the number of ranks */
  public int size() {
    return worldRanks.length;
  }

  /**
   * The world rank of a member.
   *
   * @param r 0 to size - 1
   * @return its rank in the world communicator
   */
  public int worldRank(int r) {
    if (r < 0 || r >= worldRanks.length) {
      throw new IllegalArgumentException("rank must be in [0, " + (worldRanks.length - 1) + "] but was " + r);
    }
    return worldRanks[r];
  }

  /** @return the context id of point-to-point traffic (collectives use the next one) */
  long context() {
    return context;
  }

  long collectiveContext() {
    return context + 1;
  }

  /**
   * The context id of a communicator created from this one, computed by each member alone: it depends only on this
   * communicator's context and the creation's number, which every member counts alike because creations are
   * collective ({@link #nextCreation()}).
   *
   * <p>The id encodes the communicator's creation path from the world: the creation numbers k1, k2, ... of each step,
   * each written in a prefix-free code (for n = k + 1 with L = floor(log2 n): L ones, a zero, then the L bits of n
   * below its leading one; 2L + 1 bits, so 0 takes one bit and 1 and 2 three), concatenated behind a leading 1. With
   * that marker, v = context / 2 + 1 (1 for the world's empty path) reads back as the path, so two communicators
   * created on different paths never share an id, nor is one's id the other's collective id (ids are even, the
   * collective id is the next odd one). The communicators of one split, one per color, share the id, as in MPICH:
   * their members are disjoint, so a rank never holds two of them. Ids are only compared (matching), never counted.
   *
   * @param creation the creation's number on this communicator, from 0
   * @return the new communicator's point-to-point context id (its collectives use the next one)
   * @throws IllegalStateException when the path takes more than {@value #MAX_PATH_BITS} bits (about 2^30
   *     communicators created from one, or some 60 nested creations), which 64-bit ids cannot tell apart
   */
  long childContext(int creation) {
    long v = context / 2 + 1;
    long n = creation + 1L;
    int l = 63 - Long.numberOfLeadingZeros(n);
    int bits = 2 * l + 1;
    if (64 - Long.numberOfLeadingZeros(v) + bits > MAX_PATH_BITS + 1) {
      throw new IllegalStateException("communicator context ids exhausted: creation " + creation + " on " + this
          + " would need more than " + MAX_PATH_BITS + " bits to stay distinct from every other communicator's");
    }
    long low = (1L << l) - 1;
    long code = low << (l + 1) | (n & low);
    return 2 * ((v << bits | code) - 1);
  }

  /** @return a number that counts communicator creations on this communicator by this rank, from 0 */
  int nextCreation() {
    return created++;
  }

  /** @return the number of this rank's next collective call on this communicator, from 0 */
  int nextCollectiveCall() {
    return collectiveCalls++;
  }

  /** @return the world rank of each member (not a copy: read only) */
  int[] worldRanks() {
    return worldRanks;
  }

  int rankOfWorld(int world) {
    if (world >= 0 && world < worldRanks.length && worldRanks[world] == world) {
      return world; // members are distinct, so this is the only index holding it (always so in the world)
    }
    for (int i = 0; i < worldRanks.length; i++) {
      if (worldRanks[i] == world) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    return "Communicator[context " + context + ", rank " + rank + " of " + worldRanks.length + ", world "
        + Arrays.toString(worldRanks.length <= 8 ? worldRanks : Arrays.copyOf(worldRanks, 8)) + "]";
  }
}
