package io.github.ariesmodel.system.mpi;

/**
 * What a completed receive or a probe reports ({@code MPI_Status}).
 *
 * @param source the sender's rank in the communicator
 * @param tag the message's tag
 * @param count the message's length, bytes
 */
public record MpiStatus(int source, int tag, int count) {}
