package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.nic.NicStatistics;
import io.github.ariesmodel.system.AriesSystem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A SHMEM get whose remote offset or length is not a multiple of 4 (stop 75). A GET reads whole 4-byte words of
 * remote memory, on FMA as on the BTE (uGNI answers GNI_RC_ALIGNMENT_ERROR [S5]), so the job reads the words that
 * hold the range, lands the words beyond it in a bounce slot of the PE's, and copies only the bytes asked into the
 * destination: its bytes outside the range never change. Until stop 75 the job posted such a GET as asked, and the
 * NIC model took it on FMA.
 */
class ShmemUnalignedGetTest {

  /** Bytes of the source object: not a multiple of 4, so a get of its last bytes reads its registration's padding. */
  private static final int SRC = 1001;
  private static final int DEST = 16384;
  private static final byte UNTOUCHED = (byte) 0xEE;

  private final AriesSystem sys = AriesSystem.builder().system("default").seed(1).build();
  private final ShmemJob job = ShmemJob.builder(sys).nodes(0, 1).build();
  private final Symmetric src = job.allocate(SRC);
  private final Symmetric dest = job.allocate(DEST);
  private final byte[] source = new byte[SRC];

  /** One get: from PE 1's {@code src} at {@code from}, {@code length} bytes, into PE 0's {@code dest} at {@code to}. */
  private record Get(long from, long length, long to, boolean nbi) {}

  ShmemUnalignedGetTest() {
    for (int i = 0; i < SRC; i++) {
      source[i] = (byte) (i * 7 + 1);
    }
    byte[] untouched = new byte[DEST];
    Arrays.fill(untouched, UNTOUCHED);
    job.run(pe -> {
      if (pe.myPe() == 1) {
        pe.localBytes(src, 0, source);
      } else {
        pe.localBytes(dest, 0, untouched);
      }
      pe.barrierAll();
    });
  }

  /** Runs the gets on PE 0 (PE 1 idles), then returns PE 0's whole destination object as a later run reads it. */
  private byte[] run(List<Get> gets, boolean quietAtTheEnd) {
    job.run(pe -> {
      if (pe.myPe() != 0) {
        return;
      }
      for (Get g : gets) {
        if (g.nbi()) {
          pe.getmemNbi(dest, g.to(), src, g.from(), g.length(), 1);
        } else {
          pe.getmem(dest, g.to(), src, g.from(), g.length(), 1);
        }
      }
      if (quietAtTheEnd) {
        pe.quiet();
      }
    });
    byte[][] seen = new byte[1][];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        seen[0] = pe.localBytes(dest, 0, DEST);
      }
    });
    return seen[0];
  }

  /** The destination as the gets should leave it: the bytes asked in place, every other byte untouched. */
  private byte[] expected(List<Get> gets) {
    byte[] e = new byte[DEST];
    Arrays.fill(e, UNTOUCHED);
    for (Get g : gets) {
      System.arraycopy(source, (int) g.from(), e, (int) g.to(), (int) g.length());
    }
    return e;
  }

  /** The bytes of the 4-byte words that hold each get's range: what its GETs read. */
  private static long words(List<Get> gets) {
    long n = 0;
    for (Get g : gets) {
      n += ((g.from() + g.length() + 3) & -4L) - (g.from() & -4L);
    }
    return n;
  }

  /** Gets at every offset within a word and lengths across the whole-into-the-slot limit, ends and object end. */
  private static List<Get> cases(boolean nbi) {
    long[][] fromAndLength = {
      {1, 1}, {3, 2}, {2, 5}, {0, 7}, {5, 59}, {5, 60}, {4, 61}, {5, 64}, {1, 126}, {4, 101}, {3, 97}, {2, 300},
      {998, 3}, {997, 4}, {1000, 1}, {1, 1000}, {0, 1001}, {999, 2},
    };
    List<Get> gets = new ArrayList<>();
    long to = nbi ? 8192 + 3 : 1;
    for (long[] c : fromAndLength) {
      gets.add(new Get(c[0], c[1], to, nbi));
      to += c[1] + 5; // a gap of untouched bytes after each
    }
    return gets;
  }

  @Test
  void blockingGetsLandTheBytesAskedAndLeaveEveryOtherDestinationByteAsItWas() {
    List<Get> gets = cases(false);
    NicStatistics before = sys.node(0).nic().statistics().snapshot();
    byte[] got = run(gets, false);
    assertThat(got).isEqualTo(expected(gets));
    assertThat(job.faults()).isZero();
    // the GETs read whole words: the bytes that came back are the words' (asked bytes alone until stop 75)
    long received = sys.node(0).nic().statistics().payloadBytesReceived() - before.payloadBytesReceived();
    assertThat(received).isEqualTo(words(gets));
    assertThat(received).isGreaterThan(gets.stream().mapToLong(Get::length).sum());
  }

  @Test
  void nonBlockingGetsLandAtQuietAndMoreThanTheBounceSlotsStillAllLand() {
    List<Get> gets = new ArrayList<>(cases(true));
    // three times the slots of 3-byte gets in flight at once: the PE settles its oldest to free a slot
    long to = 1;
    for (int k = 0; k < 3 * ShmemJob.BOUNCE_SLOTS; k++) {
      gets.add(new Get(1 + 13L * k % 990, 3, to, true));
      to += 8;
    }
    byte[] got = run(gets, true);
    assertThat(got).isEqualTo(expected(gets));
    assertThat(job.faults()).isZero();
  }

  @Test
  void nonBlockingGetsAProgramNeverWaitedForStillLandBeforeTheRunEnds() {
    List<Get> gets = cases(true);
    byte[] got = run(gets, false);
    assertThat(got).isEqualTo(expected(gets));
  }

  @Test
  void aFaultingUnalignedGetCopiesNothingAndIsOneFaultedOperation() {
    // PE 1's registration of src goes: every GET of the get faults at the target (INVALID_MDH)
    sys.node(1).nic().deregister(src.mdh(1));
    List<Get> gets = List.of(new Get(3, 300, 1, false), new Get(1, 2, 400, true));
    byte[] got = run(gets, true);
    byte[] untouched = new byte[DEST];
    Arrays.fill(untouched, UNTOUCHED);
    assertThat(got).isEqualTo(untouched);
    assertThat(job.faults()).as("a head, an interior and a tail GET are one operation").isEqualTo(2);
  }
}
