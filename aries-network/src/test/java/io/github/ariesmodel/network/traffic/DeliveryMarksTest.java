package io.github.ariesmodel.network.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The traffic run's duplicate check: one table of chunks for all groups, each group's tags its own. */
class DeliveryMarksTest {

  private static final int CHUNK = 1 << TrafficExperiment.DeliveryMarks.CHUNK_BITS;

  @Test
  void aSecondDeliveryOfATagIsSeenAndOtherGroupsTagsAreTheirOwn() {
    TrafficExperiment.DeliveryMarks marks = new TrafficExperiment.DeliveryMarks(3, 3L * CHUNK);
    for (int g = 0; g < 3; g++) {
      for (int i = 0; i < CHUNK + 5; i++) {
        assertThat(marks.add(g)).isEqualTo(i);
      }
    }
    assertThat(marks.mark(1, 7)).isFalse();
    assertThat(marks.mark(1, 7)).as("delivered twice").isTrue();
    assertThat(marks.mark(0, 7)).as("group 0's tag 7 is another packet").isFalse();
    assertThat(marks.mark(2, 7)).isFalse();
    // across a chunk boundary
    assertThat(marks.mark(2, CHUNK)).isFalse();
    assertThat(marks.mark(2, CHUNK - 1)).isFalse();
    assertThat(marks.mark(2, CHUNK)).isTrue();
    assertThat(marks.mark(1, CHUNK)).isFalse();
  }

  @Test
  void moreTagsThanTheBoundFailWithTheBound() {
    TrafficExperiment.DeliveryMarks marks = new TrafficExperiment.DeliveryMarks(2, 10);
    for (int i = 0; i < CHUNK; i++) {
      marks.add(1);
    }
    assertThatThrownBy(() -> marks.add(1)).isInstanceOf(IllegalStateException.class)
        .hasMessage("more packets generated in a group than the bound " + CHUNK);
    assertThat(marks.add(0)).as("the other group is not affected").isZero();
  }
}
