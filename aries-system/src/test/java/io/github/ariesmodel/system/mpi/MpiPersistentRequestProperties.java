package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random exchange programs on random placements, run twice: once with persistent requests created up front and
 * started every round (singly or all at once), once with the isends and irecvs those starts stand for. As MPICH's
 * starts are those nonblocking calls, every rank's times, the data received and the run's end must be the same.
 */
class MpiPersistentRequestProperties {

  private static final int[] SIZES = {0, 8, 1000, 4000, 8192, 12_000, 40_000};

  /** One message of a round: from, to, tag, bytes. */
  private record Message(int src, int dst, int tag, int size) {}

  private static byte[] fill(byte[] b, int round, int id) {
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (round * 17 + id * 5 + i * 3);
    }
    return b;
  }

  @Test
  void startsRunExactlyAsTheNonblockingCallsTheyStandFor() {
    qt().withExamples(10).forAll(integers().between(2, 4), longs().all()).checkAssert((n, seed) -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      List<Message> msgs = new ArrayList<>();
      int count = 1 + rnd.nextInt(6);
      for (int i = 0; i < count; i++) {
        int src = rnd.nextInt(n);
        int dst = (src + 1 + rnd.nextInt(n - 1)) % n;
        msgs.add(new Message(src, dst, i, SIZES[rnd.nextInt(SIZES.length)]));
      }
      int[] placement = new int[n];
      for (int r = 0; r < n; r++) {
        placement[r] = rnd.nextInt(3) * 20; // nodes 0, 20, 40: some ranks share a node
      }
      int rounds = 1 + rnd.nextInt(3);
      boolean startall = rnd.nextBoolean();
      List<String> a = run(n, placement, msgs, rounds, 0);
      List<String> b = run(n, placement, msgs, rounds, startall ? 2 : 1);
      assertThat(a).noneMatch(s -> s.contains("bad"));
      assertThat(b).isEqualTo(a);
    });
  }

  /** style 0: isend/irecv; 1: persistent, started one by one; 2: persistent, startall. */
  private static List<String> run(int n, int[] placement, List<Message> msgs, int rounds, int style) {
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(7)).placement(placement).build();
    String[][] seen = new String[n][];
    job.run(mpi -> {
      int me = mpi.rank();
      List<Message> mine = new ArrayList<>();
      for (Message m : msgs) {
        if (m.src() == me || m.dst() == me) {
          mine.add(m);
        }
      }
      byte[][] bufs = new byte[mine.size()][];
      PersistentRequest[] ps = new PersistentRequest[mine.size()];
      for (int i = 0; i < mine.size(); i++) {
        Message m = mine.get(i);
        bufs[i] = new byte[m.size()];
        if (style > 0) {
          ps[i] = m.dst() == me ? mpi.recvInit(bufs[i], 0, m.size(), m.src(), m.tag(), mpi.world())
              : mpi.sendInit(bufs[i], 0, m.size(), m.dst(), m.tag(), mpi.world());
        }
      }
      StringBuilder log = new StringBuilder();
      for (int round = 0; round < rounds; round++) {
        mpi.compute(1000L * (me + 1) * (round + 1));
        for (int i = 0; i < mine.size(); i++) {
          if (mine.get(i).src() == me) {
            fill(bufs[i], round, mine.get(i).tag());
          }
        }
        Request[] rs;
        if (style == 2) {
          rs = mpi.startall(ps);
        } else {
          rs = new Request[mine.size()];
          for (int i = 0; i < mine.size(); i++) {
            Message m = mine.get(i);
            if (style == 1) {
              rs[i] = mpi.start(ps[i]);
            } else if (m.dst() == me) {
              rs[i] = mpi.irecv(bufs[i], 0, m.size(), m.src(), m.tag(), mpi.world());
            } else {
              rs[i] = mpi.isend(bufs[i], 0, m.size(), m.dst(), m.tag(), mpi.world());
            }
          }
        }
        mpi.waitall(rs);
        log.append(mpi.now()).append(';');
        for (int i = 0; i < mine.size(); i++) {
          if (mine.get(i).dst() == me) {
            byte[] want = fill(new byte[mine.get(i).size()], round, mine.get(i).tag());
            log.append(java.util.Arrays.equals(bufs[i], want) ? "ok;" : "bad data;");
          }
        }
      }
      seen[me] = new String[] {log.toString()};
    });
    List<String> out = new ArrayList<>();
    for (String[] s : seen) {
      out.add(s[0]);
    }
    out.add("end " + job.lastRunPs());
    return out;
  }
}
