package io.github.ariesmodel.system.mpi;

/** The code every rank of an {@link MpiJob} runs, as ordinary sequential Java. */
@FunctionalInterface
public interface MpiProgram {

  /**
   * Runs on one rank.
   *
   * @param mpi this rank's handle
   * @throws Exception anything; it ends the job's run
   */
  void run(Mpi mpi) throws Exception;
}
