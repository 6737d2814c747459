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
 * @param source the source key and document (aries-facts.md, docs/calibration-sources.md row)
 * @param lowRatio lowest model/published ratio accepted (for an upper bound: a lower bound's multiple, 0 for none)
 * @param highRatio highest model/published ratio accepted (for an upper bound: the bound's multiple)
 */
public record PublishedFigure(String id, String description, double value, String unit, boolean upperBound,
    String source, double lowRatio, double highRatio) {

  /** Lowest model/published ratio accepted for a point value. */
  public static final double MIN_RATIO = 0.8;
  /** Highest model/published ratio accepted. */
  public static final double MAX_RATIO = 1.25;

  /**
   * Lowest model/published ratio accepted for a row that reads a setting back ({@link #readBack}): the setting is the
   * published figure itself, so the row can differ from it only by the measurement's own losses and the figure's
   * rounding (10.2 for the NIC's 10.24 GB/s, 0.4 %; the stop-76 model gives 0.999-1.003), and a setting more than 2 %
   * from the figure fails (docs/validation.md, "Read-back rows: a band of 0.98-1.02").
   */
  public static final double READ_BACK_LOW = 0.98;
  /** Highest model/published ratio accepted for a row that reads a setting back (see {@link #READ_BACK_LOW}). */
  public static final double READ_BACK_HIGH = 1.02;

  /** Unit of a shape row: the model value is 1 when the ordering or interval holds, 0 when not. */
  public static final String SHAPE = "shape";

  /**
   * A figure with the default band [0.8, 1.25] (an upper bound: positive and at most the bound, no lower bound).
   *
   * @param id short identifier
   * @param description what is measured
   * @param value the published value
   * @param unit its unit
   * @param upperBound whether the value is a bound
   * @param source the source
   */
  public PublishedFigure(String id, String description, double value, String unit, boolean upperBound,
      String source) {
    this(id, description, value, unit, upperBound, source, upperBound ? 0 : MIN_RATIO, upperBound ? 1.0 : MAX_RATIO);
  }

  /**
   * A shape row: holds (model 1) or not (model 0).
   *
   * @param id short identifier
   * @param description the ordering or interval checked
   * @param source the source
   * @return the figure
   */
  public static PublishedFigure shape(String id, String description, String source) {
    return new PublishedFigure(id, description, 1, SHAPE, false, source, 1, 1);
  }

  /**
   * A row that reads a setting back: the model was given the published figure itself (a link's rate, the NIC's
   * packet rate, the FMA store rate), and the row measures it through the model, so its band is {@link #READ_BACK_LOW}
   * to {@link #READ_BACK_HIGH}, not the default band, which accepted a setting 25 % off (the optical link given the
   * electrical rate passed at 1.116 until stop 76).
   *
   * @param id short identifier
   * @param description what is measured
   * @param value the published value, which the setting is
   * @param unit its unit
   * @param source the source
   * @return the figure
   */
  public static PublishedFigure readBack(String id, String description, double value, String unit, String source) {
    return new PublishedFigure(id, description, value, unit, false, source, READ_BACK_LOW, READ_BACK_HIGH);
  }

  /** Validates the fields. */
  public PublishedFigure {
    checkArgument(id != null && !id.isBlank(), "id must not be blank");
    checkArgument(value > 0, "value must be > 0 but was %s", value);
    checkArgument(lowRatio >= 0 && lowRatio <= highRatio, "lowRatio must be in [0, highRatio] but was %s", lowRatio);
  }

  /**
   * @return the accepted band as {@code validate} prints it: {@code holds} for a shape, {@code <= x} for an upper bound
   *     with no lower one, else the interval of model/published ratios, {@code low-high}, to two decimals
   */
  public String band() {
    if (unit.equals(SHAPE)) {
      return "holds";
    }
    return upperBound && lowRatio == 0 ? String.format(java.util.Locale.ROOT, "<= %.2f", highRatio)
        : String.format(java.util.Locale.ROOT, "%.2f-%.2f", lowRatio, highRatio);
  }

  /**
   * Whether a model value agrees: for a point value the ratio model/published lies in [lowRatio, highRatio]; for
   * an upper bound the model value is positive, at least lowRatio × the bound and at most highRatio × the bound.
   *
   * @param model the model's value in the same unit
   * @return true when it agrees
   */
  public boolean accepts(double model) {
    double r = model / value;
    return upperBound ? model > 0 && r >= lowRatio && r <= highRatio : r >= lowRatio && r <= highRatio;
  }
}
