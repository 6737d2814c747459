package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** AMO results agree with plain Java arithmetic, for every operation and width, directly and through the NIC. */
class AmoArithmeticProperties {

  private static final AmoOperation[] ALL = AmoOperation.all();

  /** Operands biased toward edges: 0, ±1, MIN/MAX of both widths, FP specials, and uniform values. */
  private static Gen<Long> operand() {
    long[] edges = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE, 0xFFFF_FFFFL,
        Double.doubleToRawLongBits(Double.NaN), Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(1.5),
        Double.doubleToRawLongBits(Double.POSITIVE_INFINITY), Float.floatToRawIntBits(-0.0f),
        Float.floatToRawIntBits(2.25f), Float.floatToRawIntBits(Float.NaN)};
    return integers().between(0, edges.length * 2).zip(longs().all(), (i, l) -> i < edges.length ? edges[i] : l);
  }

  private static final long CANONICAL_NAN = 0x7ff8_0000_0000_0000L;
  private static final int CANONICAL_NAN32 = 0x7fc0_0000;

  private static long canonical(long bits) {
    return Double.isNaN(Double.longBitsToDouble(bits)) ? CANONICAL_NAN : bits;
  }

  /** The reference: written independently of {@link AmoArithmetic}, per width. */
  static long reference(AmoOperation op, long old, long a, long b) {
    if (op.widthBits() == 64) {
      double dOld = Double.longBitsToDouble(old);
      double dA = Double.longBitsToDouble(a);
      return switch (op.kind()) {
        case ADD, IADD -> BigInteger.valueOf(old).add(BigInteger.valueOf(a)).longValue();
        case AND -> old & a;
        case OR -> old | a;
        case XOR -> old ^ a;
        case SWAP -> a;
        case AND_XOR -> (old & a) ^ b;
        case CSWAP -> old == a ? b : old;
        case IMIN -> old <= a ? old : a;
        case IMAX -> old >= a ? old : a;
        case FPADD -> canonical(Double.doubleToRawLongBits(dOld + dA));
        case FPMIN -> Double.isNaN(dOld) || Double.isNaN(dA) ? CANONICAL_NAN
            : Double.doubleToRawLongBits(dOld < dA || (dOld == dA && (old < 0)) ? dOld : dA);
        case FPMAX -> Double.isNaN(dOld) || Double.isNaN(dA) ? CANONICAL_NAN
            : Double.doubleToRawLongBits(dOld > dA || (dOld == dA && (old >= 0)) ? dOld : dA);
      };
    }
    int o = (int) old;
    int x = (int) a;
    int y = (int) b;
    float fo = Float.intBitsToFloat(o);
    float fx = Float.intBitsToFloat(x);
    int r = switch (op.kind()) {
      case ADD, IADD -> (int) ((long) o + (long) x);
      case AND -> o & x;
      case OR -> o | x;
      case XOR -> o ^ x;
      case SWAP -> x;
      case AND_XOR -> (o & x) ^ y;
      case CSWAP -> o == x ? y : o;
      case IMIN -> o <= x ? o : x;
      case IMAX -> o >= x ? o : x;
      case FPADD -> Float.isNaN(fo + fx) ? CANONICAL_NAN32 : Float.floatToRawIntBits(fo + fx);
      case FPMIN -> Float.isNaN(fo) || Float.isNaN(fx) ? CANONICAL_NAN32
          : Float.floatToRawIntBits(fo < fx || (fo == fx && o < 0) ? fo : fx);
      case FPMAX -> Float.isNaN(fo) || Float.isNaN(fx) ? CANONICAL_NAN32
          : Float.floatToRawIntBits(fo > fx || (fo == fx && o >= 0) ? fo : fx);
    };
    return r & 0xFFFF_FFFFL;
  }

  @Test
  void everyOperationAgreesWithJavaArithmetic() {
    qt().withExamples(5000)
        .forAll(integers().between(0, ALL.length - 1), operand(), operand(), operand())
        .check((i, old, a, b) -> AmoArithmetic.apply(ALL[i], old, a, b) == reference(ALL[i], old, a, b));
  }

  @Test
  void signedMinMaxAndWraparoundEdges() {
    assertThat(AmoArithmetic.apply(AmoOperation.parse("FIADD"), Long.MAX_VALUE, 1, 0)).isEqualTo(Long.MIN_VALUE);
    assertThat(AmoArithmetic.apply(AmoOperation.parse("FIADD_S"), 0x7FFF_FFFFL, 1, 0)).isEqualTo(0x8000_0000L);
    assertThat(AmoArithmetic.apply(AmoOperation.parse("IMIN"), -1, 1, 0)).isEqualTo(-1);
    assertThat(AmoArithmetic.apply(AmoOperation.parse("IMAX_S"), 0xFFFF_FFFFL, 1, 0)).isEqualTo(1);
    assertThat(AmoArithmetic.apply(AmoOperation.parse("FCSWAP"), 5, 5, 9)).isEqualTo(9);
    assertThat(AmoArithmetic.apply(AmoOperation.parse("FCSWAP"), 5, 4, 9)).isEqualTo(5);
    assertThat(AmoArithmetic.apply(AmoOperation.parse("AX"), 0b1100, 0b1010, 0b0001)).isEqualTo(0b1001);
    assertThat(Double.longBitsToDouble(AmoArithmetic.apply(AmoOperation.parse("FPADD"),
        Double.doubleToRawLongBits(0.1), Double.doubleToRawLongBits(0.2), 0))).isEqualTo(0.1 + 0.2);
  }

  /** Through the NIC: memory after = reference(old), the fetched value = old, for random ops and operands. */
  @Test
  void amosThroughTheNicMatchTheReference() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor local = c.register(0, 4096);
    MemoryDomainDescriptor target = c.register(1, 4096);
    long[] postId = {0};
    qt().withExamples(400)
        .forAll(integers().between(0, ALL.length - 1), operand(), operand(), operand())
        .check((i, old, a, b) -> {
          AmoOperation op = ALL[i];
          long offset = 8L * (i % 16) + (op.widthBits() == 32 && (old & 1) == 1 ? 4 : 0);
          byte[] before = c.read(1, target.mdh(), offset, op.operandBytes());
          long oldWord = op.widthBits() == 64 ? old : old & 0xFFFF_FFFFL;
          c.write(1, target.mdh(), offset, le(oldWord, op.operandBytes()));
          c.events.clear();
          long id = postId[0]++;
          c.nics[0].post(Post.amo(id, op, NetworkAddress.of(1, target.mdh(), offset), a, b)
              .withResultBuffer(local.mdh(), 64));
          c.run();
          long expected = reference(op, oldWord, a, b);
          byte[] after = c.read(1, target.mdh(), offset, op.operandBytes());
          boolean ok = java.util.Arrays.equals(after, le(expected, op.operandBytes()))
              && c.events.size() == 1 && !c.events.get(0).isError() && c.events.get(0).postId() == id;
          if (op.fetching()) {
            ok &= c.events.get(0).userData() == oldWord
                && java.util.Arrays.equals(c.read(0, local.mdh(), 64, op.operandBytes()), le(oldWord, op.operandBytes()));
          }
          return ok && before.length == op.operandBytes();
        });
  }

  @Test
  void concurrentFetchAddsFromManyNodesSumExactly() {
    int nodes = 17;
    int perNode = 40;
    Cluster c = new Cluster(nodes, NicConfig.defaults());
    MemoryDomainDescriptor target = c.register(0, 4096);
    java.util.SplittableRandom r = new java.util.SplittableRandom(11);
    long sum = 0;
    AmoOperation faddq = AmoOperation.parse("FADD");
    AmoOperation fiadds = AmoOperation.parse("FIADD_S");
    long sum32 = 0;
    for (int n = 1; n < nodes; n++) {
      for (int k = 0; k < perNode; k++) {
        long v = r.nextLong(1, 1L << 40);
        int v32 = r.nextInt();
        sum += v;
        sum32 += v32;
        c.nics[n].post(Post.amo(k, faddq, NetworkAddress.of(0, target.mdh(), 0), v, 0));
        c.nics[n].post(Post.amo(1000 + k, fiadds, NetworkAddress.of(0, target.mdh(), 12), v32, 0));
      }
    }
    c.run();
    assertThat(c.readLong(0, target.mdh(), 0)).isEqualTo(sum);
    assertThat(c.readLong(0, target.mdh(), 8) >>> 32).isEqualTo(sum32 & 0xFFFF_FFFFL);
    // Each fetched value is a distinct prefix of the serialized sum: the adds were atomic.
    long[] fetched64 = c.events.stream().filter(e -> e.postId() < 1000).mapToLong(e -> e.userData()).sorted().toArray();
    assertThat(fetched64).hasSize((nodes - 1) * perNode).doesNotHaveDuplicates();
    assertThat(fetched64[0]).isZero();
    assertThat(c.nics[0].statistics().amosExecuted()).isEqualTo(2L * (nodes - 1) * perNode);
  }

  private static byte[] le(long v, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }
}
