package io.github.ariesmodel.cli.report;

/** How a numeric plot axis maps values to positions. */
public enum Scale {
  /** Evenly spaced values. */
  LINEAR,
  /** Powers of two evenly spaced (message sizes); values must be positive. */
  LOG2,
  /** Powers of ten evenly spaced; values must be positive. */
  LOG10
}
