/**
 * {@code cctk report} and {@code cctk compare}: result sets made sense of (plateau bandwidths, crossovers, ratios,
 * outliers, comparisons of two runs) and written as a combined CSV, Markdown tables, text analysis, PNG plots
 * (XChart, headless) and one HTML page.
 */
package cctk.report;
