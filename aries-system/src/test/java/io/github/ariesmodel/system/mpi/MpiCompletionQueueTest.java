package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.cache.SetAssociativeHostCache;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.nic.CompletionQueue;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.ProcessRunner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A rank's two completion queues in host memory: the NIC writes the remote events of the rank's registration (and its
 * peers' CQ writes) into its rx ring and the source (GLOBAL) events of the rank's own posts into its tx ring (uGNI: a
 * CQ takes local or remote events, not both), and the rank takes each entry with a timed load through the host cache.
 */
class MpiCompletionQueueTest {

  /** A CPU load seen by {@link RecordingCache}: its physical address and latency. */
  private record Load(long address, long ps) {}

  /** A host cache that remembers every CPU load, to find the loads of a CQ's entries among the rest. */
  private static final class RecordingCache implements HostCache {
    private final HostCache inner;
    final List<Load> loads = new ArrayList<>();

    RecordingCache(HostCache inner) {
      this.inner = inner;
    }

    @Override
    public HostMemory memory() {
      return inner.memory();
    }

    @Override
    public long cpuLoad(long address, byte[] dst, int dstOffset, int length) {
      long ps = inner.cpuLoad(address, dst, dstOffset, length);
      loads.add(new Load(address, ps));
      return ps;
    }

    @Override
    public long cpuStore(long address, byte[] src, int srcOffset, int length) {
      return inner.cpuStore(address, src, srcOffset, length);
    }

    @Override
    public long nicWrite(long address, byte[] src, int srcOffset, int length) {
      return inner.nicWrite(address, src, srcOffset, length);
    }

    @Override
    public long nicRead(long address, byte[] dst, int dstOffset, int length) {
      return inner.nicRead(address, dst, dstOffset, length);
    }

    @Override
    public long count(HostCacheStatistic statistic) {
      return inner.count(statistic);
    }
  }

  private static AriesSystem system(HostCacheConfig cache, List<RecordingCache> made) {
    return AriesSystem.builder().topology(Topologies.ariesSmall(), "aries-small").seed(3)
        .hostCache((node, memory) -> {
          RecordingCache c = new RecordingCache(new SetAssociativeHostCache(memory, cache));
          made.add(c);
          return c;
        }).build();
  }

  /** Ping-pong of 8-byte messages between nodes 0 and 5, {@code rounds} round trips. */
  private static MpiJob pingPong(AriesSystem sys, int rounds) {
    MpiJob job = MpiJob.builder(sys).nodes(0, 5).build();
    job.run(mpi -> {
      byte[] b = new byte[8];
      for (int i = 0; i < rounds; i++) {
        if (mpi.rank() == 0) {
          mpi.send(b, 1, 0);
          mpi.recv(b, 1, 0);
        } else {
          mpi.recv(b, 0, 0);
          mpi.send(b, 0, 0);
        }
      }
    });
    return job;
  }

  /** The physical addresses of the first {@code n} entries of one of a rank's CQs. */
  private static List<Long> entryAddresses(Rank r, CompletionQueue q, long n) {
    NicConfig c = r.node.nic().config();
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      TranslationResult t = r.node.translation().translateNow(q.ring().mdh(), q.entryOffset(i),
          CompletionQueue.ENTRY_BYTES, AccessKind.READ, c.protectionTag(), c.protectionKey());
      assertThat(t.ok()).isTrue();
      out.add(t.physicalAddress());
    }
    return out;
  }

  /** Hits and misses of the CPU loads of a rank's CQ entries, both rings: {hits, misses, loads}. */
  private static long[] entryLoads(RecordingCache cache, Rank r, HostCacheConfig config) {
    Set<Long> entries = new HashSet<>(entryAddresses(r, r.rxCq, r.rxEventsTaken()));
    entries.addAll(entryAddresses(r, r.txCq, r.txEventsTaken()));
    long hits = 0;
    long misses = 0;
    long loads = 0;
    for (Load l : cache.loads) {
      if (entries.contains(l.address())) {
        loads++;
        if (l.ps() == config.hitLatencyPs()) {
          hits++;
        } else if (l.ps() == config.memoryLatencyPs()) {
          misses++;
        }
      }
    }
    return new long[] {hits, misses, loads};
  }

  @Test
  void theQueueGetsOneSourceEntryPerPostThatAsksForASourceEvent() {
    List<RecordingCache> made = new ArrayList<>();
    AriesSystem sys = system(HostCacheConfig.xc40(), made);
    MpiJob job = MpiJob.builder(sys).nodes(0, 5).build();
    int[] sizes = {0, 8, 1024, 1025, 4000, 8192, 8193, 100_000};
    job.run(mpi -> {
      for (int k = 0; k < sizes.length; k++) {
        if (mpi.rank() == 0) {
          mpi.send(new byte[sizes[k]], 1, k);
        } else {
          mpi.recv(new byte[sizes[k]], 0, k);
        }
      }
    });
    Rank sender = job.rank(0);
    Rank receiver = job.rank(1);
    long messages = job.messages(Protocol.SHORT) + job.messages(Protocol.EAGER) + job.messages(Protocol.RENDEZVOUS);
    // one mailbox PUT per message (GLOBAL event), one GET per eager or non-empty rendezvous message (GLOBAL event);
    // credits, eager acknowledgements and FINs are silent CQ writes: no source event
    long gets = job.messages(Protocol.EAGER) + job.messages(Protocol.RENDEZVOUS);
    assertThat(job.messages(Protocol.EAGER)).isEqualTo(3);
    assertThat(job.messages(Protocol.RENDEZVOUS)).isEqualTo(2);
    assertThat(sender.sourceEventsTaken() + receiver.sourceEventsTaken()).isEqualTo(messages + gets);
    // each rank's GETs complete in its own queue, never in its peer's
    assertThat(receiver.sourceEventsTaken()).isEqualTo(gets + 1); // + its finalize-barrier message
    assertThat(sender.sourceEventsTaken()).isEqualTo(messages - 1);
    for (Rank r : List.of(sender, receiver)) {
      // every source event came from the tx ring and nothing else did; the rx ring held the remote events
      assertThat(r.txEventsTaken()).as("rank %s's tx ring", r.worldRank).isEqualTo(r.sourceEventsTaken())
          .isEqualTo(r.txCq.writtenEvents());
      assertThat(r.rxEventsTaken()).as("rank %s's rx ring", r.worldRank).isEqualTo(r.rxCq.writtenEvents())
          .isPositive();
      assertThat(r.completionEventsTaken()).as("rank %s took every entry", r.worldRank)
          .isEqualTo(r.rxCq.writtenEvents() + r.txCq.writtenEvents());
      for (CompletionQueue q : List.of(r.rxCq, r.txCq)) {
        assertThat(q.size()).isZero();
        assertThat(q.overrun()).isFalse();
      }
    }
  }

  @Test
  void aRanksSourceEventsLandInARingApartFromTheOneItsRegistrationNames() {
    AriesSystem sys = MpiTesting.smallSystem(2);
    MpiJob job = MpiJob.builder(sys).nodes(0, 5).ranksPerNode(2)
        .config(MpiConfig.builder().sharedMemory(false).build()).build();
    Set<Integer> rings = new HashSet<>();
    for (int i = 0; i < job.size(); i++) {
      Rank r = job.rank(i);
      MemoryDomainDescriptor d = r.node.iommu().orElseThrow().descriptor(r.mdh).orElseThrow();
      assertThat(d.completionQueue()).as("rank %s's registration names its rx ring", i).isEqualTo(r.rxCq.handle());
      assertThat(r.txCq.handle()).isNotEqualTo(r.rxCq.handle());
      assertThat(r.node.nic().completionQueue(r.txCq.handle())).isSameAs(r.txCq);
      assertThat(r.txCq.ring().mdh()).isNotEqualTo(r.rxCq.ring().mdh());
      assertThat(r.txCq.capacity()).isEqualTo(r.rxCq.capacity()).isEqualTo(16_384);
      rings.add(r.node.id() << 16 | r.rxCq.handle());
      rings.add(r.node.id() << 16 | r.txCq.handle());
    }
    assertThat(rings).as("two rings a rank, none shared").hasSize(2 * job.size());
    // an exchange through the NIC between every pair: short, eager and rendezvous messages, and every control value
    job.run(mpi -> {
      for (int size : new int[] {8, 4000, 100_000}) {
        List<Request> r = new ArrayList<>();
        for (int peer = 0; peer < mpi.size(); peer++) {
          if (peer != mpi.rank()) {
            r.add(mpi.irecv(new byte[size], 0, size, peer, size, mpi.world()));
            r.add(mpi.isend(new byte[size], 0, size, peer, size, mpi.world()));
          }
        }
        mpi.waitall(r.toArray(new Request[0]));
      }
    });
    for (int i = 0; i < job.size(); i++) {
      Rank r = job.rank(i);
      // every entry taken from the tx ring was a source event, and every source event came from it; the rx ring held
      // the rest (a remote event may still wait in it: a rank can take a message from its mailbox before the event)
      assertThat(r.txEventsTaken()).as("rank %s", i).isPositive().isEqualTo(r.sourceEventsTaken())
          .isEqualTo(r.txCq.writtenEvents() - r.txCq.size());
      assertThat(r.rxEventsTaken()).as("rank %s", i).isPositive()
          .isEqualTo(r.completionEventsTaken() - r.sourceEventsTaken())
          .isEqualTo(r.rxCq.writtenEvents() - r.rxCq.size());
    }
  }

  /**
   * The progress engine's order: when both rings hold entries it takes every one of the tx ring (its own posts'
   * completions) before any of the rx ring, as libfabric's GNI provider does (tx CQ, then rx CQ).
   */
  @Test
  void withBothRingsHoldingEntriesTheRankTakesItsTxRingFirst() {
    List<RecordingCache> made = new ArrayList<>();
    AriesSystem sys = system(HostCacheConfig.xc40(), made);
    MpiJob job = MpiJob.builder(sys).nodes(0, 5, 10, 15).build();
    job.run(mpi -> {
      if (mpi.rank() == 0) {
        Request[] r = new Request[3];
        for (int i = 0; i < r.length; i++) {
          r[i] = mpi.isend(new byte[8], 0, 8, i + 1, 0, mpi.world());
        }
        // 100 µs without progress: its three PUTs' GLOBAL events reach its tx ring, the three peers' messages' REMOTE
        // events its rx ring
        mpi.compute(100_000_000L);
        for (int i = 1; i <= 3; i++) {
          mpi.recv(new byte[8], i, 1);
        }
        mpi.waitall(r);
      } else {
        mpi.send(new byte[8], 0, 1);
        mpi.recv(new byte[8], 0, 0);
      }
    });
    Rank r = job.rank(0);
    List<Long> tx = entryAddresses(r, r.txCq, 3);
    List<Long> rx = entryAddresses(r, r.rxCq, 3);
    List<String> order = new ArrayList<>();
    for (Load l : ((RecordingCache) r.node.hostCache()).loads) {
      if (tx.contains(l.address())) {
        order.add("tx" + tx.indexOf(l.address()));
      } else if (rx.contains(l.address())) {
        order.add("rx" + rx.indexOf(l.address()));
      }
    }
    assertThat(order).startsWith("tx0", "tx1", "tx2", "rx0", "rx1", "rx2");
  }

  @Test
  void takingAnEntryIsALoadThatHitsALineTheNicUpdatedInPlace() {
    HostCacheConfig update = HostCacheConfig.parse("policy=update");
    List<RecordingCache> made = new ArrayList<>();
    AriesSystem sys = system(update, made);
    MpiJob job = pingPong(sys, 20);
    Rank sender = job.rank(0);
    long n = sender.completionEventsTaken();
    // 20 pings' GLOBAL events (tx ring) and 20 pongs' REMOTE events (rx ring) at least (credits and the finalize
    // barrier add more)
    assertThat(sender.sourceEventsTaken()).isEqualTo(21).isEqualTo(sender.txEventsTaken());
    assertThat(sender.rxEventsTaken()).isGreaterThanOrEqualTo(20);
    assertThat(n).isEqualTo(sender.rxCq.writtenEvents() + sender.txCq.writtenEvents()).isGreaterThanOrEqualTo(41);
    long[] got = entryLoads((RecordingCache) sender.node.hostCache(), sender, update);
    // the first load of each 64-byte line (8 entries) of each ring misses; the NIC then updates the cached line in
    // place and the later loads of the line hit
    long lines = (sender.rxEventsTaken() + 7) / 8 + (sender.txEventsTaken() + 7) / 8;
    assertThat(got[2]).isEqualTo(n);
    assertThat(got[1]).isEqualTo(lines);
    assertThat(got[0]).isEqualTo(n - lines);
  }

  @Test
  void underInvalidateEveryEntryTheNicWroteMisses() {
    HostCacheConfig invalidate = HostCacheConfig.parse("policy=invalidate");
    List<RecordingCache> made = new ArrayList<>();
    AriesSystem sys = system(invalidate, made);
    MpiJob job = pingPong(sys, 20);
    Rank sender = job.rank(0);
    long n = sender.completionEventsTaken();
    long[] got = entryLoads((RecordingCache) sender.node.hostCache(), sender, invalidate);
    assertThat(got[2]).isEqualTo(n);
    assertThat(got[1]).isEqualTo(n);
    assertThat(got[0]).isZero();
  }

  @Test
  void aTxRingThatOverrunsFailsTheRankWithOneLine() {
    AriesSystem sys = MpiTesting.smallSystem(4);
    // rings of two entries; one message to each of six ranks on six nodes, so that no receiver's ring overruns and
    // only the sender's six GLOBAL events arrive at its tx ring while it computes
    MpiJob job = MpiJob.builder(sys).nodes(0, 5, 10, 15, 20, 25, 30)
        .config(MpiConfig.builder().completionQueueEntries(2).build()).build();
    assertThatThrownBy(() -> job.run(mpi -> {
      if (mpi.rank() == 0) {
        Request[] r = new Request[6];
        for (int i = 0; i < r.length; i++) {
          r[i] = mpi.isend(new byte[8], 0, 8, i + 1, 0, mpi.world());
        }
        mpi.compute(100_000_000L); // 100 µs without progress: six GLOBAL events for a ring of two
        mpi.waitall(r);
      } else {
        mpi.recv(new byte[8], 0, 0);
        mpi.compute(1_000_000_000L); // nothing more for rank 0's ring
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasStackTraceContaining("MPI rank 0: its tx completion queue (the source events of its own posts) overran"
            + " (4 events dropped; MpiConfig.completionQueueEntries, the size of each of its two rings, is 2)\n");
    assertThat(job.rank(0).txCq.droppedEvents()).isEqualTo(4);
    assertThat(job.rank(0).txCq.writtenEvents()).isEqualTo(2);
    assertThat(job.rank(0).rxCq.overrun()).isFalse();
  }

  @Test
  void anRxRingThatOverrunsFailsTheRankWithOneLine() {
    AriesSystem sys = MpiTesting.smallSystem(4);
    // rings of two entries; six ranks on six nodes send rank 0 one message each while it computes: six REMOTE events
    // for its rx ring of two, and one GLOBAL event in each sender's tx ring (no credits: 8 slots a pair)
    MpiJob job = MpiJob.builder(sys).nodes(0, 5, 10, 15, 20, 25, 30)
        .config(MpiConfig.builder().completionQueueEntries(2).build()).build();
    assertThatThrownBy(() -> job.run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.compute(100_000_000L); // 100 µs without progress
        for (int i = 1; i < mpi.size(); i++) {
          mpi.recv(new byte[8], i, 0);
        }
      } else {
        mpi.send(new byte[8], 0, 0);
        mpi.compute(1_000_000_000L);
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasStackTraceContaining("MPI rank 0: its rx completion queue (remote events of its registration and its"
            + " peers' CQ writes) overran (4 events dropped; MpiConfig.completionQueueEntries, the size of each of"
            + " its two rings, is 2)\n");
    assertThat(job.rank(0).rxCq.droppedEvents()).isEqualTo(4);
    assertThat(job.rank(0).rxCq.writtenEvents()).isEqualTo(2);
    assertThat(job.rank(0).txCq.overrun()).isFalse();
    for (int i = 1; i < job.size(); i++) {
      assertThat(job.rank(i).txCq.overrun()).as("rank %s's tx ring", i).isFalse();
      assertThat(job.rank(i).rxCq.overrun()).as("rank %s's rx ring", i).isFalse();
    }
  }

  @Test
  void aFailedTransferReachesTheQueueAndFailsTheRank() {
    AriesSystem sys = MpiTesting.smallSystem(5);
    MpiJob job = MpiJob.builder(sys).nodes(0, 5).build();
    assertThatThrownBy(() -> job.run(mpi -> {
      if (mpi.rank() == 1) {
        Rank me = job.rank(1);
        me.node.nic().deregister(me.mdh); // the sender's mailbox PUT finds no registration
        mpi.compute(1_000_000_000L);
      } else {
        mpi.send(new byte[8], 1, 0);
        mpi.recv(new byte[8], 1, 0);
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasStackTraceContaining("MPI rank 0: a transfer failed with INVALID_MDH");
    // the failed mailbox PUT's GLOBAL event, in the sender's tx ring
    assertThat(job.rank(0).txCq.writtenEvents()).isEqualTo(1);
    assertThat(job.rank(0).rxCq.writtenEvents()).isZero();
  }

  @Test
  void completionQueueEntriesIsChecked() {
    assertThatThrownBy(() -> MpiConfig.builder().completionQueueEntries(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("completionQueueEntries must be in [1, 16777216] but was 0");
    assertThat(MpiConfig.defaults().completionQueueEntries()).isEqualTo(16_384);
  }
}
