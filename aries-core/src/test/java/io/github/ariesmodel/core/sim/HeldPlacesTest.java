package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Places held until known times, freed lazily in the order taken, across the ring's wrap. */
class HeldPlacesTest {

  @Test
  void placesAreFreedAtTheirTimesInTheOrderTaken() {
    HeldPlaces p = new HeldPlaces(3);
    assertThat(p.capacity()).isEqualTo(3);
    assertThat(p.held(0)).isZero();
    assertThat(p.nextFree()).isEqualTo(Long.MAX_VALUE);
    p.take(10);
    p.take(20);
    p.take(20);
    assertThat(p.held(9)).isEqualTo(3);
    assertThat(p.nextFree()).isEqualTo(10);
    assertThat(p.held(10)).as("a place whose time is now is free").isEqualTo(2);
    p.take(35); // wraps round the ring
    assertThat(p.held(19)).isEqualTo(3);
    assertThat(p.held(20)).isEqualTo(1);
    assertThat(p.nextFree()).isEqualTo(35);
    assertThat(p.held(100)).isZero();
    assertThat(p.nextFree()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void takingWhenAllAreHeldAndABadCapacityAreRefused() {
    HeldPlaces p = new HeldPlaces(1);
    p.take(5);
    assertThatThrownBy(() -> p.take(6)).isInstanceOf(IllegalStateException.class).hasMessageContaining("all 1");
    assertThat(p.held(4)).as("the refused take changed nothing").isEqualTo(1);
    // (it was an OutOfMemoryError)
    assertThatThrownBy(() -> new HeldPlaces(Integer.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("capacity must be in [1, 65536] but was " + Integer.MAX_VALUE);
    assertThatThrownBy(() -> new HeldPlaces(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("capacity must be in [1, 65536] but was 0");
    assertThat(new HeldPlaces(HeldPlaces.MAX_CAPACITY).capacity()).isEqualTo(65536);
  }
}
