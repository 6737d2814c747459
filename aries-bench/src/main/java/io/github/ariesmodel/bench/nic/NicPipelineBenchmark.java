package io.github.ariesmodel.bench.nic;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketPool;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.nic.Nic;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.nic.Post;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Packets per second (wall clock) through the NIC's pipelines, default timing, with either translator: {@code flat}
 * (core's zero-latency {@code FlatTranslation}: one completion event per translation, and a small record allocated
 * per translation by that test adapter) or {@code iommu} (the Aries IOMMU with default geometry; its PTE cache is
 * warm after the first invocation, so every translation is a hit that completes through its fast path, without an
 * event).
 *
 * <ul>
 *   <li>{@code sourcePut}: one 64 KiB PUT (1,024 request packets) posted and run to completion; a loop-back fabric
 *       answers every request with an ACK at once, so the work is the source side: post, issue, local read
 *       translation, packet build, injection, response receive, completion event.
 *   <li>{@code targetPut}: 1,024 pre-built 64-byte PUT requests delivered to a target NIC, run to completion; the
 *       responses go to a sink. The work is the target side: receive pipeline, translation, memory write, ACK.
 *   <li>{@code targetAmo}: the same with 1,024 FADD requests to 64 words (the AMO unit path).
 * </ul>
 *
 * <p>{@code packets}: {@code fresh} (NICs used alone make every packet anew) or {@code pooled} (both NICs and the two
 * stand-in fabrics share one core {@code PacketPool}, as the NICs of a system do: the loop-back fabric gives back each
 * request it answers and the sink each response, and the target benchmarks make each request they deliver from the
 * pool, with its payload, since the target gives it back once served).
 *
 * <p>Run: {@code java -jar aries-bench/target/benchmarks.jar 'NicPipelineBenchmark' -prof gc -f 3 -wi 3 -w 1s -i 5
 * -r 1s} (three forks: with one, scores were bimodal from fork to fork; the pattern is a regular expression, and
 * {@code 'nic'} also matched five {@code HostCacheBenchmark} methods, {@code nicRead...}). Scores are
 * operations per second where one operation is one packet (see {@code @OperationsPerInvocation}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class NicPipelineBenchmark {

  private static final int PACKETS = 1024;

  private DeterministicEventLoop sourceLoop;
  private Nic source;
  private int sourceMdh;
  private int remoteMdh;
  private long postId;

  private DeterministicEventLoop targetLoop;
  private Nic target;
  private Packet[] puts;
  private Packet[] amos;

  /** Which translator the NICs use: {@code flat} or {@code iommu}. */
  @Param({"flat", "iommu"})
  public String translation;

  /** Whether packets come fresh or from a shared pool: {@code fresh} or {@code pooled}. */
  @Param({"fresh", "pooled"})
  public String packets;

  private PacketPool pool;
  private int targetMdh;
  private AmoOperation fadd;

  private AddressTranslation translator(SparsePhysicalMemory memory, DeterministicEventLoop loop) {
    return switch (translation) {
      case "flat" -> new FlatTranslation(memory, loop, 0);
      case "iommu" -> new Iommu(memory, loop, IommuConfig.defaults());
      default -> throw new IllegalArgumentException("translation must be flat or iommu but was " + translation);
    };
  }

  /** Builds both systems. */
  @Setup(Level.Trial)
  public void setUp() {
    pool = switch (packets) {
      case "fresh" -> null;
      case "pooled" -> new PacketPool();
      default -> throw new IllegalArgumentException("packets must be fresh or pooled but was " + packets);
    };
    sourceLoop = new DeterministicEventLoop();
    LoopBackFabric loopBack = new LoopBackFabric(sourceLoop, pool);
    SparsePhysicalMemory sm = new SparsePhysicalMemory(1L << 30);
    source = new Nic(0, sourceLoop, sm, translator(sm, sourceLoop), loopBack, NicConfig.defaults());
    source.recyclePackets(pool);
    sourceMdh = source.register(MemoryRegistration.of(0, 1 << 20, 1, 1)).mdh();
    remoteMdh = 5;

    targetLoop = new DeterministicEventLoop();
    SinkFabric sink = new SinkFabric(pool);
    SparsePhysicalMemory tm = new SparsePhysicalMemory(1L << 30);
    target = new Nic(0, targetLoop, tm, translator(tm, targetLoop), sink, NicConfig.defaults());
    target.recyclePackets(pool);
    MemoryDomainDescriptor d = target.register(MemoryRegistration.of(0, 1 << 20, 1, 1));
    targetMdh = d.mdh();
    puts = new Packet[PACKETS];
    amos = new Packet[PACKETS];
    byte[] payload = new byte[64];
    fadd = AmoOperation.parse("FADD");
    for (int i = 0; i < PACKETS; i++) {
      puts[i] = Packet.put(1, NetworkAddress.of(0, d.mdh(), 64L * i), i, DeliveryMode.ADAPTIVE_0, payload, 1, 1);
      amos[i] = Packet.amo(1, NetworkAddress.of(0, d.mdh(), 8L * (i % 64)), i, DeliveryMode.ADAPTIVE_0, fadd, 1, 0,
          1, 1);
    }
  }

  /** @return events run (consumed so the work is not dead code) */
  @Benchmark
  @OperationsPerInvocation(PACKETS)
  public long sourcePut() {
    source.post(Post.put(postId++, sourceMdh, 0, NetworkAddress.of(1, remoteMdh, 0), 64L * PACKETS));
    return sourceLoop.run();
  }

  /** @return events run */
  @Benchmark
  @OperationsPerInvocation(PACKETS)
  public long targetPut() {
    long now = targetLoop.now();
    if (pool != null) {
      for (int i = 0; i < PACKETS; i++) {
        Packet p = pool.put(1, 0, targetMdh, 64L * i, i, DeliveryMode.ADAPTIVE_0, 64, 1, 1);
        target.deliver(now, p);
      }
    } else {
      for (Packet p : puts) {
        target.deliver(now, p);
      }
    }
    return targetLoop.run();
  }

  /** @return events run */
  @Benchmark
  @OperationsPerInvocation(PACKETS)
  public long targetAmo() {
    long now = targetLoop.now();
    if (pool != null) {
      for (int i = 0; i < PACKETS; i++) {
        target.deliver(now, pool.amo(1, 0, targetMdh, 8L * (i % 64), i, DeliveryMode.ADAPTIVE_0, fadd, 1, 0, 1, 1));
      }
    } else {
      for (Packet p : amos) {
        target.deliver(now, p);
      }
    }
    return targetLoop.run();
  }

  /** A two-node fabric that answers every request of node 0 with an immediate ACK from node 1. */
  static final class LoopBackFabric implements Fabric {
    private final DeterministicEventLoop loop;
    private final PacketPool pool;
    private FabricEndpoint node0;

    LoopBackFabric(DeterministicEventLoop loop, PacketPool pool) {
      this.loop = loop;
      this.pool = pool;
    }

    @Override
    public int nodeCount() {
      return 2;
    }

    @Override
    public void attach(int nodeId, FabricEndpoint endpoint) {
      if (nodeId == 0) {
        node0 = endpoint;
      }
    }

    @Override
    public boolean inject(Packet packet) {
      if (pool == null) {
        node0.deliver(loop.now(), Packet.ack(packet));
      } else {
        Packet ack = pool.ack(packet);
        pool.release(packet);
        node0.deliver(loop.now(), ack);
      }
      return true;
    }
  }

  /** A fabric that drops what it is given (the responses of the target benchmark). */
  static final class SinkFabric implements Fabric {
    private final PacketPool pool;
    long sunk;

    SinkFabric(PacketPool pool) {
      this.pool = pool;
    }

    @Override
    public int nodeCount() {
      return 2;
    }

    @Override
    public void attach(int nodeId, FabricEndpoint endpoint) {}

    @Override
    public boolean inject(Packet packet) {
      sunk++;
      if (pool != null) {
        pool.release(packet);
      }
      return true;
    }
  }
}
