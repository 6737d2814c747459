package io.github.ariesmodel.bench.network;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.network.RouterFabric;
import java.util.SplittableRandom;
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
 * Router forwarding on the canonical dragonfly p=4, a=8, h=4 (1,056 nodes): packets are injected and the event loop
 * runs until every one is delivered. The packets are made once in {@code @Setup} and re-injected (the fabric resets
 * their transit record and keeps its route state in pooled per-packet slots, one handler object per event kind), so
 * {@code -prof gc}'s {@code gc.alloc.rate.norm} is what forwarding allocates per packet:
 * divide by the mean hops per packet (about 2.7 for minimal routing of uniform traffic on this topology, from the
 * validation sweep in docs/network.md) for bytes per packet-hop.
 *
 * <ul>
 *   <li>{@code onePacket}: one packet at a time through a quiet network (time per packet, all hops);
 *   <li>{@code burst}: 1,056 packets (one per node, uniform random destinations) at once, so queues, credits and
 *       arbitration are exercised; the score is per packet.
 * </ul>
 *
 * <p>Run: {@code mvn -B -o -q -pl aries-bench -am package -DskipTests} then
 * {@code java -jar aries-bench/target/benchmarks.jar 'network' -prof gc -f 1 -wi 3 -w 1s -i 5 -r 1s}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RouterForwardingBenchmark {

  private static final int BURST = 1056;

  /** The routing under test. */
  @Param({"minimal", "ugal", "adaptive0"})
  public String routing;

  private DeterministicEventLoop loop;
  private RouterFabric fabric;
  private Packet[] packets;
  private int next;

  /** Builds the fabric and the packets. */
  @Setup(Level.Trial)
  public void setUp() {
    Dragonfly topology = Dragonfly.canonical(4, 8, 4);
    loop = new DeterministicEventLoop(1 << 16);
    fabric = RouterFabric.builder(topology, loop).routing(routing).seed(3).injectionBufferBytes(4096).build();
    FabricEndpoint sink = (now, p) -> { };
    for (int n = 0; n < topology.nodeCount(); n++) {
      fabric.attach(n, sink);
    }
    SplittableRandom rnd = new SplittableRandom(5);
    packets = new Packet[BURST];
    for (int i = 0; i < BURST; i++) {
      int dst = rnd.nextInt(topology.nodeCount() - 1);
      packets[i] = Packet.synthetic(i, dst >= i ? dst + 1 : dst, i, DeliveryMode.ADAPTIVE_0, 64);
    }
  }

  /** @return hops taken so far (keeps the work observable) */
  @Benchmark
  public long onePacket() {
    Packet p = packets[next];
    next = next + 1 == BURST ? 0 : next + 1;
    fabric.inject(p);
    loop.run();
    return fabric.packetHops();
  }

  /** @return hops taken so far */
  @Benchmark
  @OperationsPerInvocation(BURST)
  public long burst() {
    for (Packet p : packets) {
      fabric.inject(p);
    }
    loop.run();
    return fabric.packetHops();
  }

}
