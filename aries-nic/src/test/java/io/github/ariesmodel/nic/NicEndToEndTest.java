package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.FlatTranslation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** PUT and GET end to end over an ideal and a reordering fabric: data lands byte-exactly, each post completes once. */
class NicEndToEndTest {

  private static final long BUF = 3L << 20;

  private static byte[] random(SplittableRandom r, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }

  /** Sizes from 0 B to 1 MiB, biased to small and odd values, as in the end-to-end test. */
  private static int size(SplittableRandom r) {
    return switch (r.nextInt(4)) {
      case 0 -> r.nextInt(130);
      case 1 -> r.nextInt(9000);
      case 2 -> r.nextInt(70_000);
      default -> r.nextInt((1 << 20) + 1);
    };
  }

  @Test
  void randomSequentialPutsAndGetsLandByteExactly() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    SplittableRandom r = new SplittableRandom(42);
    MemoryDomainDescriptor a = c.register(0, BUF);
    MemoryDomainDescriptor b = c.register(1, BUF);
    byte[][] model = {random(r, (int) BUF), random(r, (int) BUF)};
    c.write(0, a.mdh(), 0, model[0]);
    c.write(1, b.mdh(), 0, model[1]);
    int[] mdh = {a.mdh(), b.mdh()};
    for (int op = 0; op < 40; op++) {
      int len = size(r);
      long local = r.nextLong(BUF - len + 1);
      long remote = r.nextLong(BUF - len + 1);
      boolean get = r.nextBoolean() && len > 0;
      if (get) {
        // a GET reads whole 4-byte words of the remote memory [S5][S6a]; its local offset may be any
        remote &= ~3;
        len = Math.max(4, len & ~3);
      }
      c.nics[0].post(get
          ? Post.get(op, mdh[0], local, NetworkAddress.of(1, mdh[1], remote), len)
          : Post.put(op, mdh[0], local, NetworkAddress.of(1, mdh[1], remote), len));
      c.run();
      if (get) {
        System.arraycopy(model[1], (int) remote, model[0], (int) local, len);
      } else {
        System.arraycopy(model[0], (int) local, model[1], (int) remote, len);
      }
      int dst = get ? 0 : 1;
      long at = get ? local : remote;
      assertThat(c.read(dst, mdh[dst], at, len)).as("op %s len %s", op, len)
          .isEqualTo(Arrays.copyOfRange(model[dst], (int) at, (int) at + len));
    }
    assertThat(c.read(0, mdh[0], 0, (int) BUF)).isEqualTo(model[0]);
    assertThat(c.read(1, mdh[1], 0, (int) BUF)).isEqualTo(model[1]);
    List<CompletionEvent> global = c.events(0);
    assertThat(global).hasSize(40).allMatch(e -> e.type() == CompletionType.GLOBAL && !e.isError());
    assertThat(global.stream().mapToLong(CompletionEvent::postId).sorted().toArray())
        .isEqualTo(java.util.stream.LongStream.range(0, 40).toArray());
  }

  @Test
  void concurrentTransactionsFromSeveralNodesToOneTargetLandByteExactly() {
    int sources = 4;
    Cluster c = new Cluster(sources + 1, NicConfig.defaults());
    SplittableRandom r = new SplittableRandom(7);
    MemoryDomainDescriptor target = c.register(0, BUF);
    byte[] targetModel = random(r, (int) BUF);
    c.write(0, target.mdh(), 0, targetModel);
    long slice = BUF / (2 * sources);
    List<Runnable> checks = new ArrayList<>();
    for (int s = 1; s <= sources; s++) {
      MemoryDomainDescriptor local = c.register(s, slice);
      byte[] src = random(r, (int) slice);
      c.write(s, local.mdh(), 0, src);
      // PUTs into this source's slice, GETs from another slice nobody writes.
      long putBase = (s - 1) * slice;
      long getBase = (sources + s - 1) * slice;
      int pos = 0;
      for (int k = 0; k < 6; k++) {
        int len = 1 + r.nextInt((int) (slice / 12) - 1);
        int node = s;
        int off = pos;
        c.nics[s].post(Post.put(k, local.mdh(), off, NetworkAddress.of(0, target.mdh(), putBase + off), len));
        checks.add(() -> assertThat(c.read(0, target.mdh(), putBase + off, len))
            .isEqualTo(Arrays.copyOfRange(src, off, off + len)));
        int goff = pos + (int) (slice / 2);
        // a GET reads whole 4-byte words of the remote memory [S5][S6a]; its local offset may be any
        long gfrom = getBase + (off & ~3);
        int glen = Math.max(4, len & ~3);
        c.nics[s].post(Post.get(100 + k, local.mdh(), goff, NetworkAddress.of(0, target.mdh(), gfrom), glen));
        checks.add(() -> assertThat(c.read(node, local.mdh(), goff, glen))
            .isEqualTo(Arrays.copyOfRange(targetModel, (int) gfrom, (int) gfrom + glen)));
        pos += len + 3;
      }
    }
    c.run();
    checks.forEach(Runnable::run);
    for (int s = 1; s <= sources; s++) {
      assertThat(c.events(s)).hasSize(12).noneMatch(CompletionEvent::isError);
    }
    assertThat(c.nics[0].statistics().requestsServed()).isEqualTo(
        java.util.stream.IntStream.rangeClosed(1, sources).mapToLong(s -> c.nics[s].statistics().requestsSent()).sum());
  }

  @Test
  void outOfOrderResponsesCompleteEachTransactionExactlyOnce() {
    ReorderingFabric[] fabric = new ReorderingFabric[1];
    Cluster c = new Cluster(3, NicConfig.defaults(), loop -> fabric[0] = new ReorderingFabric(loop, 3, 99, 3_000_000, 7),
        (m, l) -> new PageFaultingTranslation(new FlatTranslation(m, l, 0), l));
    SplittableRandom r = new SplittableRandom(3);
    MemoryDomainDescriptor t = c.register(0, BUF);
    MemoryDomainDescriptor s1 = c.register(1, BUF);
    MemoryDomainDescriptor s2 = c.register(2, BUF);
    byte[] src1 = random(r, (int) BUF);
    byte[] tgt = random(r, (int) BUF);
    c.write(1, s1.mdh(), 0, src1);
    c.write(0, t.mdh(), 0, tgt);
    c.nics[1].post(Post.put(1, s1.mdh(), 5, NetworkAddress.of(0, t.mdh(), 1001), 200_001));
    c.nics[1].post(Post.put(2, s1.mdh(), 300_000, NetworkAddress.of(0, t.mdh(), 300_007), 3_333));
    c.nics[2].post(Post.get(3, s2.mdh(), 17, NetworkAddress.of(0, t.mdh(), 1_000_000), 150_000));
    c.nics[2].post(Post.get(4, s2.mdh(), 200_001, NetworkAddress.of(0, t.mdh(), 2_000_004), 4_092));
    c.run();
    assertThat(fabric[0].reordered).isPositive();
    assertThat(fabric[0].refused).isPositive();
    assertThat(c.read(0, t.mdh(), 1001, 200_001)).isEqualTo(Arrays.copyOfRange(src1, 5, 200_006));
    assertThat(c.read(0, t.mdh(), 300_007, 3_333)).isEqualTo(Arrays.copyOfRange(src1, 300_000, 303_333));
    assertThat(c.read(2, s2.mdh(), 17, 150_000)).isEqualTo(Arrays.copyOfRange(tgt, 1_000_000, 1_150_000));
    assertThat(c.read(2, s2.mdh(), 200_001, 4_092)).isEqualTo(Arrays.copyOfRange(tgt, 2_000_004, 2_004_096));
    assertThat(c.events).hasSize(4).allMatch(e -> e.type() == CompletionType.GLOBAL && !e.isError());
    assertThat(c.events.stream().mapToLong(CompletionEvent::postId).sorted().toArray()).containsExactly(1, 2, 3, 4);
    assertThat(c.nics[1].outstandingTransactions()).isZero();
    assertThat(c.nics[1].statistics().injectionsRefused() + c.nics[2].statistics().injectionsRefused()
        + c.nics[0].statistics().injectionsRefused()).isEqualTo(fabric[0].refused);
  }

  @Test
  void packetsNeverCrossA64ByteBoundaryOfTheRemoteAddress() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor a = c.register(0, 8192);
    MemoryDomainDescriptor b = c.register(1, 8192);
    c.nics[0].post(Post.put(1, a.mdh(), 0, NetworkAddress.of(1, b.mdh(), 3), 1000));
    c.run();
    // Bytes 3..1002 touch 64-byte lines 0..15: 16 packets.
    assertThat(c.nics[0].statistics().requestsSent()).isEqualTo(16);
    assertThat(Transaction.packetCount(3, 1000)).isEqualTo(16);
    assertThat(Transaction.packetCount(0, 64)).isEqualTo(1);
    assertThat(Transaction.packetCount(63, 2)).isEqualTo(2);
    assertThat(Transaction.packetCount(5, 0)).isEqualTo(1);
    assertThat(c.nics[0].statistics().payloadBytesSent()).isEqualTo(1000);
    assertThat(c.nics[1].statistics().responsesSent()).isEqualTo(16);
  }

  @Test
  void zeroLengthPutCompletesWithOnePacketAndWritesNothing() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor a = c.register(0, 4096);
    MemoryDomainDescriptor b = c.register(1, 4096);
    c.nics[0].post(Post.put(9, a.mdh(), 0, NetworkAddress.of(1, b.mdh(), 4096), 0));
    c.run();
    assertThat(c.events).singleElement().satisfies(e -> {
      assertThat(e.postId()).isEqualTo(9);
      assertThat(e.status()).isEqualTo(Status.OK);
    });
    assertThat(c.nics[0].statistics().requestsSent()).isEqualTo(1);
  }

  @Test
  void sameConfigurationGivesIdenticalEvents() {
    assertThat(runOnce()).isEqualTo(runOnce());
  }

  private List<CompletionEvent> runOnce() {
    ReorderingFabric[] fabric = new ReorderingFabric[1];
    Cluster c = new Cluster(3, NicConfig.defaults(),
        loop -> fabric[0] = new ReorderingFabric(loop, 3, 5, 1_000_000, 5), (m, l) -> new FlatTranslation(m, l, 0));
    MemoryDomainDescriptor t = c.register(0, 1 << 20);
    for (int s = 1; s < 3; s++) {
      MemoryDomainDescriptor l = c.register(s, 1 << 20);
      for (int k = 0; k < 10; k++) {
        c.nics[s].post(Post.put(k, l.mdh(), k * 1000L, NetworkAddress.of(0, t.mdh(), s * 100_000L + k * 7), 999 * k));
      }
    }
    c.run();
    return c.events;
  }
}
