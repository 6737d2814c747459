package io.github.ariesmodel.cli.sweep;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One point of a sweep: its index and its parameter values, in the sweep's parameter order.
 *
 * @param index position in the sweep's enumeration order
 * @param parameters parameter name to value
 */
public record SweepPoint(int index, Map<String, String> parameters) {

  /** Freezes the parameters, keeping their order. */
  public SweepPoint {
    parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
  }
}
