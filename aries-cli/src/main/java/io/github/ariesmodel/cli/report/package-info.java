/**
 * Results of simulator jobs and the ways they leave the process: one results model ({@link
 * io.github.ariesmodel.cli.report.Results}), its JSON and CSV forms ({@link io.github.ariesmodel.cli.report.ResultsJson},
 * {@link io.github.ariesmodel.cli.report.ResultsCsv}; schema in {@code docs/results-schema.md}), PNG plots ({@link
 * io.github.ariesmodel.cli.report.Plots}) and a self-contained HTML report ({@link
 * io.github.ariesmodel.cli.report.HtmlReport}).
 *
 * <p>Everything here is pure Java and independent of the hardware models: a job fills a {@link
 * io.github.ariesmodel.cli.report.Results} and hands it over.
 */
package io.github.ariesmodel.cli.report;
