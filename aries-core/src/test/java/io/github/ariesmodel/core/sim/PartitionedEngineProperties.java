package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The partitioned engine gives the same results for every thread count, and they are those of a plain reference
 * that runs events in (time, scheduling group, that group's counter) order, over random model sizes, lookaheads and
 * seeds (the synthetic {@link ToyGroupModel}).
 */
class PartitionedEngineProperties {

  @Test
  void everyThreadCountAgreesWithTheReference() {
    qt().withExamples(40)
        .forAll(integers().between(1, 6), longs().between(1, 120), integers().between(1, 3),
            longs().between(0, 1_000_000))
        .checkAssert((groups, lookahead, tokens, seed) -> {
          ToyGroupModel.Reference ref = new ToyGroupModel.Reference(groups, lookahead, 3_000, seed);
          ref.model.start(tokens);
          long events = ref.run();
          List<Long> expected = ref.model.outcome();
          for (int threads = 1; threads <= Math.min(3, groups); threads++) {
            try (PartitionedEngine engine = PartitionedEngine.of(groups, lookahead, threads)) {
              ToyGroupModel model = ToyGroupModel.onEngine(engine, 3_000, seed);
              model.start(tokens);
              engine.runUntil(Long.MAX_VALUE);
              assertThat(model.outcome()).as("%d threads", threads).isEqualTo(expected);
              assertThat(engine.eventsExecuted()).isEqualTo(events);
              assertThat(engine.pending()).isZero();
            }
          }
        });
  }
}
