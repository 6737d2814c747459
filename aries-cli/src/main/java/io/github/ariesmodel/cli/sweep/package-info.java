/**
 * Parameter sweeps: a {@link io.github.ariesmodel.cli.sweep.SweepSpec} enumerates points (the cartesian product of
 * named parameter lists), a {@link io.github.ariesmodel.cli.sweep.Shard} picks the points of one batch job, a {@link
 * io.github.ariesmodel.cli.sweep.SweepRunner} runs a job for each and writes {@code point-<index>.json}, and {@link
 * io.github.ariesmodel.cli.sweep.SweepMerge} combines the point files of all shards into one results file. Jobs are
 * looked up by name in {@link io.github.ariesmodel.cli.sweep.SweepJobs}.
 */
package io.github.ariesmodel.cli.sweep;
