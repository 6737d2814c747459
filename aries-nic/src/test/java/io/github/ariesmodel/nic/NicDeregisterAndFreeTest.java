package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Nic#deregisterAndFree} while requests from the network that the IOMMU translated wait in the target NIC: a GET
 * for a tag of the non-posted table, an AMO for room in the AMO unit. They were translated before the deregistration,
 * so they are served on the physical address they were given; the memory must stay until they are (until stop 74 it
 * was given back under them, and they read and wrote memory that another owner could hold by then).
 */
class NicDeregisterAndFreeTest {

  private static final long BYTES = 1 << 20;

  /** The initiator (node 0) GETs 64 KiB from node 1, whose NIC holds more GETs than its 64 tags when node 1 frees. */
  @Test
  void aGetWaitingForATagKeepsTheMemoryUntilItIsServedAndReadsWhatWasThere() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor local = c.register(0, BYTES);
    MemoryDomainDescriptor remote = c.register(1, BYTES);
    int length = 64 * 1024;
    byte[] pattern = new byte[length];
    for (int i = 0; i < length; i++) {
      pattern[i] = (byte) (i * 7 + 3);
    }
    c.write(1, remote.mdh(), 0, pattern);
    byte[] untouched = new byte[length];
    Arrays.fill(untouched, (byte) 0xEE);
    c.write(0, local.mdh(), 0, untouched);
    c.nics[0].post(Post.get(1, local.mdh(), 0, NetworkAddress.of(1, remote.mdh(), 0), length));

    long allocated = c.memory[1].allocatedBytes();
    boolean[] freed = new boolean[1];
    int[] waitingThen = new int[1];
    // Run until the target holds GETs beyond its tags, then deregister and free there.
    while (c.nics[1].waitingGetsForTest() == 0 && c.loop.step()) {
      // next event
    }
    waitingThen[0] = c.nics[1].waitingGetsForTest();
    freed[0] = c.nics[1].deregisterAndFree(remote.mdh());
    long allocatedAfterCall = c.memory[1].allocatedBytes();
    c.run();

    assertThat(waitingThen[0]).as("GETs waiting for a tag when node 1 freed").isPositive();
    assertThat(freed[0]).as("memory given back under waiting GETs").isFalse();
    assertThat(allocatedAfterCall).isEqualTo(allocated);
    // Every line node 0 received is the line node 1 had; lines whose requests arrived after the deregistration
    // faulted and left node 0's buffer as it was.
    byte[] got = c.read(0, local.mdh(), 0, length);
    int served = 0;
    for (int line = 0; line < length / 64; line++) {
      byte[] g = Arrays.copyOfRange(got, line * 64, line * 64 + 64);
      if (Arrays.equals(g, Arrays.copyOfRange(pattern, line * 64, line * 64 + 64))) {
        served++;
      } else {
        assertThat(g).as("line %d: neither node 1's data nor untouched", line)
            .isEqualTo(Arrays.copyOfRange(untouched, line * 64, line * 64 + 64));
      }
    }
    assertThat(served).as("lines served, the waiting ones among them")
        .isGreaterThanOrEqualTo(TargetEngine.NPT_TAGS + waitingThen[0]);
    assertThat(c.events).anyMatch(e -> e.postId() == 1 && e.isError()); // the requests after it faulted
    // Nothing waits any more: the next registration gives the memory back.
    c.register(1, 4096);
    assertThat(c.memory[1].allocatedBytes()).as("after the next registration").isLessThanOrEqualTo(allocated - BYTES + 4096);
  }

  /**
   * Node 0 sends a fetch-add to a word of node 1's registration X, then fetch-adds to a word of its registration Y
   * faster than node 1's AMO unit serves them (a unit of one here: one initiator posting one every 133 ns never fills
   * the default 64). Node 1 frees Y while the first AMO on Y waits behind X's: nothing of Y's is in flight in the
   * unit then, so only the waiting AMO keeps Y's memory.
   */
  @Test
  void anAmoWaitingForRoomKeepsTheMemoryUntilItIsServedAndWorksOnTheWordItWasTranslatedTo() {
    NicConfig d = NicConfig.defaults();
    NicConfig small = new NicConfig(d.timing(), d.requestTags(), 1, d.bteChannels(), d.fmaBteThreshold(),
        d.injectHoldLimit(), d.protectionTag(), d.protectionKey(), d.amoCache());
    Cluster c = new Cluster(2, small);
    MemoryDomainDescriptor x = c.register(1, 4096);
    MemoryDomainDescriptor y = c.register(1, BYTES);
    c.write(1, y.mdh(), 4096, new byte[] {(byte) 0xD0, 7, 0, 0, 0, 0, 0, 0}); // 2000
    AmoOperation fiadd = AmoOperation.parse("FIADD");
    c.nics[0].post(Post.amo(100, fiadd, NetworkAddress.of(1, x.mdh(), 0), 1, 0));
    for (int i = 0; i < 20; i++) {
      c.nics[0].post(Post.amo(200 + i, fiadd, NetworkAddress.of(1, y.mdh(), 4096), 1, 0));
    }
    long allocated = c.memory[1].allocatedBytes();
    while (c.nics[1].waitingAmosForTest() == 0 && c.loop.step()) {
      // next event
    }
    int waitingThen = c.nics[1].waitingAmosForTest();
    boolean freed = c.nics[1].deregisterAndFree(y.mdh());
    long allocatedAfterCall = c.memory[1].allocatedBytes();
    c.run();

    assertThat(waitingThen).as("AMOs on Y waiting for room when node 1 freed Y").isPositive();
    assertThat(freed).as("memory given back under waiting AMOs").isFalse();
    assertThat(allocatedAfterCall).isEqualTo(allocated);
    // The AMOs on Y that reached the unit (the waiting ones among them) fetched 2000, 2001, ... in order; the rest
    // arrived after the deregistration and faulted.
    List<Long> fetched = new ArrayList<>();
    for (CompletionEvent e : c.events) {
      if (e.type() == CompletionType.GLOBAL && e.postId() >= 200 && !e.isError()) {
        fetched.add(e.userData());
      }
    }
    assertThat(fetched.size()).isGreaterThanOrEqualTo(waitingThen);
    for (int i = 0; i < fetched.size(); i++) {
      assertThat(fetched.get(i)).as("fetched value %d", i).isEqualTo(2000L + i);
    }
    assertThat(c.events).anyMatch(e -> e.postId() >= 200 && e.isError());
    c.register(1, 4096);
    assertThat(c.memory[1].allocatedBytes()).as("after the next registration")
        .isLessThanOrEqualTo(allocated - BYTES + 4096);
  }
}
