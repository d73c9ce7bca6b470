/**
 * Result files, both ways: the record of a run ({@link cctk.results.Run}) and of each measurement
 * ({@link cctk.results.Result}), their one schema ({@link cctk.results.Column}), the profile text, CSV and JSON a
 * run writes and a report reads back, the one number formatter, and references judged on measurements.
 */
package cctk.results;
