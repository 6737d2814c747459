package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.OsNoise;

/**
 * The {@code osNoise} parameter of the workloads that run simulated processes (SHMEM PEs, MPI ranks): the nodes'
 * operating-system noise ({@link OsNoise}, docs/mpi.md "Operating-system noise"). None by default, so a run without
 * it is as before. Noise is the nodes', so it is set on each system the workload builds.
 */
final class NoiseParam {

  static final String NAME = "osNoise";
  static final String HELP = "none: the nodes' operating-system noise, none or period=P,detour=D[,phase=aligned|random]"
      + " (durations with ps, ns, us or ms; OsNoise, docs/mpi.md; in a sweep, a spec in brackets)";

  private NoiseParam() {}

  /**
   * @return the noise the parameters give
   * @throws IllegalArgumentException naming the parameter ({@code osNoise must be ...}) and the value when the spec is
   *     malformed
   */
  static OsNoise read(Params params) {
    try {
      return OsNoise.parse(params.string(NAME, "none"));
    } catch (IllegalArgumentException e) {
      // OsNoise names its spec "noise"; the user typed osNoise, and a configuration file's refusals are located by the
      // parameter's name at the start (FILE: params.osNoise ...): this one was located at "(arguments)" (stop 73)
      String m = String.valueOf(e.getMessage());
      throw new IllegalArgumentException(m.startsWith("noise ") ? NAME + m.substring("noise".length())
          : NAME + " is refused: " + m, e);
    }
  }

  /** @return a system built to the spec with the nodes under this noise */
  static AriesSystem build(SystemSpec spec, OsNoise noise) {
    return spec.build(b -> b.osNoise(noise));
  }
}
