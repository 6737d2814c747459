package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random valid point-to-point programs on random placements (on-node and off-node pairs together): every message is
 * delivered exactly once with its data, and the receives that name a sender and a tag get that pair's messages in
 * send order (non-overtaking), on the shared-memory path and the NIC path alike.
 */
class MpiPointToPointProperties {

  private static final int[] SIZES = {0, 7, 64, 1024, 1500, 8192, 9000, 30_000};
  private static final int ANY_CLASS = -2;

  /** One message of the program. */
  private record Message(int id, int src, int dst, int tag, int size) {}

  /** One receive a rank posts: a source and tag (or wildcards), and which class it was drawn for. */
  private record Receive(int source, int tag) {}

  private static byte[] data(Message m) {
    byte[] b = new byte[m.size()];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (m.id() * 31 + i * 7 + (i >> 9));
    }
    return b;
  }

  @Test
  void randomValidProgramsDeliverEveryMessageExactlyOnceInOrder() {
    qt().withExamples(12).forAll(integers().between(2, 5), longs().all()).checkAssert((n, seed) -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      List<Message> messages = new ArrayList<>();
      int count = 4 + rnd.nextInt(20);
      for (int i = 0; i < count; i++) {
        int src = rnd.nextInt(n);
        int dst = rnd.nextInt(n);
        messages.add(new Message(i, src, dst, rnd.nextInt(3), SIZES[rnd.nextInt(SIZES.length)]));
      }
      // Per receiver: receives naming (source, tag) first, then (source, ANY_TAG), then (ANY_SOURCE, ANY_TAG),
      // in numbers that keep every receive matchable whatever the arrival order.
      List<List<Receive>> receives = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        Map<List<Integer>, Integer> perClass = new HashMap<>();
        int[] perSource = new int[n];
        int total = 0;
        for (Message m : messages) {
          if (m.dst() == r) {
            perClass.merge(List.of(m.src(), m.tag()), 1, Integer::sum);
            perSource[m.src()]++;
            total++;
          }
        }
        List<Receive> specific = new ArrayList<>();
        int[] leftPerSource = perSource.clone();
        for (int s = 0; s < n; s++) {
          for (int t = 0; t < 3; t++) {
            int k = perClass.getOrDefault(List.of(s, t), 0);
            int take = k == 0 ? 0 : rnd.nextInt(k + 1);
            for (int i = 0; i < take; i++) {
              specific.add(new Receive(s, t));
            }
            leftPerSource[s] -= take;
          }
        }
        List<Receive> bySource = new ArrayList<>();
        for (int s = 0; s < n; s++) {
          int take = leftPerSource[s] == 0 ? 0 : rnd.nextInt(leftPerSource[s] + 1);
          for (int i = 0; i < take; i++) {
            bySource.add(new Receive(s, Mpi.ANY_TAG));
          }
        }
        List<Receive> all = new ArrayList<>(specific);
        all.addAll(bySource);
        while (all.size() < total) {
          all.add(new Receive(Mpi.ANY_SOURCE, Mpi.ANY_TAG));
        }
        receives.add(all);
      }
      boolean receiveFirst = rnd.nextBoolean();
      long[] delay = new long[n];
      for (int r = 0; r < n; r++) {
        delay[r] = rnd.nextInt(3) * 1_000_000L;
      }
      // Ranks on two nodes, drawn at random: on-node pairs (shared memory, or the NIC when the path is off) and
      // off-node pairs in one program, their messages meeting in the same wildcard receives.
      int[] placement = new int[n];
      for (int r = 0; r < n; r++) {
        placement[r] = rnd.nextBoolean() ? 5 : 40;
      }
      MpiConfig config = MpiConfig.builder().sharedMemory(rnd.nextInt(4) != 0).build();
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(seed)).placement(placement).config(config).build();
      Map<Integer, List<byte[]>> got = new HashMap<>();
      Map<Integer, List<MpiStatus>> statuses = new HashMap<>();
      job.run(mpi -> {
        int r = mpi.rank();
        List<Request> rr = new ArrayList<>();
        List<byte[]> bufs = new ArrayList<>();
        List<Request> ss = new ArrayList<>();
        Runnable postReceives = () -> {
          for (Receive x : receives.get(r)) {
            byte[] b = new byte[30_000];
            bufs.add(b);
            rr.add(mpi.irecv(b, 0, b.length, x.source(), x.tag(), mpi.world()));
          }
        };
        if (receiveFirst) {
          postReceives.run();
        }
        for (Message m : messages) {
          if (m.src() == r) {
            byte[] d = data(m);
            ss.add(mpi.isend(d, 0, d.length, m.dst(), m.tag(), mpi.world()));
          }
        }
        if (!receiveFirst) {
          mpi.compute(delay[r]);
          postReceives.run();
        }
        mpi.waitall(rr.toArray(new Request[0]));
        mpi.waitall(ss.toArray(new Request[0]));
        List<byte[]> mine = new ArrayList<>();
        List<MpiStatus> st = new ArrayList<>();
        for (int i = 0; i < rr.size(); i++) {
          st.add(rr.get(i).status());
          mine.add(Arrays.copyOf(bufs.get(i), rr.get(i).status().count()));
        }
        got.put(r, mine);
        statuses.put(r, st);
      });
      for (int rank = 0; rank < n; rank++) {
        final int r = rank;
        List<Message> pending = new ArrayList<>();
        for (Message m : messages) {
          if (m.dst() == r) {
            pending.add(m);
          }
        }
        Map<List<Integer>, Integer> nextOfClass = new HashMap<>();
        List<Receive> posted = receives.get(r);
        for (int i = 0; i < posted.size(); i++) {
          MpiStatus s = statuses.get(r).get(i);
          byte[] d = got.get(r).get(i);
          Receive x = posted.get(i);
          assertThat(x.source() == Mpi.ANY_SOURCE || x.source() == s.source()).as("source accepted").isTrue();
          assertThat(x.tag() == Mpi.ANY_TAG || x.tag() == s.tag()).as("tag accepted").isTrue();
          Message match = null;
          if (x.source() >= 0 && x.tag() >= 0) {
            // the k-th receive of a class gets the k-th message of that class: non-overtaking
            int k = nextOfClass.merge(List.of(x.source(), x.tag()), 1, Integer::sum) - 1;
            match = messages.stream().filter(m -> m.dst() == r && m.src() == x.source() && m.tag() == x.tag())
                .skip(k).findFirst().orElseThrow();
            assertThat(pending).contains(match);
          } else {
            for (Message m : pending) {
              if (m.src() == s.source() && m.tag() == s.tag() && Arrays.equals(data(m), d)) {
                match = m;
                break;
              }
            }
          }
          assertThat(match).as("receive %s at rank %s got a message that was sent and not yet delivered", i, r)
              .isNotNull();
          assertThat(d).isEqualTo(data(match));
          pending.remove(match);
        }
        assertThat(pending).as("undelivered messages to rank %s", r).isEmpty();
      }
    });
  }
}
