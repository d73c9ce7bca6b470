/**
 * Result files read back and made sense of: combining runs, plateau bandwidths, crossovers, ratios and outliers,
 * pass/fail references, and comparisons of two runs. Rendering to Markdown, PNG and HTML is in {@code render}.
 */
package cctk.analysis;
