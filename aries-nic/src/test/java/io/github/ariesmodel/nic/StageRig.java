package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import java.util.ArrayList;
import java.util.List;

/**
 * The NIC's stages built one by one around an event loop (the fake scheduler), sparse memory, flat zero-latency
 * translation and a fabric that records what it is given and refuses on demand: no {@link Nic}, so a test drives a
 * stage directly and sees exactly what it schedules, injects and writes.
 */
final class StageRig {

  /** A fabric of {@code nodes} nodes that records injected packets with their times and can refuse. */
  static final class RecordingFabric implements Fabric {
    final DeterministicEventLoop loop;
    final List<Packet> packets = new ArrayList<>();
    final List<Long> times = new ArrayList<>();
    int refuseNext;

    RecordingFabric(DeterministicEventLoop loop) {
      this.loop = loop;
    }

    @Override
    public int nodeCount() {
      return 4;
    }

    @Override
    public void attach(int nodeId, FabricEndpoint endpoint) {}

    @Override
    public boolean inject(Packet packet) {
      if (refuseNext > 0) {
        refuseNext--;
        return false;
      }
      packets.add(packet);
      times.add(loop.now());
      return true;
    }
  }

  final DeterministicEventLoop loop = new DeterministicEventLoop();
  final SparsePhysicalMemory memory = new SparsePhysicalMemory(1L << 30);
  final FlatTranslation translation = new FlatTranslation(memory, loop, 0);
  final RecordingFabric fabric = new RecordingFabric(loop);
  final NicConfig config;
  final NicStatistics stats = new NicStatistics();
  final HostLink host;
  final AccessPool accesses = new AccessPool();
  final CompletionWriter completions;
  final TransactionTable table;
  final Injector injector;
  final IssuePipeline issue;
  final AmoUnit amoUnit;
  final TargetEngine target;
  final ResponseEngine responses;
  /** The observers of the stages' host writes (none unless a test adds one). */
  final HostWriteProbes writes = new HostWriteProbes();

  StageRig(NicConfig config) {
    this.config = config;
    host = new HostLink(config.timing(), stats);
    completions = new CompletionWriter(0, loop, host, memory, translation, config, stats, writes);
    table = new TransactionTable(loop, config, host, completions, stats);
    injector = new Injector(loop, fabric, stats, table);
    issue = new IssuePipeline(0, loop, memory, translation, config, host, accesses, table, injector);
    table.issuePipeline(issue);
    injector.issuePipeline(issue);
    amoUnit = new AmoUnit(loop, memory, null, config, host, accesses, completions, injector, stats, writes);
    target = new TargetEngine(0, loop, memory, translation, config.timing(), host, accesses, completions, injector,
        amoUnit, stats, config.protectionTag(), config.protectionKey(), writes);
    responses = new ResponseEngine(0, loop, memory, translation, config, host, accesses, table, writes);
  }

  /** Registers {@code length} bytes with PTAG/PKEY 1/1 and, optionally, a CQ for remote events. */
  MemoryDomainDescriptor register(long length, int cq) {
    return translation.register(MemoryRegistration.of(0x10_0000L, length, 1, 1).withCompletionQueue(cq));
  }

  long slotPs() {
    return config.timing().cyclePs() * config.timing().packetCycles();
  }

  long rxPs() {
    return config.timing().cyclePs() * config.timing().rxPipelineCycles();
  }

  long txPs() {
    return config.timing().cyclePs() * config.timing().txPipelineCycles();
  }
}
