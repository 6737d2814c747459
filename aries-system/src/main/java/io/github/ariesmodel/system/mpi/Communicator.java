package io.github.ariesmodel.system.mpi;

import java.util.Arrays;

/**
 * A group of ranks with its own message space ({@code MPI_Comm}), as one rank sees it: its rank in the group, the
 * group's size and the world rank of each member. Point-to-point messages and collectives on a communicator never
 * match those of another (each communicator has a context id for point-to-point and one for collectives, as in
 * MPICH). Create new ones with {@link Mpi#split} and {@link Mpi#dup}.
 */
public final class Communicator {

  private final int context;
  private final int[] worldRanks;
  private final int rank;
  private int created;

  Communicator(int context, int[] worldRanks, int rank) {
    this.context = context;
    this.worldRanks = worldRanks;
    this.rank = rank;
  }

  /** @return the calling rank's index in this communicator */
  public int rank() {
    return rank;
  }

  /** @return the number of ranks */
  public int size() {
    return worldRanks.length;
  }

  /**
   * The world rank of a member.
   *
   * @param r 0 to size - 1
   * @return its rank in the world communicator
   */
  public int worldRank(int r) {
    if (r < 0 || r >= worldRanks.length) {
      throw new IllegalArgumentException("rank must be in [0, " + (worldRanks.length - 1) + "] but was " + r);
    }
    return worldRanks[r];
  }

  /** @return the context id of point-to-point traffic (collectives use the next one) */
  int context() {
    return context;
  }

  int collectiveContext() {
    return context + 1;
  }

  /** @return a number that counts communicator creations on this communicator by this rank, from 0 */
  int nextCreation() {
    return created++;
  }

  int rankOfWorld(int world) {
    for (int i = 0; i < worldRanks.length; i++) {
      if (worldRanks[i] == world) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    return "Communicator[context " + context + ", rank " + rank + " of " + worldRanks.length + ", world "
        + Arrays.toString(worldRanks.length <= 8 ? worldRanks : Arrays.copyOf(worldRanks, 8)) + "]";
  }
}
