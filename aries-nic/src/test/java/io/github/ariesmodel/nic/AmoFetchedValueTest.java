package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import org.junit.jupiter.api.Test;

/**
 * How a fetched AMO value reaches the initiator, as {@code Post.amo}'s and {@code CompletionEvent}'s javadoc say: a
 * 32-bit operation's old word is zero-extended in the GLOBAL event's {@code userData}, and only its 4 bytes land in
 * the result buffer.
 */
class AmoFetchedValueTest {

  private static CompletionEvent fetch(NicConfig config, String mnemonic, long postId) {
    Cluster c = new Cluster(2, config);
    MemoryDomainDescriptor target = c.register(0, 4096);
    MemoryDomainDescriptor local = c.register(1, 4096);
    // The target word: low half 0x11111111, high half -1.
    c.write(0, target.mdh(), 0, new byte[] {0x11, 0x11, 0x11, 0x11, -1, -1, -1, -1});
    c.write(1, local.mdh(), 0, new byte[] {0x77, 0x77, 0x77, 0x77, 0x77, 0x77, 0x77, 0x77});
    c.nics[1].post(Post.amo(postId, AmoOperation.parse(mnemonic), NetworkAddress.of(0, target.mdh(), 4), 5, 0)
        .withResultBuffer(local.mdh(), 0));
    c.run();
    CompletionEvent e = c.events(1).stream().filter(x -> x.type() == CompletionType.GLOBAL).findFirst().orElseThrow();
    assertThat(c.readLong(1, local.mdh(), 0)).as("%s: result buffer", mnemonic).isEqualTo(0x7777_7777_ffff_ffffL);
    assertThat(c.readLong(0, target.mdh(), 0)).as("%s: min(-1, 5) leaves the word", mnemonic)
        .isEqualTo(0xffff_ffff_1111_1111L);
    return e;
  }

  @Test
  void aThirtyTwoBitAmosOldValueIsZeroExtendedInUserData() {
    NicConfig cached = NicConfig.defaults().withAmoCache(AmoCacheConfig.defaults());
    for (CompletionEvent e : new CompletionEvent[] {
        fetch(NicConfig.defaults(), "FIMIN_S", 1), fetch(cached, "FIMIN_SC", 2)}) {
      assertThat(e.userData()).as("post %s", e.postId()).isEqualTo(0xffff_ffffL).isNotEqualTo(-1L);
      assertThat((int) e.userData()).isEqualTo(-1);
    }
  }
}
