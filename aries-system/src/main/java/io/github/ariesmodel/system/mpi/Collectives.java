package io.github.ariesmodel.system.mpi;

import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.nic.CeOperation;
import io.github.ariesmodel.nic.CeResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The collectives of one rank, built on its point-to-point layer in each communicator's collective context, with
 * the algorithms MPICH selects by message size and rank count (cut-overs in {@link MpiConfig}). Every algorithm
 * moves real bytes; reductions combine them here, charged at {@link MpiConfig#reduceBytesPerSecond()}.
 *
 * <p>The algorithms and their order of messages are those of MPICH 3.1-3.2's {@code src/mpi/coll} (docs/mpi.md [M8]);
 * barrier, bcast, reduce and allreduce take its SMP-aware (node-leader) variants on a communicator with two or more
 * ranks on some node ({@link MpiConfig#smpCollectives()}). MPICH's algorithms for non-commutative operations are not
 * here, as every {@link ReduceOp} is commutative.
 */
final class Collectives {

  private static final int BARRIER = 1;
  private static final int BCAST = 2;
  private static final int REDUCE = 3;
  private static final int ALLREDUCE = 4;
  private static final int GATHER = 5;
  private static final int GATHERV = 6;
  private static final int SCATTER = 7;
  private static final int SCATTERV = 8;
  private static final int ALLGATHER = 9;
  private static final int ALLGATHERV = 10;
  private static final int ALLTOALL = 11;
  private static final int ALLTOALLV = 12;
  private static final int REDUCE_SCATTER = 13;
  private static final int SCAN = 14;

  private static final byte[] NOTHING = new byte[0];

  private final Rank me;
  private final MpiConfig cfg;

  Collectives(Rank me) {
    this.me = me;
    this.cfg = me.config;
  }

  // ------------------------------------------------------------------------------------------- plumbing

  private Request isend(Communicator c, byte[] b, int off, int len, int to, int tag) {
    return isend(c, b, off, len, to, tag, false);
  }

  private Request isend(Communicator c, byte[] b, int off, int len, int to, int tag, boolean synchronous) {
    return me.startSend(b, off, len, c.worldRank(to), tag + c.tagBase(), c.collectiveContext(), c, synchronous);
  }

  private Request irecv(Communicator c, byte[] b, int off, int len, int from, int tag) {
    return me.postReceive(b, off, len, c.worldRank(from), tag + c.tagBase(), c.collectiveContext(), c);
  }

  /**
   * A blocking send ({@code MPIC_Send}). To the rank itself with no receive posted it fails at once, as
   * {@code MPI_Send} does: MPICH's {@code MPIC_Send} ({@code src/mpi/coll/helper_fns.c}, 3.x) is {@code MPID_Send} in
   * the collective context, with the same {@code **dev|selfsenddeadlock} check. No algorithm here sends to its own
   * rank (package-private for the test of that failure).
   */
  void send(Communicator c, byte[] b, int off, int len, int to, int tag) {
    Request s = isend(c, b, off, len, to, tag);
    me.failUnmatchedCollectiveSelfSend(s);
    me.wait(s);
  }

  private void recv(Communicator c, byte[] b, int off, int len, int from, int tag) {
    me.wait(irecv(c, b, off, len, from, tag));
  }

  private void sendrecv(Communicator c, byte[] sb, int so, int sl, int to, byte[] rb, int ro, int rl, int from,
      int tag) {
    Request r = irecv(c, rb, ro, rl, from, tag);
    Request s = isend(c, sb, so, sl, to, tag);
    me.waitall(r, s);
  }

  private void combine(ElementType t, ReduceOp op, byte[] acc, int accOff, byte[] in, int inOff, int count) {
    me.process.sleep(me.reducePs((long) count * ElementType.BYTES));
    t.reduce(op, acc, accOff, in, inOff, count);
  }

  private void copy(byte[] src, int so, byte[] dst, int d, int len) {
    me.process.sleep(me.copyPs(len));
    System.arraycopy(src, so, dst, d, len);
  }

  private static boolean powerOfTwo(int n) {
    return (n & (n - 1)) == 0;
  }

  /** This member's node communicators when the SMP-aware algorithms apply to {@code c}, else null. */
  private NodeLayout.View smp(Communicator c) {
    return cfg.smpCollectives() ? c.smp() : null;
  }

  // ------------------------------------------------------------------------------------------- barrier, bcast

  void barrier(Communicator c) {
    if (c == me.world && c.size() > 1 && me.collectiveEngine()) {
      engineBarrier(c);
      return;
    }
    int n = c.size();
    if (n == 1) {
      return;
    }
    NodeLayout.View v = smp(c);
    if (v != null) {
      smpBarrier(v);
      return;
    }
    int r = c.rank();
    for (int d = 1; d < n; d <<= 1) {
      sendrecv(c, NOTHING, 0, 0, (r + d) % n, NOTHING, 0, 0, (r - d + n) % n, BARRIER);
    }
  }

  /**
   * The world's barrier on the collective engine (docs/mpi.md, "Collective engine"): on a node of two or more of the
   * world's ranks, MPICH's SMP-aware barrier ({@link #smpBarrier}) with the engine in place of the roots' barrier: a
   * barrier among the node's ranks over shared memory, the node's first rank alone posting to the node's CE channel,
   * then a one-byte bcast on the node from it. A rank alone on its node posts at once.
   */
  private void engineBarrier(Communicator c) {
    Communicator node = engineNode(c);
    if (node != null) {
      barrier(node);
    }
    if (node == null || node.rank() == 0) {
      me.collectiveEngineReduce(CeOperation.AND, -1L, 0, false); // a barrier is a reduction whose value nobody reads
    }
    if (node != null) {
      bcast(new byte[1], 0, 1, 0, node);
    }
  }

  /**
   * The node communicator of an engine collective on {@code c} (the world), or null when this rank is alone on its
   * node and posts for itself. The node's first rank posts for the node; each other rank counts the call as one it
   * contributed to ({@link Rank#contributeThroughNode}). The node communicator is the SMP-aware collectives' (the
   * same with {@code smpCollectives} off, which chooses the algorithms of the other collectives only).
   */
  private Communicator engineNode(Communicator c) {
    NodeLayout.View v = c.smp();
    Communicator node = v != null ? v.nodeComm : null;
    if (node != null && node.rank() != 0) {
      me.contributeThroughNode();
    }
    return node;
  }

  /**
   * MPICH's SMP-aware barrier ({@code barrier_smp_intra}): a barrier among each node's members, one among the nodes'
   * first members, then a one-byte bcast on each node from its first member (MPICH's comment: a 0-byte bcast would
   * return at once).
   */
  private void smpBarrier(NodeLayout.View v) {
    if (v.nodeComm != null) {
      barrier(v.nodeComm);
    }
    if (v.rootsComm != null) {
      barrier(v.rootsComm);
    }
    if (v.nodeComm != null) {
      bcast(new byte[1], 0, 1, 0, v.nodeComm);
    }
  }

  void bcast(byte[] buf, int off, int len, int root, Communicator c) {
    int n = c.size();
    if (n == 1 || len == 0) {
      return; // MPICH returns at once from a bcast of nothing (MPIR_Bcast_intra: count 0, or nbytes 0)
    }
    NodeLayout.View v = smp(c);
    if (v != null) {
      smpBcast(buf, off, len, root, c, v);
      return;
    }
    if (len < cfg.bcastShortBytes() || n < cfg.bcastMinProcs()) {
      binomialBcast(buf, off, len, root, c);
    } else {
      scatterAllgatherBcast(buf, off, len, root, c);
    }
  }

  /**
   * MPICH's SMP-aware bcast ({@code MPIR_SMP_Bcast}/{@code smp_bcast}), chosen as it chooses: below the short size or
   * on fewer than {@code bcastMinProcs} ranks, the root hands the data to its node's first member, the first members
   * bcast among themselves, then each node bcasts from its first member (the root's node too, so the root receives
   * its own data back, as in MPICH); at medium sizes on a power-of-two communicator, the root's node bcasts from the
   * root, the first members among themselves, then every other node from its first member; otherwise the flat
   * scatter and ring allgather on the whole communicator. Each phase picks its own algorithm by its communicator's
   * size, as MPICH's calls on its sub-communicators do.
   */
  private void smpBcast(byte[] buf, int off, int len, int root, Communicator c, NodeLayout.View v) {
    int localRoot = v.intranodeRank(root);
    int rootNode = v.internodeRank(root);
    if (len < cfg.bcastShortBytes() || c.size() < cfg.bcastMinProcs()) {
      if (v.nodeComm != null && localRoot > 0) {
        if (c.rank() == root) {
          send(v.nodeComm, buf, off, len, 0, BCAST);
        } else if (v.nodeComm.rank() == 0) {
          recv(v.nodeComm, buf, off, len, localRoot, BCAST);
        }
      }
      if (v.rootsComm != null) {
        bcast(buf, off, len, rootNode, v.rootsComm);
      }
      if (v.nodeComm != null) {
        bcast(buf, off, len, 0, v.nodeComm);
      }
    } else if (len < cfg.bcastLongBytes() && powerOfTwo(c.size())) {
      if (v.nodeComm != null && localRoot > 0) {
        bcast(buf, off, len, localRoot, v.nodeComm);
      }
      if (v.rootsComm != null) {
        bcast(buf, off, len, rootNode, v.rootsComm);
      }
      if (v.nodeComm != null && localRoot <= 0) {
        bcast(buf, off, len, 0, v.nodeComm);
      }
    } else {
      scatterAllgatherBcast(buf, off, len, root, c); // the ring allgather: large, or not a power of two
    }
  }

  private void binomialBcast(byte[] buf, int off, int len, int root, Communicator c) {
    int n = c.size();
    int rr = (c.rank() - root + n) % n;
    int mask = 1;
    while (mask < n) {
      if ((rr & mask) != 0) {
        recv(c, buf, off, len, (rr - mask + root) % n, BCAST);
        break;
      }
      mask <<= 1;
    }
    mask >>= 1;
    while (mask > 0) {
      if (rr + mask < n) {
        send(c, buf, off, len, (rr + mask + root) % n, BCAST);
      }
      mask >>= 1;
    }
  }

  private void scatterAllgatherBcast(byte[] buf, int off, int len, int root, Communicator c) {
    int n = c.size();
    int rr = (c.rank() - root + n) % n;
    int chunk = (len + n - 1) / n;
    // Binomial scatter: relative rank i ends with bytes [i*chunk, (i+1)*chunk) of the message.
    int sub;
    if (rr == 0) {
      sub = Integer.highestOneBit(n - 1) << 1;
    } else {
      sub = rr & -rr;
      int lo = Math.min(rr * chunk, len);
      int hi = Math.min(Math.min(rr + sub, n) * chunk, len);
      recv(c, buf, off + lo, hi - lo, (rr - sub + root) % n, BCAST);
    }
    for (int mask = sub >> 1; mask >= 1; mask >>= 1) {
      int child = rr + mask;
      if (child < n) {
        int lo = Math.min(child * chunk, len);
        int hi = Math.min(Math.min(child + mask, n) * chunk, len);
        send(c, buf, off + lo, hi - lo, (child + root) % n, BCAST);
      }
    }
    if (powerOfTwo(n) && len < cfg.bcastLongBytes()) {
      // Recursive-doubling allgather of the chunks (MPICH's medium-message bcast).
      for (int dist = 1; dist < n; dist <<= 1) {
        int partner = rr ^ dist;
        int mine = rr & ~(dist - 1);
        int theirs = partner & ~(dist - 1);
        int mlo = Math.min(mine * chunk, len);
        int mhi = Math.min((mine + dist) * chunk, len);
        int tlo = Math.min(theirs * chunk, len);
        int thi = Math.min((theirs + dist) * chunk, len);
        sendrecv(c, buf, off + mlo, mhi - mlo, (partner + root) % n, buf, off + tlo, thi - tlo,
            (partner + root) % n, BCAST);
      }
      return;
    }
    // Ring allgather of the chunks.
    int right = (c.rank() + 1) % n;
    int left = (c.rank() - 1 + n) % n;
    for (int i = 0; i < n - 1; i++) {
      int s = (rr - i + n) % n;
      int g = (rr - i - 1 + n) % n;
      int slo = Math.min(s * chunk, len);
      int shi = Math.min((s + 1) * chunk, len);
      int glo = Math.min(g * chunk, len);
      int ghi = Math.min((g + 1) * chunk, len);
      sendrecv(c, buf, off + slo, shi - slo, right, buf, off + glo, ghi - glo, left, BCAST);
    }
  }

  // ------------------------------------------------------------------------------------------- reductions

  byte[] reduce(ElementType t, byte[] data, int count, ReduceOp op, int root, Communicator c) {
    int n = c.size();
    if (n == 1) {
      return data.clone();
    }
    if (count == 0) {
      return c.rank() == root ? new byte[0] : null; // MPICH's MPIR_Reduce_intra returns at once for count 0
    }
    NodeLayout.View v = smp(c);
    if (v != null) {
      return smpReduce(t, data, count, op, root, c, v);
    }
    int pof2 = Integer.highestOneBit(n);
    if ((long) count * ElementType.BYTES <= cfg.reduceShortBytes() || count < pof2) {
      return binomialReduce(t, data, count, op, root, c);
    }
    return rabenseifnerReduce(t, data, count, op, root, c);
  }

  /**
   * MPICH's SMP-aware reduce ({@code reduce_smp_intra}; every operation here is commutative, as it requires): each node
   * but the root's reduces to its first member, the first members reduce to the root's node's first member (which
   * adds its own data), and the root's node reduces to the root (its first member's contribution being the result so
   * far).
   *
   * @return the result at the root, null elsewhere
   */
  private byte[] smpReduce(ElementType t, byte[] data, int count, ReduceOp op, int root, Communicator c,
      NodeLayout.View v) {
    int localRoot = v.intranodeRank(root);
    int rootNode = v.internodeRank(root);
    byte[] nodeSum = null;
    if (v.nodeComm != null && localRoot == -1) {
      nodeSum = reduce(t, data, count, op, 0, v.nodeComm);
    }
    byte[] mine = data;
    if (v.rootsComm != null) {
      if (v.rootsComm.rank() != rootNode) {
        reduce(t, v.nodeComm == null ? data : nodeSum, count, op, rootNode, v.rootsComm);
      } else {
        mine = reduce(t, data, count, op, rootNode, v.rootsComm);
      }
    }
    if (v.nodeComm != null && localRoot != -1) {
      return reduce(t, mine, count, op, localRoot, v.nodeComm);
    }
    return c.rank() == root ? mine : null;
  }

  private byte[] binomialReduce(ElementType t, byte[] data, int count, ReduceOp op, int root, Communicator c) {
    int n = c.size();
    int bytes = count * ElementType.BYTES;
    byte[] acc = data.clone();
    byte[] tmp = new byte[bytes];
    int rr = (c.rank() - root + n) % n;
    for (int mask = 1; mask < n; mask <<= 1) {
      if ((rr & mask) == 0) {
        int src = rr | mask;
        if (src < n) {
          recv(c, tmp, 0, bytes, (src + root) % n, REDUCE);
          combine(t, op, acc, 0, tmp, 0, count);
        }
      } else {
        send(c, acc, 0, bytes, ((rr & ~mask) + root) % n, REDUCE);
        break;
      }
    }
    return rr == 0 ? acc : null;
  }

  byte[] allreduce(ElementType t, byte[] data, int count, ReduceOp op, Communicator c) {
    int n = c.size();
    if (n == 1 || count == 0) {
      return data.clone(); // MPICH's MPIR_Allreduce_intra returns at once for count 0
    }
    CeOperation ce = c == me.world && me.collectiveEngine() ? engineOperation(t, op, count) : null;
    if (ce != null) {
      return engineAllreduce(t, data, count, op, ce, c);
    }
    NodeLayout.View v = smp(c);
    if (v != null) {
      // MPICH's SMP-aware allreduce: reduce to each node's first member, allreduce among them, bcast on each node.
      byte[] acc = v.nodeComm != null ? reduce(t, data, count, op, 0, v.nodeComm) : data.clone();
      if (v.rootsComm != null) {
        acc = allreduce(t, acc, count, op, v.rootsComm);
      }
      if (v.nodeComm != null) {
        byte[] out = v.nodeComm.rank() == 0 ? acc : new byte[count * ElementType.BYTES];
        bcast(out, 0, out.length, 0, v.nodeComm);
        return out;
      }
      return acc;
    }
    int pof2 = Integer.highestOneBit(n);
    if ((long) count * ElementType.BYTES <= cfg.allreduceShortBytes() || count < pof2) {
      return recursiveDoublingAllreduce(t, data, count, op, c);
    }
    return rabenseifnerAllreduce(t, data, count, op, c);
  }

  /**
   * An allreduce on the collective engine (docs/mpi.md, "Collective engine"): on a node of two or more of the world's
   * ranks, MPICH's SMP-aware allreduce with the engine in place of the roots' allreduce: a reduce to the node's first
   * rank over shared memory (MPICH's algorithm for the node's size, a binomial tree at these sizes), that rank alone
   * posting the node's value to the node's CE channel, then a bcast of the result on the node from it. A rank alone
   * on its node posts its own value. The first rank posts its node's value with the index of {@link #zeroIndex}, so
   * the node's software MIN or MAX (Java's order of signed zeros) decides the node's zero and the engine the nodes'.
   */
  private byte[] engineAllreduce(ElementType t, byte[] data, int count, ReduceOp op, CeOperation ce,
      Communicator c) {
    int bytes = count * ElementType.BYTES;
    Communicator node = engineNode(c);
    byte[] acc = node != null ? reduce(t, data, count, op, 0, node) : data;
    byte[] out = new byte[bytes];
    if (node == null || node.rank() == 0) {
      long a = LittleEndian.get(acc, 0, ElementType.BYTES);
      long b = count == 2 ? LittleEndian.get(acc, ElementType.BYTES, ElementType.BYTES) : zeroIndex(ce, a);
      CeResult r = me.collectiveEngineReduce(ce, a, b, count == 2);
      LittleEndian.put(out, 0, ElementType.BYTES, r.result1());
      if (count == 2) {
        LittleEndian.put(out, ElementType.BYTES, ElementType.BYTES, r.result2());
      }
    }
    if (node != null) {
      bcast(out, 0, bytes, 0, node);
    }
    return out;
  }

  /**
   * The collective engine's command for an allreduce it can do, or null: one or two 64-bit elements (two only for the
   * one-operand commands, {@code GNI_CEMODE_TWO_OP} [S5]) and an operation the engine has (no product; min and max
   * with an index the result ignores).
   */
  private static CeOperation engineOperation(ElementType t, ReduceOp op, int count) {
    CeOperation ce = switch (op) {
      case SUM -> t == ElementType.DOUBLE ? CeOperation.FPADD : CeOperation.IADD;
      case MIN -> t == ElementType.DOUBLE ? CeOperation.FPMIN_LIDX : CeOperation.IMIN_LIDX;
      case MAX -> t == ElementType.DOUBLE ? CeOperation.FPMAX_LIDX : CeOperation.IMAX_LIDX;
      case BAND -> CeOperation.AND;
      case BOR -> CeOperation.OR;
      case BXOR -> CeOperation.XOR;
      case PROD -> null;
    };
    if (ce == null || count < 1 || count > 2 || count == 2 && ce.indexed()) {
      return null;
    }
    return ce;
  }

  /**
   * The index a rank posts with its value (its node's, on a node of several ranks) for an indexed command. The result
   * ignores the index, which only breaks ties: the engine keeps the lowest index among equal values ({@code _LIDX}
   * [S5]). The model's engine compares -0.0
   * and +0.0 as equal (assumed, {@code CeAccumulator}) while MPI's software algorithms, through {@code Math.min} and
   * {@code Math.max}, order -0.0 below +0.0; so -0.0 gets index 0 for FPMIN and index 1 for FPMAX, and every other
   * value the other index, and the engine's min and max of zeros are the software's (-0.0 for MIN when any rank gave
   * it, +0.0 for MAX when any rank gave it). Were the hardware to order signed zeros as Java does, the indices would
   * change nothing. Equal values other than zeros have equal bits, so their index does not matter.
   */
  private static long zeroIndex(CeOperation ce, long bits) {
    boolean negativeZero = bits == Long.MIN_VALUE; // the bits of -0.0
    return switch (ce) {
      case FPMIN_LIDX -> negativeZero ? 0 : 1;
      case FPMAX_LIDX -> negativeZero ? 1 : 0;
      default -> 0;
    };
  }

  /** Real rank of a "new rank" after folding a non-power-of-two size onto pof2 ranks. */
  private static int real(int newrank, int rem) {
    return newrank < rem ? 2 * newrank + 1 : newrank + rem;
  }

  /** Folds the first 2·rem ranks pairwise: even ones hand their vector to the next odd one and sit out. */
  private int fold(ElementType t, byte[] acc, int count, ReduceOp op, Communicator c, int rem, int tag) {
    return fold(t, acc, count, op, c, rem, tag, false);
  }

  /**
   * Folds the first 2·rem ranks pairwise, one of each pair handing its vector to the other and sitting out: the even
   * ones to the next (MPICH's allreduce and reduce_scatter) or, with {@code evenKeeps}, the odd ones to the previous
   * (MPICH's reduce, so that rank 0 takes part).
   *
   * @return this rank's new rank, or -1 when it sits out
   */
  private int fold(ElementType t, byte[] acc, int count, ReduceOp op, Communicator c, int rem, int tag,
      boolean evenKeeps) {
    int r = c.rank();
    int bytes = count * ElementType.BYTES;
    if (r < 2 * rem) {
      boolean even = r % 2 == 0;
      if (even != evenKeeps) {
        send(c, acc, 0, bytes, even ? r + 1 : r - 1, tag);
        return -1;
      }
      byte[] tmp = new byte[bytes];
      recv(c, tmp, 0, bytes, even ? r + 1 : r - 1, tag);
      combine(t, op, acc, 0, tmp, 0, count);
      return r / 2;
    }
    return r - rem;
  }

  private void unfold(byte[] acc, Communicator c, int rem, int tag) {
    int r = c.rank();
    if (r < 2 * rem) {
      if (r % 2 == 1) {
        send(c, acc, 0, acc.length, r - 1, tag);
      } else {
        recv(c, acc, 0, acc.length, r + 1, tag);
      }
    }
  }

  private byte[] recursiveDoublingAllreduce(ElementType t, byte[] data, int count, ReduceOp op, Communicator c) {
    int n = c.size();
    int pof2 = Integer.highestOneBit(n);
    int rem = n - pof2;
    int bytes = count * ElementType.BYTES;
    byte[] acc = data.clone();
    int newrank = fold(t, acc, count, op, c, rem, ALLREDUCE);
    if (newrank >= 0) {
      byte[] tmp = new byte[bytes];
      for (int dist = 1; dist < pof2; dist <<= 1) {
        int partner = real(newrank ^ dist, rem);
        sendrecv(c, acc, 0, bytes, partner, tmp, 0, bytes, partner, ALLREDUCE);
        combine(t, op, acc, 0, tmp, 0, count);
      }
    }
    unfold(acc, c, rem, ALLREDUCE);
    return acc;
  }

  /**
   * MPICH's blocks of Rabenseifner's algorithm: count / pof2 elements each, the last one taking the rest.
   *
   * @return element displacements, pof2 + 1 of them
   */
  private static int[] blocks(int count, int pof2) {
    int[] disp = new int[pof2 + 1];
    for (int i = 0; i < pof2; i++) {
      disp[i + 1] = disp[i] + (i < pof2 - 1 ? count / pof2 : count - count / pof2 * (pof2 - 1));
    }
    return disp;
  }

  /** A step's send and receive ranges of blocks, as MPICH's send_idx, recv_idx and last_idx track them. */
  private static final class Halving {
    int sendIdx;
    int recvIdx;
    int lastIdx;
    /** The current doubling step's ranges of blocks: [sendLo, sendHi) to send, [recvLo, recvHi) to receive. */
    int sendLo;
    int sendHi;
    int recvLo;
    int recvHi;

    Halving(int pof2) {
      lastIdx = pof2;
    }

    /**
     * One step of the second half (allreduce's recursive doubling, reduce's binomial gather), from the farthest
     * distance down: this new rank's blocks [sendIdx, ...) grow by its partner's, on the side the partner's rank is.
     */
    void doublingStep(int newrank, int newdst, int mask, int pof2) {
      if (newrank < newdst) {
        if (mask != pof2 / 2) {
          lastIdx += pof2 / (mask * 2);
        }
        recvIdx = sendIdx + pof2 / (mask * 2);
        sendLo = sendIdx;
        sendHi = recvIdx;
        recvLo = recvIdx;
        recvHi = lastIdx;
      } else {
        recvIdx = sendIdx - pof2 / (mask * 2);
        sendLo = sendIdx;
        sendHi = lastIdx;
        recvLo = recvIdx;
        recvHi = sendIdx;
      }
    }
  }

  /**
   * The reduce-scatter half of Rabenseifner's algorithm as MPICH's allreduce and reduce run it: recursive halving
   * from distance 1 up (so the largest halves go to the nearest ranks), the lower new rank keeping the lower half.
   * Afterwards this new rank holds its reduced blocks [h.recvIdx, h.recvIdx + 1) and {@code h} is where MPICH's
   * second half starts.
   *
   * @param realOf the real rank of a new rank (allreduce and reduce fold differently)
   */
  private void scatterHalving(ElementType t, ReduceOp op, byte[] acc, int[] disp, int newrank, int pof2,
      IntUnaryOperator realOf, Communicator c, int tag, Halving h) {
    int es = ElementType.BYTES;
    byte[] tmp = new byte[acc.length];
    for (int mask = 1; mask < pof2; ) {
      int newdst = newrank ^ mask;
      int sendLo;
      int sendHi;
      int recvLo;
      int recvHi;
      if (newrank < newdst) {
        h.sendIdx = h.recvIdx + pof2 / (mask * 2);
        sendLo = h.sendIdx;
        sendHi = h.lastIdx;
        recvLo = h.recvIdx;
        recvHi = h.sendIdx;
      } else {
        h.recvIdx = h.sendIdx + pof2 / (mask * 2);
        sendLo = h.sendIdx;
        sendHi = h.recvIdx;
        recvLo = h.recvIdx;
        recvHi = h.lastIdx;
      }
      sendrecv(c, acc, disp[sendLo] * es, (disp[sendHi] - disp[sendLo]) * es, realOf.applyAsInt(newdst), tmp,
          disp[recvLo] * es, (disp[recvHi] - disp[recvLo]) * es, realOf.applyAsInt(newdst), tag);
      combine(t, op, acc, disp[recvLo] * es, tmp, disp[recvLo] * es, disp[recvHi] - disp[recvLo]);
      h.sendIdx = h.recvIdx;
      mask <<= 1;
      if (mask < pof2) {
        h.lastIdx = h.recvIdx + pof2 / mask;
      }
    }
  }

  /**
   * MPICH's allreduce for long vectors (MPIR_Allreduce_reduce_scatter_allgather): the non-power-of-two fold (even
   * ranks below 2·rem hand their vector to the next), recursive halving from distance 1 up, recursive doubling from
   * the farthest distance down, and the unfold.
   */
  private byte[] rabenseifnerAllreduce(ElementType t, byte[] data, int count, ReduceOp op, Communicator c) {
    int n = c.size();
    int es = ElementType.BYTES;
    int pof2 = Integer.highestOneBit(n);
    int rem = n - pof2;
    byte[] acc = data.clone();
    int newrank = fold(t, acc, count, op, c, rem, ALLREDUCE);
    if (newrank >= 0) {
      int[] disp = blocks(count, pof2);
      Halving h = new Halving(pof2);
      scatterHalving(t, op, acc, disp, newrank, pof2, x -> real(x, rem), c, ALLREDUCE, h);
      for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
        int newdst = newrank ^ mask;
        h.doublingStep(newrank, newdst, mask, pof2);
        int dst = real(newdst, rem);
        sendrecv(c, acc, disp[h.sendLo] * es, (disp[h.sendHi] - disp[h.sendLo]) * es, dst, acc, disp[h.recvLo] * es,
            (disp[h.recvHi] - disp[h.recvLo]) * es, dst, ALLREDUCE);
        if (newrank > newdst) {
          h.sendIdx = h.recvIdx;
        }
      }
    }
    unfold(acc, c, rem, ALLREDUCE);
    return acc;
  }

  /**
   * MPICH's reduce for long vectors (MPIR_Reduce_redscat_gather): the fold the other way (odd ranks below 2·rem hand
   * their vector to the previous one, so that rank 0 takes part), recursive halving from distance 1 up, then a
   * binomial gather of the blocks to the root; a root that sat out takes new rank 0's place, which sends it its block.
   *
   * @return the result at the root, null elsewhere
   */
  private byte[] rabenseifnerReduce(ElementType t, byte[] data, int count, ReduceOp op, int root, Communicator c) {
    int n = c.size();
    int r = c.rank();
    int es = ElementType.BYTES;
    int pof2 = Integer.highestOneBit(n);
    int rem = n - pof2;
    IntUnaryOperator realOf = x -> x < rem ? 2 * x : x + rem;
    byte[] acc = data.clone();
    int newrank = fold(t, acc, count, op, c, rem, REDUCE, true);
    int[] disp = blocks(count, pof2);
    Halving h = new Halving(pof2);
    if (newrank >= 0) {
      scatterHalving(t, op, acc, disp, newrank, pof2, realOf, c, REDUCE, h);
    }
    boolean rootSatOut = root < 2 * rem && root % 2 != 0;
    int newroot;
    if (rootSatOut) {
      if (r == root) {
        recv(c, acc, 0, disp[1] * es, 0, REDUCE);
        newrank = 0;
        h.sendIdx = 0;
        h.lastIdx = 2;
      } else if (newrank == 0) {
        send(c, acc, 0, disp[1] * es, root, REDUCE);
        newrank = -1;
      }
      newroot = 0;
    } else {
      newroot = root < 2 * rem ? root / 2 : root - rem;
    }
    if (newrank >= 0) {
      int j = Integer.numberOfTrailingZeros(pof2) - 1;
      for (int mask = pof2 >> 1; mask > 0; mask >>= 1, j--) {
        int newdst = newrank ^ mask;
        int dst = newdst == 0 && rootSatOut ? root : realOf.applyAsInt(newdst);
        h.doublingStep(newrank, newdst, mask, pof2);
        if (newdst >> j == newroot >> j) {
          send(c, acc, disp[h.sendLo] * es, (disp[h.sendHi] - disp[h.sendLo]) * es, dst, REDUCE);
          break;
        }
        recv(c, acc, disp[h.recvLo] * es, (disp[h.recvHi] - disp[h.recvLo]) * es, dst, REDUCE);
        if (newrank > newdst) {
          h.sendIdx = h.recvIdx;
        }
      }
    }
    return r == root ? acc : null;
  }

  byte[] reduceScatter(ElementType t, byte[] data, int[] counts, ReduceOp op, Communicator c) {
    int n = c.size();
    int r = c.rank();
    int es = ElementType.BYTES;
    int[] disp = new int[n + 1];
    for (int i = 0; i < n; i++) {
      disp[i + 1] = disp[i] + counts[i];
    }
    if (n == 1) {
      return data.clone();
    }
    if (data.length < cfg.reduceScatterLongBytes()) {
      return halvingReduceScatter(t, data, counts, disp, op, c);
    }
    byte[] result = Arrays.copyOfRange(data, disp[r] * es, disp[r + 1] * es);
    byte[] tmp = new byte[result.length];
    for (int i = 1; i < n; i++) {
      int dst = (r + i) % n;
      int src = (r - i + n) % n;
      sendrecv(c, data, disp[dst] * es, counts[dst] * es, dst, tmp, 0, tmp.length, src, REDUCE_SCATTER);
      combine(t, op, result, 0, tmp, 0, counts[r]);
    }
    return result;
  }

  /**
   * MPICH's reduce_scatter for commutative operations below REDSCAT_COMMUTATIVE_LONG_MSG_SIZE: the non-power-of-two
   * fold (even ranks below 2·rem hand their vector to the next, which then also reduces their block), recursive
   * halving from the farthest distance down over the pof2 new ranks' blocks (no message for an empty half), and each
   * odd rank below 2·rem sends its left neighbour its block.
   */
  private byte[] halvingReduceScatter(ElementType t, byte[] data, int[] counts, int[] disp, ReduceOp op,
      Communicator c) {
    int n = c.size();
    int r = c.rank();
    int es = ElementType.BYTES;
    int pof2 = Integer.highestOneBit(n);
    int rem = n - pof2;
    byte[] acc = data.clone();
    int newrank = fold(t, acc, disp[n], op, c, rem, REDUCE_SCATTER);
    byte[] mine = new byte[counts[r] * es];
    if (newrank >= 0) {
      // new rank i does the work of old rank i, and of its left neighbour when it folded one in
      int[] newdisp = new int[pof2 + 1];
      for (int i = 0; i < pof2; i++) {
        newdisp[i] = i < rem ? disp[2 * i] : disp[i + rem];
      }
      newdisp[pof2] = disp[n];
      byte[] tmp = new byte[acc.length];
      int sendIdx = 0;
      int recvIdx = 0;
      int lastIdx = pof2;
      for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
        int newdst = newrank ^ mask;
        int dst = real(newdst, rem);
        int sendLo;
        int sendHi;
        int recvLo;
        int recvHi;
        if (newrank < newdst) {
          sendIdx = recvIdx + mask;
          sendLo = sendIdx;
          sendHi = lastIdx;
          recvLo = recvIdx;
          recvHi = sendIdx;
        } else {
          recvIdx = sendIdx + mask;
          sendLo = sendIdx;
          sendHi = recvIdx;
          recvLo = recvIdx;
          recvHi = lastIdx;
        }
        int sendBytes = (newdisp[sendHi] - newdisp[sendLo]) * es;
        int recvBytes = (newdisp[recvHi] - newdisp[recvLo]) * es;
        if (sendBytes > 0 && recvBytes > 0) {
          sendrecv(c, acc, newdisp[sendLo] * es, sendBytes, dst, tmp, newdisp[recvLo] * es, recvBytes, dst,
              REDUCE_SCATTER);
        } else if (recvBytes > 0) {
          recv(c, tmp, newdisp[recvLo] * es, recvBytes, dst, REDUCE_SCATTER);
        } else if (sendBytes > 0) {
          send(c, acc, newdisp[sendLo] * es, sendBytes, dst, REDUCE_SCATTER);
        }
        if (recvBytes > 0) {
          combine(t, op, acc, newdisp[recvLo] * es, tmp, newdisp[recvLo] * es, recvBytes / es);
        }
        sendIdx = recvIdx;
        lastIdx = recvIdx + mask;
      }
      System.arraycopy(acc, disp[r] * es, mine, 0, mine.length);
    }
    if (r < 2 * rem) {
      if (r % 2 != 0) {
        if (counts[r - 1] > 0) {
          send(c, acc, disp[r - 1] * es, counts[r - 1] * es, r - 1, REDUCE_SCATTER);
        }
      } else if (counts[r] > 0) {
        recv(c, mine, 0, mine.length, r + 1, REDUCE_SCATTER);
      }
    }
    return mine;
  }

  byte[] scan(ElementType t, byte[] data, int count, ReduceOp op, Communicator c) {
    int n = c.size();
    int r = c.rank();
    int bytes = count * ElementType.BYTES;
    byte[] partial = data.clone();
    byte[] result = data.clone();
    byte[] tmp = new byte[bytes];
    for (int mask = 1; mask < n; mask <<= 1) {
      int dst = r ^ mask;
      if (dst < n) {
        sendrecv(c, partial, 0, bytes, dst, tmp, 0, bytes, dst, SCAN);
        if (r > dst) {
          combine(t, op, result, 0, tmp, 0, count);
        }
        combine(t, op, partial, 0, tmp, 0, count);
      }
    }
    return result;
  }

  // ------------------------------------------------------------------------------------------- gather, scatter

  void gather(byte[] send, byte[] recvBuf, int root, Communicator c) {
    int n = c.size();
    int blk = send.length;
    int rr = (c.rank() - root + n) % n;
    int span = rr == 0 ? n : Math.min(rr & -rr, n - rr);
    byte[] tmp = new byte[span * blk];
    System.arraycopy(send, 0, tmp, 0, blk);
    int have = 1;
    for (int mask = 1; mask < n; mask <<= 1) {
      if ((rr & mask) == 0) {
        int src = rr + mask;
        if (src < n) {
          int cnt = Math.min(mask, n - src);
          recv(c, tmp, mask * blk, cnt * blk, (src + root) % n, GATHER);
          have = mask + cnt;
        }
      } else {
        send(c, tmp, 0, have * blk, (rr - mask + root) % n, GATHER);
        break;
      }
    }
    if (rr == 0) {
      for (int i = 0; i < n; i++) {
        System.arraycopy(tmp, i * blk, recvBuf, ((i + root) % n) * blk, blk);
      }
    }
  }

  void scatter(byte[] send, byte[] recvBuf, int root, Communicator c) {
    int n = c.size();
    int blk = recvBuf.length;
    int rr = (c.rank() - root + n) % n;
    byte[] tmp;
    int sub;
    if (rr == 0) {
      tmp = new byte[n * blk];
      for (int i = 0; i < n; i++) {
        System.arraycopy(send, ((i + root) % n) * blk, tmp, i * blk, blk);
      }
      sub = n == 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    } else {
      sub = rr & -rr;
      int cnt = Math.min(sub, n - rr);
      tmp = new byte[cnt * blk];
      recv(c, tmp, 0, cnt * blk, (rr - sub + root) % n, SCATTER);
    }
    for (int mask = sub >> 1; mask >= 1; mask >>= 1) {
      int child = rr + mask;
      if (child < n) {
        int cnt = Math.min(mask, n - child);
        send(c, tmp, mask * blk, cnt * blk, (child + root) % n, SCATTER);
      }
    }
    System.arraycopy(tmp, 0, recvBuf, 0, blk);
  }

  void gatherv(byte[] send, byte[] recvBuf, int[] counts, int[] displs, int root, Communicator c) {
    int n = c.size();
    // MPICH's gatherv: the root posts a receive for every non-empty block; an empty block sends nothing, and from
    // GATHERV_INTER_SSEND_MIN_PROCS ranks (32) on the others send synchronously (MPIC_Ssend)
    if (c.rank() != root) {
      if (send.length > 0) {
        me.wait(isend(c, send, 0, send.length, root, GATHERV, n >= cfg.gathervSsendMinProcs()));
      }
      return;
    }
    List<Request> rs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (i != root && counts[i] > 0) {
        rs.add(irecv(c, recvBuf, displs[i], counts[i], i, GATHERV));
      }
    }
    copy(send, 0, recvBuf, displs[root], send.length);
    me.waitall(rs.toArray(new Request[0]));
  }

  void scatterv(byte[] send, int[] counts, int[] displs, byte[] recvBuf, int root, Communicator c) {
    int n = c.size();
    // MPICH's scatterv: the root sends every non-empty block; an empty block is not received
    if (c.rank() != root) {
      if (recvBuf.length > 0) {
        recv(c, recvBuf, 0, recvBuf.length, root, SCATTERV);
      }
      return;
    }
    List<Request> rs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (i != root && counts[i] > 0) {
        rs.add(isend(c, send, displs[i], counts[i], i, SCATTERV));
      }
    }
    copy(send, displs[root], recvBuf, 0, counts[root]);
    me.waitall(rs.toArray(new Request[0]));
  }

  // ------------------------------------------------------------------------------------------- allgather

  void allgather(byte[] send, byte[] recvBuf, Communicator c) {
    int n = c.size();
    int r = c.rank();
    int blk = send.length;
    long total = (long) n * blk;
    copy(send, 0, recvBuf, r * blk, blk);
    if (n == 1) {
      return;
    }
    if (total < cfg.allgatherLongBytes() && powerOfTwo(n)) {
      for (int dist = 1; dist < n; dist <<= 1) {
        int partner = r ^ dist;
        int mine = r & ~(dist - 1);
        int theirs = partner & ~(dist - 1);
        sendrecv(c, recvBuf, mine * blk, dist * blk, partner, recvBuf, theirs * blk, dist * blk, partner, ALLGATHER);
      }
    } else if (total < cfg.allgatherShortBytes()) {
      byte[] tmp = new byte[n * blk];
      System.arraycopy(send, 0, tmp, 0, blk);
      for (int dist = 1; dist < n; dist <<= 1) {
        int cnt = Math.min(dist, n - dist);
        sendrecv(c, tmp, 0, cnt * blk, (r - dist + n) % n, tmp, dist * blk, cnt * blk, (r + dist) % n, ALLGATHER);
      }
      for (int i = 0; i < n; i++) {
        System.arraycopy(tmp, i * blk, recvBuf, ((r + i) % n) * blk, blk);
      }
      me.process.sleep(me.copyPs((long) n * blk));
    } else {
      int right = (r + 1) % n;
      int left = (r - 1 + n) % n;
      for (int i = 0; i < n - 1; i++) {
        int s = (r - i + n) % n;
        int g = (r - i - 1 + n) % n;
        sendrecv(c, recvBuf, s * blk, blk, right, recvBuf, g * blk, blk, left, ALLGATHER);
      }
    }
  }

  /**
   * MPICH's allgatherv (MPIR_Allgatherv_intra of the 3.1-3.2 era), chosen by the total size as allgather's is:
   * recursive doubling (power-of-two ranks, total below {@code allgatherLongBytes}) and Bruck (total below
   * {@code allgatherShortBytes}) through a buffer packed in rank order, unpacked into the receive buffer's
   * displacements at the end; otherwise the ring, each block sent in pieces of the larger of the smallest count and
   * {@code allgathervPipelineBytes} (ALLGATHERV_PIPELINE_MSG_SIZE).
   */
  void allgatherv(byte[] send, byte[] recvBuf, int[] counts, int[] displs, Communicator c) {
    int n = c.size();
    int r = c.rank();
    long total = 0;
    for (int k : counts) {
      total += k;
    }
    if (total == 0) {
      return; // MPICH returns at once (total_count 0)
    }
    if (total < cfg.allgatherLongBytes() && powerOfTwo(n)) {
      int[] at = packedOffsets(counts);
      byte[] tmp = new byte[(int) total];
      copy(send, 0, tmp, at[r], counts[r]);
      for (int mask = 1; mask < n; mask <<= 1) {
        int dst = r ^ mask;
        int mine = r & -mask; // the roots of this step's two subtrees
        int theirs = dst & -mask;
        sendrecv(c, tmp, at[mine], at[mine + mask] - at[mine], dst, tmp, at[theirs], at[theirs + mask] - at[theirs],
            dst, ALLGATHERV);
      }
      unpack(tmp, at, recvBuf, counts, displs);
    } else if (total < cfg.allgatherShortBytes()) {
      // Bruck: this rank's block first, then those of rank + 1, rank + 2, ...; rotated back at the end
      byte[] tmp = new byte[(int) total];
      copy(send, 0, tmp, 0, counts[r]);
      int have = counts[r];
      int pof2 = 1;
      for (; pof2 <= n / 2; pof2 <<= 1) {
        int got = blocksBytes(counts, r + pof2, pof2);
        sendrecv(c, tmp, 0, have, (r - pof2 + n) % n, tmp, have, got, (r + pof2) % n, ALLGATHERV);
        have += got;
      }
      int rem = n - pof2;
      if (rem > 0) {
        int got = blocksBytes(counts, r + pof2, rem);
        sendrecv(c, tmp, 0, blocksBytes(counts, r, rem), (r - pof2 + n) % n, tmp, have, got, (r + pof2) % n,
            ALLGATHERV);
      }
      int[] at = new int[n + 1];
      for (int i = 0, off = 0; i < n; i++) {
        at[(r + i) % n] = off;
        off += counts[(r + i) % n];
      }
      unpack(tmp, at, recvBuf, counts, displs);
    } else {
      copy(send, 0, recvBuf, displs[r], counts[r]);
      int right = (r + 1) % n;
      int left = (r - 1 + n) % n;
      long torecv = total - counts[r];
      long tosend = total - counts[right];
      int min = Integer.MAX_VALUE;
      for (int k : counts) {
        min = Math.min(min, k);
      }
      int piece = Math.max(Math.max(min, cfg.allgathervPipelineBytes()), 1);
      int sidx = r;
      int ridx = left;
      int soff = 0;
      int roff = 0;
      while (tosend > 0 || torecv > 0) {
        int sendNow = tosend > 0 ? Math.min(piece, counts[sidx] - soff) : 0;
        int recvNow = torecv > 0 ? Math.min(piece, counts[ridx] - roff) : 0;
        if (sendNow > 0 && recvNow > 0) {
          sendrecv(c, recvBuf, displs[sidx] + soff, sendNow, right, recvBuf, displs[ridx] + roff, recvNow, left,
              ALLGATHERV);
        } else if (sendNow > 0) {
          send(c, recvBuf, displs[sidx] + soff, sendNow, right, ALLGATHERV);
        } else if (recvNow > 0) {
          recv(c, recvBuf, displs[ridx] + roff, recvNow, left, ALLGATHERV);
        }
        tosend -= sendNow;
        torecv -= recvNow;
        soff += sendNow;
        roff += recvNow;
        if (soff == counts[sidx]) {
          soff = 0;
          sidx = (sidx + n - 1) % n;
        }
        if (roff == counts[ridx]) {
          roff = 0;
          ridx = (ridx + n - 1) % n;
        }
      }
    }
  }

  /** @return each rank's block's offset in a buffer packed in rank order, and the total at index n */
  private static int[] packedOffsets(int[] counts) {
    int[] at = new int[counts.length + 1];
    for (int i = 0; i < counts.length; i++) {
      at[i + 1] = at[i] + counts[i];
    }
    return at;
  }

  /** @return the bytes of {@code k} consecutive blocks from rank {@code from} (modulo the size) */
  private static int blocksBytes(int[] counts, int from, int k) {
    int s = 0;
    for (int i = 0; i < k; i++) {
      s += counts[(from + i) % counts.length];
    }
    return s;
  }

  /** Copies every block from the packed buffer to its displacement (MPICH copies its own too, from its send buffer). */
  private void unpack(byte[] tmp, int[] at, byte[] recvBuf, int[] counts, int[] displs) {
    long bytes = 0;
    for (int j = 0; j < counts.length; j++) {
      System.arraycopy(tmp, at[j], recvBuf, displs[j], counts[j]);
      bytes += counts[j];
    }
    me.process.sleep(me.copyPs(bytes));
  }

  // ------------------------------------------------------------------------------------------- alltoall

  void alltoall(byte[] send, byte[] recvBuf, Communicator c) {
    int n = c.size();
    int r = c.rank();
    int blk = send.length / n;
    if (blk <= cfg.alltoallShortBytes() && n >= cfg.alltoallMinProcs()) {
      bruckAlltoall(send, recvBuf, blk, c);
      return;
    }
    copy(send, r * blk, recvBuf, r * blk, blk);
    if (blk <= cfg.alltoallMediumBytes()) {
      // MPICH's medium alltoall (its own block, i = 0 of the first batch, is the copy above)
      int[] counts = new int[n];
      int[] displs = new int[n];
      for (int q = 0; q < n; q++) {
        counts[q] = blk;
        displs[q] = q * blk;
      }
      batchedExchange(send, counts, displs, recvBuf, counts, displs, c, ALLTOALL, false);
      return;
    }
    for (int i = 1; i < n; i++) {
      int dst;
      int src;
      if (powerOfTwo(n)) {
        dst = r ^ i;
        src = dst;
      } else {
        dst = (r + i) % n;
        src = (r - i + n) % n;
      }
      sendrecv(c, send, dst * blk, blk, dst, recvBuf, src * blk, blk, src, ALLTOALL);
    }
  }

  private void bruckAlltoall(byte[] send, byte[] recvBuf, int blk, Communicator c) {
    int n = c.size();
    int r = c.rank();
    byte[] tmp = new byte[n * blk];
    for (int i = 0; i < n; i++) {
      System.arraycopy(send, ((r + i) % n) * blk, tmp, i * blk, blk);
    }
    me.process.sleep(me.copyPs((long) n * blk));
    byte[] packed = new byte[n * blk];
    byte[] got = new byte[n * blk];
    for (int dist = 1; dist < n; dist <<= 1) {
      int k = 0;
      for (int i = 0; i < n; i++) {
        if ((i & dist) != 0) {
          System.arraycopy(tmp, i * blk, packed, k * blk, blk);
          k++;
        }
      }
      me.process.sleep(me.copyPs((long) k * blk));
      sendrecv(c, packed, 0, k * blk, (r + dist) % n, got, 0, k * blk, (r - dist + n) % n, ALLTOALL);
      k = 0;
      for (int i = 0; i < n; i++) {
        if ((i & dist) != 0) {
          System.arraycopy(got, k * blk, tmp, i * blk, blk);
          k++;
        }
      }
      me.process.sleep(me.copyPs((long) k * blk));
    }
    for (int i = 0; i < n; i++) {
      System.arraycopy(tmp, i * blk, recvBuf, ((r - i + n) % n) * blk, blk);
    }
    me.process.sleep(me.copyPs((long) n * blk));
  }

  void alltoallv(byte[] send, int[] sendCounts, int[] sendDispls, byte[] recvBuf, int[] recvCounts,
      int[] recvDispls, Communicator c) {
    int n = c.size();
    int r = c.rank();
    if (sendCounts[r] != recvCounts[r]) {
      throw new IllegalArgumentException("sendCounts[rank] (" + sendCounts[r] + ") must equal recvCounts[rank] ("
          + recvCounts[r] + ")");
    }
    copy(send, sendDispls[r], recvBuf, recvDispls[r], sendCounts[r]);
    // MPICH's alltoallv: the same batches as the medium alltoall, and no message for an empty block
    batchedExchange(send, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls, c, ALLTOALLV, true);
  }

  /**
   * MPICH's throttled exchange of alltoall (medium blocks) and alltoallv: in batches of {@code alltoallThrottle}
   * (all at once for 0), irecvs from rank + i and isends to rank - i, then a waitall; this rank's own block is the
   * caller's. With {@code skipEmpty}, an empty block is neither sent nor received (alltoallv).
   */
  private void batchedExchange(byte[] send, int[] sendCounts, int[] sendDispls, byte[] recvBuf, int[] recvCounts,
      int[] recvDispls, Communicator c, int tag, boolean skipEmpty) {
    int n = c.size();
    int r = c.rank();
    int bblock = cfg.alltoallThrottle() == 0 ? n : cfg.alltoallThrottle();
    for (int ii = 0; ii < n; ii += bblock) {
      int ss = Math.min(bblock, n - ii);
      List<Request> rs = new ArrayList<>(2 * ss);
      for (int i = 0; i < ss; i++) {
        int src = (r + i + ii) % n;
        if (src != r && (!skipEmpty || recvCounts[src] > 0)) {
          rs.add(irecv(c, recvBuf, recvDispls[src], recvCounts[src], src, tag));
        }
      }
      for (int i = 0; i < ss; i++) {
        int dst = (r - i - ii + n) % n;
        if (dst != r && (!skipEmpty || sendCounts[dst] > 0)) {
          rs.add(isend(c, send, sendDispls[dst], sendCounts[dst], dst, tag));
        }
      }
      me.waitall(rs.toArray(new Request[0]));
    }
  }

  // ------------------------------------------------------------------------------------------- communicators

  Communicator split(Communicator c, int color, int key) {
    int n = c.size();
    byte[] mine = new byte[8];
    LittleEndian.put(mine, 0, 4, color);
    LittleEndian.put(mine, 4, 4, key);
    byte[] all = new byte[8 * n];
    allgather(mine, all, c);
    // Every member of c counts the same creations (split and dup are collective), so all derive the same context,
    // each alone: ranks of different groups may not agree through shared memory.
    long context = c.childContext(c.nextCreation());
    if (color == Mpi.UNDEFINED) {
      return null;
    }
    List<int[]> members = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int col = (int) LittleEndian.get(all, 8 * i, 4);
      if (col == color) {
        members.add(new int[] {(int) LittleEndian.get(all, 8 * i + 4, 4), i});
      }
    }
    members.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]));
    int[] worldRanks = new int[members.size()];
    int myIndex = -1;
    for (int i = 0; i < worldRanks.length; i++) {
      worldRanks[i] = c.worldRank(members.get(i)[1]);
      if (members.get(i)[1] == c.rank()) {
        myIndex = i;
      }
    }
    return new Communicator(context, worldRanks, myIndex, me);
  }
}
