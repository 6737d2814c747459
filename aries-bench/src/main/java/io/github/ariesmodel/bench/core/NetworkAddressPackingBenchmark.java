package io.github.ariesmodel.bench.core;

import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.NetworkAddresses;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Packing a 70-bit network address into its two-long form and unpacking it again, per address.
 *
 * <ul>
 *   <li>{@code primitive}: {@link NetworkAddresses#high}/{@link NetworkAddresses#low} then
 *       {@code nodeId/mdh/offset} back; the hot-path twin (target ≤ 5 ns/op, 0 B/op).
 *   <li>{@code primitiveEndpoint}: the 30-bit endpoint int and back.
 *   <li>{@code record}: the same round trip through {@link NetworkAddress} ({@code of}, {@code highBits/lowBits},
 *       {@code fromLongs}), which validates and may allocate.
 *   <li>{@code recordWire}: the 9-byte wire form, for comparison.
 * </ul>
 *
 * <p>1,024 random valid addresses (seed 1) are prepared in {@link #setUp()}; each operation takes the next one.
 *
 * <p>Run: {@code mvn -B -o -q -pl aries-bench -am package -DskipTests && java -jar aries-bench/target/benchmarks.jar
 * NetworkAddressPackingBenchmark -prof gc -f 1 -wi 3 -w 1s -i 5 -r 1s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class NetworkAddressPackingBenchmark {

  private static final int COUNT = 1024;
  private static final int MASK = COUNT - 1;

  private final int[] nodeIds = new int[COUNT];
  private final int[] mdhs = new int[COUNT];
  private final long[] offsets = new long[COUNT];
  private final NetworkAddress[] addresses = new NetworkAddress[COUNT];
  private int next;

  /** Prepares the addresses. */
  @Setup
  public void setUp() {
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < COUNT; i++) {
      nodeIds[i] = r.nextInt(NetworkAddress.MAX_NODE_ID + 1);
      mdhs[i] = r.nextInt(NetworkAddress.MAX_MDH + 1);
      offsets[i] = r.nextLong(NetworkAddress.MAX_OFFSET + 1);
      addresses[i] = NetworkAddress.of(nodeIds[i], mdhs[i], offsets[i]);
    }
  }

  /** @return a mix of the unpacked fields (consumed by JMH) */
  @Benchmark
  public long primitive() {
    int i = next++ & MASK;
    long high = NetworkAddresses.high(nodeIds[i]);
    long low = NetworkAddresses.low(nodeIds[i], mdhs[i], offsets[i]);
    return NetworkAddresses.nodeId(high, low) ^ ((long) NetworkAddresses.mdh(low) << 20) ^ NetworkAddresses.offset(low);
  }

  /** @return a mix of the unpacked fields */
  @Benchmark
  public long primitiveEndpoint() {
    int i = next++ & MASK;
    int endpoint = NetworkAddresses.endpoint(nodeIds[i], mdhs[i]);
    return NetworkAddresses.nodeId(endpoint) ^ ((long) NetworkAddresses.mdh(endpoint) << 20);
  }

  /** @return a mix of the unpacked fields */
  @Benchmark
  public long record() {
    int i = next++ & MASK;
    NetworkAddress a = NetworkAddress.of(nodeIds[i], mdhs[i], offsets[i]);
    NetworkAddress b = NetworkAddress.fromLongs(a.highBits(), a.lowBits());
    return b.nodeId() ^ ((long) b.mdh() << 20) ^ b.offset();
  }

  /** @return a mix of the unpacked fields */
  @Benchmark
  public long recordWire() {
    NetworkAddress b = NetworkAddress.fromWire(addresses[next++ & MASK].toWire());
    return b.nodeId() ^ ((long) b.mdh() << 20) ^ b.offset();
  }
}
