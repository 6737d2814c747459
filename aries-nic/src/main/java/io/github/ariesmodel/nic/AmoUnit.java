package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.ArrayDeque;

/**
 * The target's AMO unit (aries-facts §3.3): executes a translated AMO request's read-modify-write at one simulated
 * instant (so it is atomic against every other access through this NIC) with {@link AmoArithmetic}, and answers
 * {@code amoUnitCycles} (assumed 8) plus a host read round trip later. At most {@link NicConfig#amoRequestList()}
 * AMOs (64, the 6-bit request list [S6d]) are in the unit; more wait in order. The AMO cache is not modelled.
 */
final class AmoUnit {
  private final Scheduler scheduler;
  private final HostMemory memory;
  private final NicConfig config;
  private final AccessPool accesses;
  private final CompletionWriter completions;
  private final Injector injector;
  private final NicStatistics stats;
  private final long latencyPs;
  private final EventHandler answered = new Answered();
  private int inFlight;
  private ArrayDeque<MemoryAccess> waiting;

  AmoUnit(Scheduler scheduler, HostMemory memory, NicConfig config, AccessPool accesses,
      CompletionWriter completions, Injector injector, NicStatistics stats) {
    this.scheduler = scheduler;
    this.memory = memory;
    this.config = config;
    this.accesses = accesses;
    this.completions = completions;
    this.injector = injector;
    this.stats = stats;
    NicTiming t = config.timing();
    this.latencyPs = t.hostReadLatencyPs() + t.cyclePs() * t.amoUnitCycles();
  }

  /**
   * A translated AMO request (its access holds the request and the physical address): executes now, or waits for
   * room in the request list.
   */
  void accept(long now, MemoryAccess a) {
    if (inFlight >= config.amoRequestList()) {
      if (waiting == null) {
        waiting = new ArrayDeque<>();
      }
      waiting.add(a);
    } else {
      execute(now, a);
    }
  }

  /** @return AMOs in the unit */
  int inFlight() {
    return inFlight;
  }

  /** @return AMOs waiting for room */
  int waiting() {
    return waiting == null ? 0 : waiting.size();
  }

  private void execute(long now, MemoryAccess a) {
    Packet p = a.packet;
    long pa = a.pa[0];
    long old;
    long updated;
    if (p.amo().widthBits() == 64) {
      old = memory.readLong(pa);
      updated = AmoArithmetic.apply(p.amo(), old, p.operand1(), p.operand2());
      memory.writeLong(pa, updated);
    } else {
      old = Integer.toUnsignedLong(memory.readInt(pa));
      updated = AmoArithmetic.apply(p.amo(), old, p.operand1(), p.operand2());
      memory.writeInt(pa, (int) updated);
    }
    stats.amosExecuted++;
    inFlight++;
    accesses.recycle(a);
    completions.remoteEvent(now, p);
    scheduler.scheduleAt(now + latencyPs, answered, Packet.amoResult(p, old), 0);
  }

  /** An AMO's response is ready (ref: the response): it leaves the unit, and a waiting AMO enters. */
  private final class Answered implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      inFlight--;
      injector.injectAt(now, (Packet) ref);
      if (waiting != null && !waiting.isEmpty()) {
        execute(now, waiting.poll());
      }
    }
  }
}
