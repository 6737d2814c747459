package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CQ entries are written through translation, as COMPLETION_WRITE accesses, exactly where the ring's registration says. */
class CompletionQueueMemoryTest {

  /** A translation that counts its timed translations by client. */
  static final class Counting extends DelegatingTranslation {
    final Map<TranslationClient, Integer> counts = new EnumMap<>(TranslationClient.class);

    Counting(AddressTranslation inner) {
      super(inner);
    }

    @Override
    public void translate(TranslationClient client, int mdh, long offset, int length, AccessKind access, int ptag,
        int pkey, TranslationListener listener, Object ref, long arg) {
      counts.merge(client, 1, Integer::sum);
      inner.translate(client, mdh, offset, length, access, ptag, pkey, listener, ref, arg);
    }
  }

  private final List<Counting> translators = new ArrayList<>();
  private final Cluster c = new Cluster(2, NicConfig.defaults(),
      loop -> new IdealFabric(loop, 2, 0, Double.POSITIVE_INFINITY), (m, l) -> {
        Counting t = new Counting(new FlatTranslation(m, l, 1_000));
        translators.add(t);
        return t;
      });

  @Test
  void entriesLandWhereA4kRingsRegistrationSays() {
    entriesLandWhereTheRingsRegistrationSays(PageSize.SIZE_4K);
  }

  @Test
  void entriesLandWhereAHugePageRingsRegistrationSays() {
    entriesLandWhereTheRingsRegistrationSays(PageSize.SIZE_2M);
  }

  private void entriesLandWhereTheRingsRegistrationSays(PageSize pageSize) {
    int entries = 700; // 5,600 bytes: two 4 KB pages
    CompletionQueue cq = c.nics[0].createCompletionQueue(entries, pageSize);
    assertThat(cq.ring().pageSize()).isEqualTo(pageSize);
    MemoryDomainDescriptor local = c.register(0, 1 << 20);
    MemoryDomainDescriptor remote = c.register(1, 1 << 20);
    for (int i = 0; i < entries; i++) {
      c.nics[0].post(Post.put(1000 + i, local.mdh(), 0, NetworkAddress.of(1, remote.mdh(), 8L * i), 8)
          .withCompletion(cq.handle(), Post.GLOBAL_EVENT));
    }
    c.run();
    assertThat(cq.size()).isEqualTo(entries);
    assertThat(translators.get(0).counts.get(TranslationClient.COMPLETION_WRITE)).isEqualTo(entries);
    for (int i = 0; i < entries; i++) {
      CompletionEvent e = cq.getEvent();
      TranslationResult r = c.translation[0].translateNow(cq.ring().mdh(), cq.entryOffset(i), 8, AccessKind.READ,
          Cluster.PTAG, Cluster.PKEY);
      long entry = c.memory[0].readLong(r.physicalAddress());
      assertThat(entry).as("entry %d", i).isEqualTo(CompletionQueue.encode(e));
      assertThat(entry >>> 63).isEqualTo(1);
      assertThat(entry & 0xFFFF_FFFFL).isEqualTo(e.postId());
      assertThat(entry >>> 39 & 0x3FFFF).isEqualTo(1);
    }
  }

  /** The time of one PUT's GLOBAL event, with or without a CQ, over a flat translation of 1 ns. */
  private static long eventTime(boolean withCq) {
    Cluster one = new Cluster(2, NicConfig.defaults(), loop -> new IdealFabric(loop, 2, 0, Double.POSITIVE_INFINITY),
        (m, l) -> new FlatTranslation(m, l, 1_000));
    CompletionQueue cq = one.nics[0].createCompletionQueue(4);
    MemoryDomainDescriptor local = one.register(0, 4096);
    MemoryDomainDescriptor remote = one.register(1, 4096);
    one.nics[0].post(Post.put(1, local.mdh(), 0, NetworkAddress.of(1, remote.mdh(), 0), 8)
        .withCompletion(withCq ? cq.handle() : Post.NO_CQ, Post.GLOBAL_EVENT));
    one.run();
    assertThat(one.events).hasSize(1);
    return one.events.get(0).timePs();
  }

  @Test
  void anEventForACqIsVisibleOneTranslationAfterItsHostWrite() {
    assertThat(eventTime(true) - eventTime(false)).isEqualTo(1_000);
  }

  @Test
  void encodingNamesTypeStatusPeerAndPostId() {
    CompletionEvent e = new CompletionEvent(CompletionType.REMOTE, Status.PROTECTION_VIOLATION, 0x1_2345_6789L, 0,
        0x3FFFF, 77, 5);
    long entry = CompletionQueue.encode(e);
    assertThat(entry >>> 61 & 3).isEqualTo(3);
    assertThat(entry >>> 57 & 0xF).isEqualTo(4);
    assertThat(entry >>> 39 & 0x3FFFF).isEqualTo(0x3FFFF);
    assertThat(entry & 0xFFFF_FFFFL).isEqualTo(0x2345_6789L);
  }
}
