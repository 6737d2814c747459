/**
 * The aries-system library: a whole simulated Aries system ({@link io.github.ariesmodel.system.AriesSystem}, built
 * from a {@link io.github.ariesmodel.system.SystemPreset} or a topology spec) composed of the real NIC, IOMMU and
 * router-fabric models, with its {@link io.github.ariesmodel.system.Node}s built on first use.
 *
 * <p>Subpackages: {@code process} runs ordinary Java code as simulated processes in simulated time; {@code shmem} is
 * the SHMEM-like programming model over the NICs; {@code mpi} the MPI-like one (point-to-point protocols,
 * collectives, one-sided windows); {@code replay} replays DUMPI and SimGrid traces through {@code mpi}; {@code trace}
 * records packets' journeys.
 *
 * <p>This module depends on the hardware modules, aries-traces (the trace readers) and Guava only: no CLI, JSON or
 * charting library reaches a user who imports it. The command-line application built on it is aries-cli.
 */
package io.github.ariesmodel.system;
