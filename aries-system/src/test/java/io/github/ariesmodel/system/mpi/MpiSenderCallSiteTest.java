package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A completed receive tells which of its sender's calls sent the message it matched ({@link
 * Request#senderCallSite}), whatever order the receiver waits in: the trace replay pairs a receive with its send's
 * time by it (until stop 75 it took the oldest send of the receive's source and tag, and receives waited for out of
 * their posting order swapped their sends). Over the network, on one node (shared memory) and to the rank itself, for
 * every protocol's size; and the site is carried beside the message, so the receives complete at the same picosecond
 * with the sites named as without.
 */
class MpiSenderCallSiteTest {

  /** What the receiver saw: each receive's sender site and completion time. */
  private record Seen(long siteA, long siteB, long doneA, long doneB, long siteC) {}

  private static Seen run(int ranksPerNode, int size, boolean nameSites) {
    long[] seen = new long[5];
    int[] nodes = ranksPerNode == 2 ? new int[] {0} : new int[] {0, 5};
    MpiJob.builder(MpiTesting.smallSystem(3)).nodes(nodes).ranksPerNode(ranksPerNode).build().run(mpi -> {
      byte[] buf = new byte[size];
      if (mpi.rank() == 0) {
        mpi.callSite(nameSites ? 7 : 0);
        mpi.send(buf, 0, size, 1, 3, mpi.world());
        mpi.callSite(nameSites ? 9 : 0);
        Request s = mpi.isend(buf, 0, size, 1, 3, mpi.world());
        mpi.wait(s);
      } else {
        Request a = mpi.irecv(new byte[size], 0, size, 0, 3, mpi.world());
        Request b = mpi.irecv(new byte[size], 0, size, 0, 3, mpi.world());
        mpi.wait(b); // out of posting order
        mpi.wait(a);
        seen[0] = a.senderCallSite();
        seen[1] = b.senderCallSite();
        seen[2] = a.completedAtPs();
        seen[3] = b.completedAtPs();
        // to itself: the site of its own call
        mpi.callSite(nameSites ? 11 : 0);
        Request c = mpi.irecv(new byte[size], 0, size, 1, 4, mpi.world());
        mpi.wait(mpi.isend(buf, 0, size, 1, 4, mpi.world()));
        mpi.wait(c);
        seen[4] = c.senderCallSite();
      }
    });
    return new Seen(seen[0], seen[1], seen[2], seen[3], seen[4]);
  }

  @ParameterizedTest(name = "{0} rank(s) a node, {1} bytes")
  @CsvSource({"1, 8", "1, 2000", "1, 100000", "2, 8", "2, 2000", "2, 100000"})
  void aReceiveTellsTheCallThatSentItsMessage(int ranksPerNode, int size) {
    Seen named = run(ranksPerNode, size, true);
    assertThat(named.siteA()).as("the first receive matched the first send").isEqualTo(7);
    assertThat(named.siteB()).as("the second receive matched the second send").isEqualTo(9);
    assertThat(named.siteC()).as("a message to itself").isEqualTo(11);
    Seen unnamed = run(ranksPerNode, size, false);
    assertThat(unnamed.siteA()).isZero();
    assertThat(unnamed.siteB()).isZero();
    assertThat(unnamed.siteC()).isZero();
    // nothing simulated depends on the sites
    assertThat(named.doneA()).isEqualTo(unnamed.doneA());
    assertThat(named.doneB()).isEqualTo(unnamed.doneB());
  }
}
