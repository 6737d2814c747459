package io.github.ariesmodel.cli.validate;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A published Aries figure the model is calibrated against.
 *
 * @param id short identifier, e.g. {@code put8-nearest-latency}
 * @param description what is measured
 * @param value the published value
 * @param unit its unit (e.g. {@code ns}, {@code GB/s})
 * @param upperBound whether the published value is a bound ("less than") rather than a point value
 * @param source the source key and document (aries-facts.md)
 */
public record PublishedFigure(
    String id, String description, double value, String unit, boolean upperBound, String source) {

  /** Lowest model/published ratio accepted for a point value. */
  public static final double MIN_RATIO = 0.8;
  /** Highest model/published ratio accepted. */
  public static final double MAX_RATIO = 1.25;

  /** Validates the fields. */
  public PublishedFigure {
    checkArgument(id != null && !id.isBlank(), "id must not be blank");
    checkArgument(value > 0, "value must be > 0 but was %s", value);
  }

  /**
   * Whether a model value agrees: for a point value the ratio model/published lies in [0.8, 1.25]; for an upper
   * bound the model value is positive and at most the bound.
   *
   * @param model the model's value in the same unit
   * @return true when it agrees
   */
  public boolean accepts(double model) {
    double r = model / value;
    return upperBound ? model > 0 && r <= 1.0 : r >= MIN_RATIO && r <= MAX_RATIO;
  }
}
