package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
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
 * A rank's completion queue in host memory: the NIC writes into it the remote events of the rank's registration and
 * the source (GLOBAL) events of the rank's own posts, and the rank takes each entry with a timed load through the host
 * cache.
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

  /** The physical addresses of the first {@code n} entries of a rank's CQ. */
  private static List<Long> entryAddresses(Rank r, long n) {
    NicConfig c = r.node.nic().config();
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      TranslationResult t = r.node.translation().translateNow(r.cq.ring().mdh(), r.cq.entryOffset(i),
          CompletionQueue.ENTRY_BYTES, AccessKind.READ, c.protectionTag(), c.protectionKey());
      assertThat(t.ok()).isTrue();
      out.add(t.physicalAddress());
    }
    return out;
  }

  /** Hits and misses of the CPU loads of a rank's CQ entries: {hits, misses, loads}. */
  private static long[] entryLoads(RecordingCache cache, Rank r, HostCacheConfig config) {
    Set<Long> entries = new HashSet<>(entryAddresses(r, r.completionEventsTaken()));
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
      assertThat(r.completionEventsTaken()).as("rank %s took every entry", r.worldRank)
          .isEqualTo(r.cq.writtenEvents()).isGreaterThan(r.sourceEventsTaken());
      assertThat(r.cq.size()).isZero();
      assertThat(r.cq.overrun()).isFalse();
    }
  }

  @Test
  void takingAnEntryIsALoadThatHitsALineTheNicUpdatedInPlace() {
    HostCacheConfig update = HostCacheConfig.parse("policy=update");
    List<RecordingCache> made = new ArrayList<>();
    AriesSystem sys = system(update, made);
    MpiJob job = pingPong(sys, 20);
    Rank sender = job.rank(0);
    long n = sender.completionEventsTaken();
    // 20 pings' GLOBAL events and 20 pongs' REMOTE events at least (credits and the finalize barrier add more)
    assertThat(sender.sourceEventsTaken()).isEqualTo(21);
    assertThat(n).isEqualTo(sender.cq.writtenEvents()).isGreaterThanOrEqualTo(41);
    long[] got = entryLoads((RecordingCache) sender.node.hostCache(), sender, update);
    // the first load of each 64-byte line (8 entries) misses; the NIC then updates the cached line in place and the
    // later loads of the line hit
    long lines = (n + 7) / 8;
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
  void aQueueThatOverrunsFailsTheRankWithOneLine() {
    AriesSystem sys = MpiTesting.smallSystem(4);
    // rings of two entries; one message to each of six ranks on six nodes, so that no receiver's ring overruns and
    // only the sender's six GLOBAL events arrive at its ring while it computes
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
        .hasStackTraceContaining("MPI rank 0: its completion queue overran (4 events dropped;"
            + " MpiConfig.completionQueueEntries is 2)");
    assertThat(job.rank(0).cq.droppedEvents()).isEqualTo(4);
    assertThat(job.rank(0).cq.writtenEvents()).isEqualTo(2);
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
    assertThat(job.rank(0).cq.writtenEvents()).isEqualTo(1);
  }

  @Test
  void completionQueueEntriesIsChecked() {
    assertThatThrownBy(() -> MpiConfig.builder().completionQueueEntries(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("completionQueueEntries must be in [1, 16777216] but was 0");
    assertThat(MpiConfig.defaults().completionQueueEntries()).isEqualTo(16_384);
  }
}
