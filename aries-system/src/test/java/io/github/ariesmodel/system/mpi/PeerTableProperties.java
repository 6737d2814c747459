package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link PeerTable} against a map of per-peer records: a peer's entry is made once, starts at sequence 1 with no
 * credits, and keeps what was written to it while other peers are added and the arrays and the table grow.
 */
class PeerTableProperties {

  @Test
  void eachPeerKeepsItsOwnStateWhileTheTableGrows() {
    qt().withExamples(300).forAll(lists().of(integers().between(0, 5_000)).ofSizeBetween(1, 400))
        .checkAssert(peers -> {
          PeerTable t = new PeerTable();
          Map<Integer, long[]> reference = new HashMap<>();
          Map<Integer, Integer> entryOf = new HashMap<>();
          for (int peer : peers) {
            int e = t.of(peer);
            Integer before = entryOf.putIfAbsent(peer, e);
            assertThat(e).as("peer %d keeps its entry", peer).isEqualTo(before == null ? e : before);
            long[] r = reference.computeIfAbsent(peer, p -> new long[] {1, 0, 1, 0});
            assertThat(new long[] {t.sendSeq[e], t.creditsBack[e], t.recvSeq[e], t.creditsOwed[e]})
                .as("peer %d", peer).containsExactly(r);
            // change it as a send, a credit, a receive and an owed credit would
            t.sendSeq[e]++;
            t.creditsBack[e] += peer % 3;
            t.recvSeq[e] += 2;
            t.creditsOwed[e] = (t.creditsOwed[e] + 1) % 4;
            r[0]++;
            r[1] += peer % 3;
            r[2] += 2;
            r[3] = (r[3] + 1) % 4;
          }
          assertThat(t.size()).isEqualTo(reference.size());
          assertThat(entryOf.values()).doesNotHaveDuplicates();
          for (Map.Entry<Integer, long[]> x : reference.entrySet()) {
            int e = t.of(x.getKey());
            assertThat(new long[] {t.sendSeq[e], t.creditsBack[e], t.recvSeq[e], t.creditsOwed[e]})
                .containsExactly(x.getValue());
          }
        });
  }
}
