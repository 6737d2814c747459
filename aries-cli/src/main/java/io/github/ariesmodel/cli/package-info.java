/**
 * The {@code aries} command-line application ({@link io.github.ariesmodel.cli.AriesCli} is its entry point and its
 * only public type here). Subpackages: {@code workload} (the jobs of {@code aries run}), {@code system} (how a run
 * describes the system it builds), {@code config} (JSON/YAML run files), {@code report} (results, CSV, plots, HTML),
 * {@code sweep} (parameter sweeps and their merge), {@code validate} (the model against published figures).
 *
 * <p>Types are public only where the application's own packages share them; this is an application, not an API.
 * A program that wants to simulate an Aries system imports aries-system.
 */
package io.github.ariesmodel.cli;
