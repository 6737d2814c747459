package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A PUT whose data is in the post ({@link Post#putValue}, Cray SHMEM's {@code shmem_long_p}): the value lands at the
 * target as an ordinary PUT's data would, the source NIC translates and reads no local memory for it, and a malformed
 * one is refused in one line.
 */
class PutValueTest {

  /** Every timed translation a NIC asks for, by client. */
  private static final class Counting extends DelegatingTranslation {
    final List<TranslationClient> clients = new ArrayList<>();

    Counting(FlatTranslation inner) {
      super(inner);
    }

    @Override
    public void translate(TranslationClient client, int mdh, long offset, int length, AccessKind access, int ptag,
        int pkey, TranslationListener listener, Object ref, long arg) {
      clients.add(client);
      super.translate(client, mdh, offset, length, access, ptag, pkey, listener, ref, arg);
    }
  }

  private final Cluster c = new Cluster(2, NicConfig.defaults(),
      loop -> new IdealFabric(loop, 2, 0, Double.POSITIVE_INFINITY),
      (m, l) -> new Counting(new FlatTranslation(m, l, 0)));
  private final MemoryDomainDescriptor remote = c.register(1, 8192);

  private NetworkAddress at(long offset) {
    return NetworkAddress.of(1, remote.mdh(), offset);
  }

  private List<TranslationClient> clients(int node) {
    return ((Counting) c.translation[node]).clients;
  }

  @Test
  void theValueLandsAtTheTargetWithoutALocalRead() {
    c.write(1, remote.mdh(), 0, new byte[24]);
    c.nics[0].post(Post.putValue(7, at(8), 0x1122_3344_5566_7788L, 8));
    c.run();
    assertThat(c.readLong(1, remote.mdh(), 8)).isEqualTo(0x1122_3344_5566_7788L);
    assertThat(c.readLong(1, remote.mdh(), 0)).isZero();
    assertThat(c.readLong(1, remote.mdh(), 16)).isZero();
    assertThat(c.events).singleElement().matches(e -> e.postId() == 7 && !e.isError()
        && e.type() == CompletionType.GLOBAL);
    assertThat(clients(0)).doesNotContain(TranslationClient.LOCAL_READ);
    assertThat(clients(1)).contains(TranslationClient.NETWORK_REQUEST);
    assertThat(c.nics[0].statistics().payloadBytesSent()).isEqualTo(8);
  }

  @Test
  void aFourByteValuePutsOnlyItsLowBytes() {
    c.write(1, remote.mdh(), 0, new byte[] {9, 9, 9, 9, 9, 9, 9, 9});
    c.nics[0].post(Post.putValue(1, at(4), 0x1122_3344_AABB_CCDDL, 4));
    c.run();
    assertThat(c.read(1, remote.mdh(), 0, 8)).containsExactly(9, 9, 9, 9, 0xDD, 0xCC, 0xBB, 0xAA);
  }

  /**
   * The doorbell's own put [S7]: the CPU pays the post alone, not the store of a data line an FMA PUT from memory pays
   * ({@code fmaStoreBytesPerSecond}, one 64-byte line); otherwise the two take the same path.
   */
  @Test
  void itSavesTheDataLineStoreOfAWordsPutFromMemory() {
    Cluster other = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor src = other.register(0, 8192);
    MemoryDomainDescriptor dst = other.register(1, 8192);
    other.nics[0].post(Post.put(1, src.mdh(), 0, NetworkAddress.of(1, dst.mdh(), 0), 8));
    other.run();
    c.nics[0].post(Post.putValue(1, at(0), 5, 8));
    c.run();
    // Flat translation takes no time here, so the two differ by the data line's store alone.
    assertThat(other.events.get(0).timePs() - c.events.get(0).timePs())
        .isEqualTo(NicConfig.defaults().timing().fmaStorePsPer64());
    assertThat(c.nics[0].statistics().hostBytesToNic()).isEqualTo(other.nics[0].statistics().hostBytesToNic());
  }

  @Test
  void malformedValuePutsAreRefusedInOneLine() {
    assertThatThrownBy(() -> Post.putValue(1, at(0), 5, 3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bytes must be 4 or 8 (the FMA_LAUNCH doorbell's put sizes) but was 3");
    assertThatThrownBy(() -> Post.putValue(1, at(0), 5, 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was 2");
    assertThatThrownBy(() -> c.nics[0].post(Post.putValue(1, at(4), 5, 8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("post.remote.offset must be a multiple of 8 for a PUT of its value (Post.putValue) but was 4");
    assertThatThrownBy(() -> c.nics[0].post(Post.putValue(1, at(0), 5, 8).withEngine(Post.Engine.BTE)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("engine must be FMA or AUTO");
    assertThatThrownBy(() -> Post.put(1, Post.NO_LOCAL, 0, at(0), 8)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Post.putValue");
    Post noSource = new Post(Post.PostType.PUT, Post.Engine.AUTO, 1, Post.NO_LOCAL, 0, at(0), 64, null, 0, 0,
        io.github.ariesmodel.core.DeliveryMode.ADAPTIVE_0, Post.NO_CQ, Post.GLOBAL_EVENT, false);
    assertThatThrownBy(() -> c.nics[0].post(noSource)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("post.length must be 4 or 8 for a PUT without a local buffer (its data in the post, Post.putValue;"
            + " any other PUT needs post.localMdh, a registered memory domain) but was 64");
    Post offset = new Post(Post.PostType.PUT, Post.Engine.FMA, 1, Post.NO_LOCAL, 16, at(0), 8, null, 0, 0,
        io.github.ariesmodel.core.DeliveryMode.ADAPTIVE_0, Post.NO_CQ, Post.GLOBAL_EVENT, false);
    assertThatThrownBy(() -> c.nics[0].post(offset)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("post.localOffset must be 0 for a PUT without a local buffer (Post.putValue) but was 16");
    c.run();
    assertThat(c.events).isEmpty();
    assertThat(c.nics[0].statistics().posts()).isZero();
  }

  @Test
  void itNeedsNoRegistrationAtTheSource() {
    Cluster bare = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor dst = bare.register(1, 4096);
    bare.nics[0].post(Post.putValue(3, NetworkAddress.of(1, dst.mdh(), 0), -1L, 8)
        .withCompletion(Post.NO_CQ, Post.LOCAL_EVENT | Post.GLOBAL_EVENT));
    bare.run();
    assertThat(bare.readLong(1, dst.mdh(), 0)).isEqualTo(-1L);
    assertThat(bare.events).extracting(CompletionEvent::type)
        .containsExactly(CompletionType.LOCAL, CompletionType.GLOBAL);
  }
}
