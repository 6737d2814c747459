package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.ariesmodel.system.AriesSystem;
import org.junit.jupiter.api.Test;

/**
 * Byte counts of the MPI layer near and past 2^31 (stop 76). A message is a region of a Java byte array, so no message
 * is longer than 2^31 - 1 bytes; but a GET of one rounds its length up to whole 4-byte words, and a gather's, scatter's
 * or allgather's whole buffer is a block times the ranks, and a reduction's data is its elements times 8 bytes: each
 * was computed in int arithmetic, which wrapped.
 */
class MpiLengthArithmeticTest {

  /** A GET moves whole 4-byte words: a message of 2^31 - 3 bytes (a Java array can hold it) moves 2^31. */
  @Test
  void aGetOfAMessageNear2GiBMovesItsWholeWordsWithoutWrapping() {
    assertThat(Rank.getLength(Integer.MAX_VALUE - 2)).isEqualTo(1L << 31);
    assertThat(Rank.getLength(Integer.MAX_VALUE)).isEqualTo(1L << 31);
    assertThat(Rank.getLength(Integer.MAX_VALUE - 3)).isEqualTo(Integer.MAX_VALUE - 3L);
    assertThat(Rank.getLength(5)).isEqualTo(8);
    assertThat(Rank.getLength(0)).isZero();
  }

  /**
   * 128 ranks gathering, scattering and allgathering blocks of 16 MiB need a buffer of 2^31 bytes, which no Java
   * array holds: refused in one line that names that size (it read -2147483648 bytes).
   */
  @Test
  void aCollectiveWhoseWholeBufferPasses2GiBIsRefusedNamingItsSize() {
    AriesSystem sys = MpiTesting.smallSystem(1);
    byte[] block = new byte[1 << 24]; // shared by every rank: only the root's check runs before the run fails
    byte[] small = new byte[64];
    String[] calls = {"gather", "scatter", "allgather"};
    for (String call : calls) {
      Throwable t = catchThrowable(() -> MpiTesting.job(sys, 128, MpiConfig.defaults()).run(m -> {
        if (m.rank() == 0) {
          switch (call) {
            case "gather" -> m.gather(block, small, 0, m.world());
            case "scatter" -> m.scatter(small, block, 0, m.world());
            default -> m.allgather(block, small, m.world());
          }
        }
      }));
      assertThat(t).as(call).isNotNull();
      Throwable cause = t.getCause() != null ? t.getCause() : t;
      assertThat(cause).as(call).isInstanceOf(IllegalArgumentException.class);
      String buffer = call.equals("scatter") ? "send" : "recv";
      assertThat(cause.getMessage()).as(call).isEqualTo(buffer + " must have size x block = 2147483648 bytes"
          + (call.equals("allgather") ? "" : " at the root") + " but had 64");
    }
  }

  /**
   * 256 ranks of 16 MiB blocks make 2^32 bytes, which wrapped to 0 in int: an empty recv passed the check and the root
   * failed with an ArrayIndexOutOfBoundsException out of its copy.
   */
  @Test
  void aGatherWhoseWholeBufferWrapsTo0IsRefusedNotCopiedOutOfBounds() {
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).build();
    int[] nodes = new int[128];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = i;
    }
    byte[] block = new byte[1 << 24];
    Throwable t = catchThrowable(() -> MpiJob.builder(sys).nodes(nodes).ranksPerNode(2).build().run(m -> {
      if (m.rank() == 0) {
        m.gather(block, new byte[0], 0, m.world());
      }
    }));
    assertThat(t).isNotNull();
    assertThat(t.getCause()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("recv must have size x block = 4294967296 bytes at the root but had 0");
  }

  /**
   * A reduction's or accumulate's elements are carried as one byte array of 8 bytes each: 2^28 elements made -2^31
   * bytes (a long[] of them is 2 GiB: a probe with one failed with "NegativeArraySizeException: -2147483648"; the
   * check that refuses them is tested here on its own, and runs first in every reduction and accumulate).
   */
  @Test
  void moreElementsThanOneByteArrayHoldsAreRefusedInOneLine() {
    assertThat(ElementType.MAX_COUNT).isEqualTo((1 << 28) - 1);
    ElementType.checkCount("send", ElementType.MAX_COUNT);
    assertThat(catchThrowable(() -> ElementType.checkCount("send", 1 << 28)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("send must have at most 268435455 elements (the model carries their 8 bytes each in one Java"
            + " byte array, of at most 2^31 - 1 bytes) but had 268435456");
  }
}
