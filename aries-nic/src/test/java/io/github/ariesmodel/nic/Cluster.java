package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import io.github.ariesmodel.core.spi.Fabric;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/** A small test system: an event loop, a fabric and one NIC per node over flat translation and sparse memory. */
final class Cluster {

  static final int PTAG = 1;
  static final int PKEY = 1;

  final DeterministicEventLoop loop = new DeterministicEventLoop();
  final Fabric fabric;
  final SparsePhysicalMemory[] memory;
  final AddressTranslation[] translation;
  final Nic[] nics;
  final List<CompletionEvent> events = new ArrayList<>();

  Cluster(int nodes, NicConfig config) {
    this(nodes, config, loop -> new IdealFabric(loop, nodes, 0, Double.POSITIVE_INFINITY), (m, l) -> new FlatTranslation(m, l, 0));
  }

  Cluster(int nodes, NicConfig config, Function<DeterministicEventLoop, Fabric> fabricFactory,
      BiFunction<SparsePhysicalMemory, DeterministicEventLoop, AddressTranslation> translationFactory) {
    fabric = fabricFactory.apply(loop);
    memory = new SparsePhysicalMemory[nodes];
    translation = new AddressTranslation[nodes];
    nics = new Nic[nodes];
    for (int n = 0; n < nodes; n++) {
      memory[n] = new SparsePhysicalMemory(1L << 32);
      translation[n] = translationFactory.apply(memory[n], loop);
      nics[n] = new Nic(n, loop, memory[n], translation[n], fabric, config);
      nics[n].completionListener(events::add);
    }
  }

  /** Registers a writable 4K-page buffer of {@code length} bytes at node n. */
  MemoryDomainDescriptor register(int node, long length) {
    return nics[node].register(MemoryRegistration.of(0x10_0000L, length, PTAG, PKEY));
  }

  byte[] read(int node, int mdh, long offset, int length) {
    TranslationResult r = translation[node].translateNow(mdh, offset, length, AccessKind.READ, PTAG, PKEY);
    if (!r.ok()) {
      throw new AssertionError("host read faulted: " + r.status());
    }
    byte[] b = new byte[length];
    memory[node].read(r.physicalAddress(), b, 0, length);
    return b;
  }

  void write(int node, int mdh, long offset, byte[] data) {
    TranslationResult r = translation[node].translateNow(mdh, offset, data.length, AccessKind.WRITE, PTAG, PKEY);
    if (!r.ok()) {
      throw new AssertionError("host write faulted: " + r.status());
    }
    memory[node].write(r.physicalAddress(), data, 0, data.length);
  }

  long readLong(int node, int mdh, long offset) {
    TranslationResult r = translation[node].translateNow(mdh, offset, 8, AccessKind.READ, PTAG, PKEY);
    return memory[node].readLong(r.physicalAddress());
  }

  void run() {
    loop.run();
  }

  List<CompletionEvent> events(int node) {
    return events.stream().filter(e -> e.node() == node).toList();
  }
}
