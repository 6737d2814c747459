package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.iommu.IommuCounters.Event;
import io.github.ariesmodel.iommu.internal.SetAssociativePteCache;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The miss pipeline alone, over a real cache and walker but without the façade: issue spacing, faults passing through,
 * the in-flight limit and its stall counter, counters by client, and slot reuse. Simulated picoseconds throughout.
 */
class MissPipelineTest {

  private static final long FETCH = 100_000;
  private static final long HIT = 2_000;
  private static final long ISSUE = 1_000;
  private static final long PAGE = 2L << 20;

  private final SparsePhysicalMemory memory = new SparsePhysicalMemory(1L << 40);
  private final DeterministicEventLoop loop = new DeterministicEventLoop();
  private final MddTable mdds = new MddTable();
  private final IommuCounters counters = new IommuCounters();
  private final List<String> done = new ArrayList<>();
  private MissPipeline pipeline;
  private int mdh;

  private void build(IommuConfig.Builder b) {
    IommuConfig c = b.pteFetchLatencyPs(FETCH).hitLatencyPs(HIT).issueIntervalPs(ISSUE).build();
    SetAssociativePteCache cache = new SetAssociativePteCache(
        c.ways(), c.sets(), c.ptesPerLine(), BuiltInPolicy.LRU.create(c.sets(), c.ways(), 0));
    pipeline = new MissPipeline(memory, loop, mdds, cache, counters, c);
    MemoryRegistration r = MemoryRegistration.of(0, 512 * PAGE, 1, 1).withPageSize(PageSize.SIZE_2M);
    mdh = mdds.freeMdh();
    mdds.put(new MemoryDomainDescriptor(mdh, true, 0, r.length(), true, 1, 1, 0, r.pageSize(),
        MemoryDomainDescriptor.NO_CQ, false), new PageTableBuilder(memory).build(r));
  }

  private void submit(TranslationClient client, long page, Status preCheck, long id) {
    pipeline.submit(client, mdh, page * PAGE, 8, AccessKind.READ, preCheck,
        (now, status, pa, contiguous, ref, arg) -> done.add(arg + "@" + now + " " + status), null, id);
  }

  @Test
  void hitsLeaveOnePerIssueIntervalAfterTheLineArrives() {
    build(IommuConfig.builder());
    submit(TranslationClient.NETWORK_REQUEST, 0, Status.OK, 0);
    loop.run();
    long t = loop.now();
    loop.scheduleAt(t, (now, ref, arg) -> {
      for (int i = 1; i <= 3; i++) {
        submit(TranslationClient.NETWORK_REQUEST, i, Status.OK, i); // pages 1..3 share line 0
      }
    }, null, 0);
    loop.run();
    assertThat(done).containsExactly("0@" + (FETCH + HIT) + " OK", "1@" + (t + HIT) + " OK",
        "2@" + (t + ISSUE + HIT) + " OK", "3@" + (t + 2 * ISSUE + HIT) + " OK");
    assertThat(counters.get(TranslationClient.NETWORK_REQUEST, Event.MISSES)).isEqualTo(1);
    assertThat(counters.get(TranslationClient.NETWORK_REQUEST, Event.HITS)).isEqualTo(3);
    assertThat(counters.get(TranslationClient.NETWORK_REQUEST, Event.ONE_LEVEL_WALKS)).isEqualTo(4);
    assertThat(pipeline.inFlight()).isZero();
  }

  @Test
  void aFaultFoundByTheMddChecksPassesThroughWithoutTouchingTheCache() {
    build(IommuConfig.builder());
    submit(TranslationClient.LOCAL_READ, 0, Status.PROTECTION_VIOLATION, 9);
    loop.run();
    assertThat(done).containsExactly("9@" + HIT + " PROTECTION_VIOLATION");
    assertThat(pipeline.walker().fetches()).isZero();
    assertThat(counters.get(TranslationClient.LOCAL_READ, Event.TRANSLATIONS)).isEqualTo(1);
    assertThat(counters.get(TranslationClient.LOCAL_READ, Event.FAULTS)).isEqualTo(1);
    assertThat(counters.get(TranslationClient.LOCAL_READ, Event.HITS)).isZero();
    assertThat(counters.get(TranslationClient.NETWORK_REQUEST, Event.TRANSLATIONS)).isZero();
  }

  @Test
  void theInFlightLimitHoldsTheHeadAndCountsItOnce() {
    // 0 enters at once; 1 an issue interval later; 2 then waits at the head (counted once, though retried on every
    // fill) until 0 leaves; 3 follows 1 out without waiting at the head for a slot.
    build(IommuConfig.builder().maxInFlight(2).fetchBuffers(8));
    for (int i = 0; i < 4; i++) {
      submit(TranslationClient.NETWORK_RESPONSE, 8L * i, Status.OK, i); // four different lines: four misses
    }
    assertThat(pipeline.queued()).isEqualTo(3); // one accepted now, the rest wait for the issue interval or a slot
    loop.run();
    assertThat(done).containsExactly("0@" + (FETCH + HIT) + " OK", "1@" + (ISSUE + FETCH + HIT) + " OK",
        "2@" + (FETCH + HIT + FETCH + HIT) + " OK", "3@" + (ISSUE + FETCH + HIT + FETCH + HIT) + " OK");
    assertThat(counters.get(TranslationClient.NETWORK_RESPONSE, StallCause.IN_FLIGHT_LIMIT)).isEqualTo(1);
    assertThat(counters.get(TranslationClient.NETWORK_RESPONSE, StallCause.NO_FETCH_BUFFER)).isZero();
    assertThat(counters.get(TranslationClient.NETWORK_RESPONSE, StallCause.ALL_WAYS_PENDING)).isZero();
  }

  @Test
  void slotsAreReusedOnceTheBacklogHasPeaked() {
    build(IommuConfig.builder());
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 100; i++) {
        submit(TranslationClient.NETWORK_REQUEST, i % 64, Status.OK, i);
      }
      loop.run();
    }
    int made = pipeline.slotsMade();
    assertThat(made).isGreaterThanOrEqualTo(100);
    for (int round = 0; round < 5; round++) {
      for (int i = 0; i < 100; i++) {
        submit(TranslationClient.NETWORK_REQUEST, (i * 7) % 512, Status.OK, i);
      }
      loop.run();
    }
    assertThat(done).hasSize(700);
    assertThat(pipeline.slotsMade()).isEqualTo(made);
  }
}
