package io.github.ariesmodel.system.mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What each rank of a job called, collective call by collective call on each communicator, so that a program whose
 * ranks disagree is refused instead of finishing with wrong data or deadlocking in the model's internal traffic.
 *
 * <p>MPI makes such a program erroneous: every member of a communicator must make the same collective calls in the
 * same order, with the same root, operation and element type, and with the amount of data one rank sends matching
 * what its peer receives (MPI 4.0, section 6.1, "the amount of data sent must exactly match the amount of data
 * specified by the receiver"; Example 6.23 on the order of collective calls). Real MPI libraries check little of it
 * (MPICH checks lengths only where a receive truncates); the model checks all of it, because its collectives would
 * otherwise carry out whatever each rank asked for, in silence (a bcast whose ranks name two roots delivered two
 * different buffers).
 *
 * <p><b>Determinism.</b> Ranks of different groups record their calls from different threads at once on a
 * partitioned engine, so the order in which calls reach the ledger is not fixed. Nothing here depends on it: an
 * entry is judged only when all of its communicator's ranks have arrived (then on all of them, in rank order), and at
 * the end of a run on whatever arrived (which, once the run has ended, is fixed by the simulation; after a rank's
 * failure, only the calls made before it). The mismatch reported is the one whose first call was earliest in
 * simulated time, then by communicator and call number; so a program gets the same report for every thread count. The ledger only reads the calls' arguments; it never changes
 * the simulation.
 *
 * <p>Memory: an entry lives from its first rank's call to its last rank's; a consistent entry is dropped then, one
 * that disagrees is kept for the report (the {@value #MAX_KEPT} earliest). Count arrays that equal one already held for the
 * entry are shared, so the v-collectives of a regular program hold one copy, not one a rank.
 */
final class CollectiveLedger {

  /** How every report of a disagreement starts. */
  static final String DISAGREEMENT = "MPI ranks disagree on collective call ";

  /** A collective, as the ledger and its messages name it. */
  enum Kind {
    BARRIER("barrier"),
    BCAST("bcast"),
    REDUCE("reduce"),
    ALLREDUCE("allreduce"),
    GATHER("gather"),
    GATHERV("gatherv"),
    SCATTER("scatter"),
    SCATTERV("scatterv"),
    ALLGATHER("allgather"),
    ALLGATHERV("allgatherv"),
    ALLTOALL("alltoall"),
    ALLTOALLV("alltoallv"),
    REDUCE_SCATTER("reduce_scatter"),
    SCAN("scan"),
    SPLIT("split"),
    DUP("dup"),
    /** {@code MPI_Win_create}, on the communicator the window is made over. */
    WIN_CREATE("win_create"),
    /**
     * {@code MPI_Win_fence}, on the window's own communicator; its {@link Call#count} holds the assertions every rank
     * must give alike, {@link Mpi#MODE_NOPRECEDE} and {@link Mpi#MODE_NOSUCCEED} (MPI 3.1 §11.5.5: "if this assertion
     * is given by any process in the window group, then it must be given by all processes in the group"; NOSTORE and
     * NOPUT are each rank's own and are not recorded).
     */
    WIN_FENCE("win_fence"),
    /** {@code MPI_Win_free}, on the window's own communicator. */
    WIN_FREE("win_free"),
    /** The world barrier every rank makes after its program returns. */
    FINALIZE("finalize");

    private final String mpiName;

    Kind(String mpiName) {
      this.mpiName = mpiName;
    }

    boolean rooted() {
      return this == BCAST || this == REDUCE || this == GATHER || this == GATHERV || this == SCATTER
          || this == SCATTERV;
    }

    /** Whether every rank's {@link Call#count} must be the same. */
    boolean sameCount() {
      return this == BCAST || this == REDUCE || this == ALLREDUCE || this == SCAN || this == GATHER
          || this == SCATTER || this == ALLGATHER || this == ALLTOALL || this == WIN_FENCE;
    }

    boolean reduces() {
      return this == REDUCE || this == ALLREDUCE || this == SCAN || this == REDUCE_SCATTER;
    }

    @Override
    public String toString() {
      return mpiName;
    }
  }

  /**
   * One rank's collective call: what must agree with the other ranks' calls.
   *
   * @param kind the collective
   * @param root the root's rank in the communicator, or -1 for a collective without one
   * @param count bytes (bcast), elements (reductions), or bytes a rank's block (gather, scatter, allgather, alltoall,
   *     and this rank's own block in gatherv and scatterv); 0 when the collective has none
   * @param type the element type of a reduction, or null
   * @param op the operation of a reduction, or null
   * @param counts gatherv's or scatterv's counts at the root (null elsewhere), allgatherv's and reduce_scatter's
   *     counts, alltoallv's send counts
   * @param recvCounts alltoallv's receive counts, or null
   * @param atPs the simulated time of the call
   * @param site where in the rank's program the call came from ({@link Mpi#callSite}), or 0
   */
  record Call(Kind kind, int root, long count, ElementType type, ReduceOp op, int[] counts, int[] recvCounts,
      long atPs, long site) {

    Call(Kind kind, int root, long count, ElementType type, ReduceOp op, int[] counts, int[] recvCounts, long atPs) {
      this(kind, root, count, type, op, counts, recvCounts, atPs, 0);
    }

    static Call of(Kind kind, long atPs) {
      return new Call(kind, -1, 0, null, null, null, null, atPs);
    }

    /**
     * A fence, recording the assertions its ranks must agree on (see {@link Kind#WIN_FENCE}).
     *
     * @param assertion the fence's assertion, as the program gave it
     * @param atPs the simulated time of the call
     * @return the call
     */
    static Call fence(int assertion, long atPs) {
      return new Call(Kind.WIN_FENCE, -1, assertion & (Mpi.MODE_NOPRECEDE | Mpi.MODE_NOSUCCEED), null, null, null,
          null, atPs);
    }

    @Override
    public String toString() {
      if (kind == Kind.FINALIZE) {
        return "finalize";
      }
      if (kind == Kind.WIN_FENCE) {
        String modes = ((count & Mpi.MODE_NOPRECEDE) != 0 ? " | MPI_MODE_NOPRECEDE" : "")
            + ((count & Mpi.MODE_NOSUCCEED) != 0 ? " | MPI_MODE_NOSUCCEED" : "");
        return "win_fence(" + (modes.isEmpty() ? "0" : modes.substring(3)) + ")";
      }
      StringBuilder s = new StringBuilder(kind.toString()).append('(');
      String sep = "";
      if (kind.rooted()) {
        s.append("root ").append(root);
        sep = ", ";
      }
      if (kind.reduces()) {
        if (kind != Kind.REDUCE_SCATTER) {
          s.append(sep).append(count).append(' ').append(type == ElementType.LONG ? "long" : "double")
              .append(count == 1 ? "" : "s");
        } else {
          s.append(sep).append(type == ElementType.LONG ? "longs" : "doubles");
        }
        s.append(", ").append(op);
      } else if (kind == Kind.BCAST) {
        s.append(sep).append(count).append(count == 1 ? " byte" : " bytes");
      } else if (kind.sameCount() || kind == Kind.GATHERV || kind == Kind.SCATTERV) {
        s.append(sep).append(count).append(count == 1 ? " byte" : " bytes").append(" a rank");
      }
      return s.append(')').toString();
    }
  }

  /** A communicator as every member sees it: its context and its first member (split's colors share a context). */
  private record Key(long context, int firstWorldRank, int call) {}

  private static final class Entry {
    final Key key;
    final int[] worldRanks;
    final Call[] calls;
    int arrived;
    /** Count arrays held for this entry, shared by calls that pass equal ones. */
    final List<int[]> distinct = new ArrayList<>(2);

    Entry(Key key, int[] worldRanks) {
      this.key = key;
      this.worldRanks = worldRanks;
      this.calls = new Call[worldRanks.length];
    }

    int[] share(int[] counts) {
      if (counts == null) {
        return null;
      }
      for (int[] held : distinct) {
        if (Arrays.equals(held, counts)) {
          return held;
        }
      }
      int[] copy = counts.clone(); // the caller may reuse its array once the call returns
      if (distinct.size() < 4) {
        distinct.add(copy);
      }
      return copy;
    }

    /** @return this entry with only the calls made before {@code ps} (all of them for {@link Long#MAX_VALUE}) */
    Entry before(long ps) {
      if (ps == Long.MAX_VALUE) {
        return this;
      }
      Entry f = new Entry(key, worldRanks);
      for (int r = 0; r < calls.length; r++) {
        if (calls[r] != null && calls[r].atPs < ps) {
          f.calls[r] = calls[r];
          f.arrived++;
        }
      }
      return f;
    }

    long firstPs() {
      long t = Long.MAX_VALUE;
      for (Call c : calls) {
        if (c != null) {
          t = Math.min(t, c.atPs);
        }
      }
      return t;
    }
  }

  /**
   * How many complete entries that disagree are kept for the report: a program makes a few (it fails at the end of
   * its run), and a loop of thousands would otherwise hold every one.
   */
  static final int MAX_KEPT = 1024;

  private final Map<Key, Entry> open = new HashMap<>();
  /** Complete entries that disagree, kept whole so that the report can judge them again with only earlier calls. */
  private final List<Entry> disagreeing = new ArrayList<>();

  /**
   * Records a rank's collective call on a communicator; judges the entry once every member has made its call.
   *
   * @param comm the calling rank's communicator
   * @param callNumber the call's number on that communicator, counted by the rank from 0
   * @param call what the rank called
   * @param site where in the rank's program the call came from ({@link Mpi#callSite}), or 0
   */
  synchronized void record(Communicator comm, int callNumber, Call call, long site) {
    int n = comm.size();
    if (n == 1) {
      return; // nothing to disagree with
    }
    Key key = new Key(comm.context(), comm.worldRank(0), callNumber);
    Entry e = open.get(key);
    if (e == null) {
      e = new Entry(key, comm.worldRanks());
      open.put(key, e);
    }
    Call shared = new Call(call.kind, call.root, call.count, call.type, call.op, e.share(call.counts),
        e.share(call.recvCounts), call.atPs, site);
    e.calls[comm.rank()] = shared;
    if (++e.arrived == n) {
      open.remove(key);
      if (judge(e) != null) {
        keep(e);
      }
    }
  }

  /**
   * Keeps a complete entry that disagrees; past {@value #MAX_KEPT}, the earliest by the report's order, so that the
   * ones kept do not depend on the order in which threads complete entries.
   */
  private void keep(Entry e) {
    if (disagreeing.size() < MAX_KEPT) {
      disagreeing.add(e);
      return;
    }
    int latest = 0;
    for (int i = 1; i < disagreeing.size(); i++) {
      if (ORDER.compare(disagreeing.get(i), disagreeing.get(latest)) > 0) {
        latest = i;
      }
    }
    if (ORDER.compare(e, disagreeing.get(latest)) < 0) {
      disagreeing.set(latest, e);
    }
  }

  /** The report's order: the first call's time, then the communicator's first member, its context, the call number. */
  private static final Comparator<Entry> ORDER = Comparator.comparingLong(Entry::firstPs)
      .thenComparingInt(e -> e.key.firstWorldRank).thenComparingLong(e -> e.key.context)
      .thenComparingInt(e -> e.key.call);

  /**
   * The first disagreement of the run, judging the entries some ranks never reached too (call it once the run has
   * ended, its threads done).
   *
   * <p>When a rank failed, only calls made before the failure count ({@code beforePs}): after it, a partitioned
   * engine runs the other groups on to the end of the window, the single loop stops at once, so a later call must
   * not decide the report (nor can a disagreement that came after a failure have caused it). With no failure every
   * call counts, and a disagreement is reported whether the ranks then finished, deadlocked or not.
   *
   * @param finished whether every rank's program returned: an entry that some ranks never reached is then an error
   *     in itself (after a deadlock, the ranks that never reached it are the stuck ones, named by the deadlock)
   * @param beforePs the time of the run's first failure, or {@link Long#MAX_VALUE} when no rank failed
   * @return the message naming the first disagreement, or null when the ranks agreed
   */
  synchronized String firstMismatch(boolean finished, long beforePs) {
    Entry first = null;
    String firstProblem = null;
    List<Entry> candidates = new ArrayList<>(open.values());
    candidates.addAll(disagreeing);
    for (Entry whole : candidates) {
      Entry e = whole.before(beforePs);
      String problem = judge(e);
      if (problem == null && finished && e.arrived < e.calls.length) {
        problem = missing(e);
      }
      if (problem != null && (first == null || ORDER.compare(e, first) < 0)) {
        first = e;
        firstProblem = problem;
      }
    }
    open.clear();
    disagreeing.clear();
    return first == null ? null : describe(first) + ": " + firstProblem;
  }

  private static String missing(Entry e) {
    StringBuilder made = new StringBuilder();
    StringBuilder never = new StringBuilder();
    int shownMade = 0;
    int shownNever = 0;
    Call made0 = null;
    for (int r = 0; r < e.calls.length; r++) {
      if (e.calls[r] != null) {
        made0 = made0 == null ? e.calls[r] : made0;
        shownMade = list(made, shownMade, who(e, r));
      } else {
        shownNever = list(never, shownNever, who(e, r));
      }
    }
    return made + " called " + made0 + " and " + never + " never did (each rank's program returned)";
  }

  private static int list(StringBuilder s, int shown, String item) {
    if (shown < 4) {
      s.append(shown == 0 ? "" : ", ").append(item);
    } else if (shown == 4) {
      s.append(", ...");
    }
    return shown + 1;
  }

  /** The first problem among an entry's calls, in rank order, or null when they agree. */
  private static String judge(Entry e) {
    Call[] c = e.calls;
    int ref = -1;
    for (int r = 0; r < c.length; r++) {
      if (c[r] != null) {
        ref = r;
        break;
      }
    }
    if (ref < 0) {
      return null;
    }
    Call a = c[ref];
    for (int r = ref + 1; r < c.length; r++) {
      Call b = c[r];
      if (b == null) {
        continue;
      }
      if (b.kind != a.kind) {
        return who(e, ref) + " called " + a + " but " + who(e, r) + " called " + b;
      }
      if (b.root != a.root || b.type != a.type || b.op != a.op || a.kind.sameCount() && b.count != a.count
          || (a.kind == Kind.ALLGATHERV || a.kind == Kind.REDUCE_SCATTER) && !Arrays.equals(a.counts, b.counts)) {
        return who(e, ref) + " called " + a + described(a) + " but " + who(e, r) + " called " + b + described(b);
      }
    }
    if (a.kind == Kind.GATHERV || a.kind == Kind.SCATTERV) {
      Call root = c[a.root];
      if (root != null) {
        for (int r = 0; r < c.length; r++) {
          if (c[r] != null && root.counts[r] != c[r].count) {
            return "the root, " + who(e, a.root) + ", " + (a.kind == Kind.GATHERV ? "receives" : "sends") + " counts["
                + r + "] = " + root.counts[r] + " bytes but " + who(e, r) + " " + (a.kind == Kind.GATHERV ? "sends "
                : "receives ") + c[r].count + " in " + a.kind;
          }
        }
      }
    }
    if (a.kind == Kind.ALLTOALLV) {
      for (int i = 0; i < c.length; i++) {
        for (int j = 0; j < c.length; j++) {
          if (c[i] != null && c[j] != null && c[i].counts[j] != c[j].recvCounts[i]) {
            return who(e, i) + " sends sendCounts[" + j + "] = " + c[i].counts[j] + " bytes to " + who(e, j)
                + ", which receives recvCounts[" + i + "] = " + c[j].recvCounts[i] + " from it, in alltoallv";
          }
        }
      }
    }
    return null;
  }

  private static String described(Call a) {
    return a.kind == Kind.ALLGATHERV || a.kind == Kind.REDUCE_SCATTER ? " with counts " + shortList(a.counts) : "";
  }

  private static String shortList(int[] v) {
    return v.length <= 8 ? Arrays.toString(v)
        : Arrays.toString(Arrays.copyOf(v, 8)).replace("]", ", ... (" + v.length + ")]");
  }

  private static String who(Entry e, int r) {
    String site = e.calls[r] != null && e.calls[r].site > 0 ? "its call " + e.calls[r].site : null;
    if (e.key.context == 0) {
      return "rank " + r + (site == null ? "" : " (" + site + ")");
    }
    return "rank " + r + " (world rank " + e.worldRanks[r] + (site == null ? "" : ", " + site) + ")";
  }

  /** @return the first rank that made the entry's call */
  private static int firstCall(Entry e) {
    int r = 0;
    while (e.calls[r] == null) {
      r++;
    }
    return r;
  }

  private static String describe(Entry e) {
    String comm = e.key.context == 0 ? "the world communicator"
        : "the communicator of world ranks " + shortList(e.worldRanks);
    return DISAGREEMENT + e.key.call + " on " + comm
        + " (MPI requires the same collective calls in the same order, with the same root, op and type and matching"
        + " lengths" + (e.calls[firstCall(e)].kind == Kind.WIN_FENCE ? ", and a fence's MPI_MODE_NOPRECEDE and"
        + " MPI_MODE_NOSUCCEED given by all its ranks or none" : "") + ")";
  }
}
