package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** {@code barrierAll} on the collective engine: it still orders every PE's puts before every read after it. */
class ShmemCollectiveEngineTest {

  private static AriesSystem system() {
    return AriesSystem.builder().topology(Topologies.ariesSmall(), "small").seed(2).build();
  }

  /**
   * Each PE puts its index into the next PE's word, in several rounds separated by barriers, one PE late each round;
   * what each PE read.
   */
  private static ConcurrentHashMap<Integer, Long> ring(ShmemJob job, int rounds) {
    Symmetric word = job.allocate(8L * rounds);
    ConcurrentHashMap<Integer, Long> seen = new ConcurrentHashMap<>();
    job.run(pe -> {
      int n = pe.nPes();
      long sum = 0;
      for (int r = 0; r < rounds; r++) {
        if (pe.myPe() == (r * 3) % n) {
          pe.compute(20_000_000); // 20 µs late: only a barrier that waits for it lets the next PE read its put
        }
        pe.putLong(word, 8L * r, pe.myPe() * 100L + r, (pe.myPe() + 1) % n);
        pe.barrierAll();
        sum += pe.localLong(word, 8L * r);
      }
      seen.put(pe.myPe(), sum);
    });
    return seen;
  }

  @Test
  void aBarrierOnTheEngineOrdersPutsAsTheSoftwareBarrierDoes() {
    int[] nodes = {0, 7, 13, 22, 31, 40, 58, 77, 90};
    ConcurrentHashMap<Integer, Long> soft = ring(ShmemJob.builder(system()).nodes(nodes).build(), 5);
    AriesSystem sys = system();
    ConcurrentHashMap<Integer, Long> ce = ring(ShmemJob.builder(sys).nodes(nodes).collectiveEngine(2).build(), 5);
    assertThat(ce).isEqualTo(soft);
    assertThat(ce.get(0)).isEqualTo(5 * 800L + 10); // from PE 8: 800 + r, r = 0..4
    long reductions = 0;
    for (int node : nodes) {
      reductions += sys.node(node).nic().statistics().collectiveReductions();
      assertThat(sys.node(node).nic().statistics().collectiveFaults()).isZero();
    }
    assertThat(reductions).isEqualTo(5);
  }

  @Test
  void aFifthJobOnANodeIsRefusedBeforeItTakesAnything() {
    AriesSystem sys = system();
    for (int i = 0; i < 4; i++) {
      ShmemJob.builder(sys).nodes(0, 1).collectiveEngine(2).build();
    }
    var iommu = sys.node(3).iommu().orElseThrow();
    java.util.function.LongSupplier valid = () -> java.util.stream.IntStream.range(0, 4096)
        .filter(m -> iommu.descriptor(m).map(d -> d.valid()).orElse(false)).count();
    assertThatThrownBy(() -> ShmemJob.builder(sys).nodes(3, 1).collectiveEngine(2).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("ShmemJob could not set up collectiveEngine: node 1 has no free collective-engine"
            + " channel: all 4 are in use");
    // node 3 keeps nothing: the channels are taken before any queue or registration
    assertThat(valid.getAsLong()).isZero();
    assertThat(sys.node(3).nic().completionQueue(0)).isNull();
    assertThat(sys.node(3).nic().createCollectiveChannel()).isZero();
  }

  @Test
  void aBadRadixIsRefusedInOneLine() {
    assertThatThrownBy(() -> ShmemJob.builder(system()).collectiveEngine(0))
        .hasMessage("collectiveEngine radix must be in [1, 31] but was 0");
  }
}
