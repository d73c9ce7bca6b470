/** A report's files: combined CSV, Markdown tables, text analysis, PNG plots (XChart, headless) and one HTML page. */
package cctk.analysis.render;
