package io.github.ariesmodel.system.mpi;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * What {@link Mpi#testany} reports: MPI_Testany's {@code flag} and {@code index} (MPI 3.1 §3.7.5). A completed request
 * gives flag true and its index; none completed yet, flag false and {@link Mpi#UNDEFINED}; no active request in the
 * array (every entry null, {@code MPI_REQUEST_NULL}), flag true and {@link Mpi#UNDEFINED}, at once. A polling loop ends
 * on the flag ({@code while (!mpi.testany(rs).flag())}), which a loop on the index alone cannot: with every entry null
 * it would never end.
 *
 * @param flag whether the call is done: a request completed, or none was active
 * @param index the completed request's index in the array, or {@link Mpi#UNDEFINED}
 */
public record TestanyResult(boolean flag, int index) {

  /** Flag false: no request has completed yet ({@code index} {@link Mpi#UNDEFINED}). */
  public static final TestanyResult NONE_COMPLETED = new TestanyResult(false, Mpi.UNDEFINED);

  /** Flag true with {@code index} {@link Mpi#UNDEFINED}: the array held no active request. */
  public static final TestanyResult NO_ACTIVE_REQUEST = new TestanyResult(true, Mpi.UNDEFINED);

  /**
   * @throws IllegalArgumentException when {@code index} is below {@link Mpi#UNDEFINED}, or a flag of false has an index
   */
  public TestanyResult {
    checkArgument(index >= Mpi.UNDEFINED, "index must be >= %s (UNDEFINED) but was %s", Mpi.UNDEFINED, index);
    checkArgument(flag || index == Mpi.UNDEFINED, "index must be UNDEFINED (%s) with flag false but was %s",
        Mpi.UNDEFINED, index);
  }

  /**
   * @param index the completed request's index, ≥ 0
   * @return flag true with that index
   */
  public static TestanyResult completed(int index) {
    checkArgument(index >= 0, "index must be >= 0 but was %s", index);
    return new TestanyResult(true, index);
  }
}
