package io.github.ariesmodel.system.process;

/** The code of one simulated process: ordinary Java that blocks only through its {@link SimProcess}. */
@FunctionalInterface
public interface ProcessBody {

  /**
   * Runs the process.
   *
   * @param self the process, through which the code waits, sleeps and reads the clock
   * @throws Exception anything the code throws; it ends the simulation run with the exception
   */
  void run(SimProcess self) throws Exception;
}
