package io.github.ariesmodel.system.mpi;

/**
 * A predefined MPI reduction operation ({@code MPI_SUM}, {@code MPI_PROD}, ...). Every one here is commutative and
 * associative on integers, so every algorithm gives the same {@code long} result; on {@code double} values the
 * result may differ in the last bits between algorithms (as with real MPI), except on values whose sums are exact.
 */
public enum ReduceOp {
  /** Sum ({@code MPI_SUM}). */
  SUM,
  /** Product ({@code MPI_PROD}). */
  PROD,
  /** Minimum ({@code MPI_MIN}). */
  MIN,
  /** Maximum ({@code MPI_MAX}). */
  MAX,
  /** Bitwise and ({@code MPI_BAND}); longs only. */
  BAND,
  /** Bitwise or ({@code MPI_BOR}); longs only. */
  BOR,
  /** Bitwise exclusive or ({@code MPI_BXOR}); longs only. */
  BXOR;

  /**
   * Combines two longs.
   *
   * @param a one operand
   * @param b the other
   * @return a op b
   */
  public long apply(long a, long b) {
    return switch (this) {
      case SUM -> a + b;
      case PROD -> a * b;
      case MIN -> Math.min(a, b);
      case MAX -> Math.max(a, b);
      case BAND -> a & b;
      case BOR -> a | b;
      case BXOR -> a ^ b;
    };
  }

  /**
   * Combines two doubles.
   *
   * @param a one operand
   * @param b the other
   * @return a op b
   * @throws IllegalArgumentException for the bitwise operations, which MPI defines on integers only
   */
  public double apply(double a, double b) {
    return switch (this) {
      case SUM -> a + b;
      case PROD -> a * b;
      case MIN -> Math.min(a, b);
      case MAX -> Math.max(a, b);
      default -> throw new IllegalArgumentException("op must be SUM, PROD, MIN or MAX for doubles but was " + this);
    };
  }

  /** @return whether the operation is defined on doubles */
  public boolean definedOnDoubles() {
    return this == SUM || this == PROD || this == MIN || this == MAX;
  }
}
