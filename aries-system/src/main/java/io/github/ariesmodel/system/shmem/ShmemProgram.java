package io.github.ariesmodel.system.shmem;

/** The code every processing element of a {@link ShmemJob} runs, as ordinary sequential Java. */
@FunctionalInterface
public interface ShmemProgram {

  /**
   * Runs on one PE.
   *
   * @param shmem this PE's handle
   * @throws Exception anything; it ends the job's run
   */
  void run(Shmem shmem) throws Exception;
}
