/**
 * The inputs of {@code cctk report} and {@code cctk compare} read into one {@link cctk.results.ResultSet}
 * ({@link cctk.results.inputs.ResultReader}): files and directories searched, each file's format recognised (cctk's
 * CSV and JSON, nccl-tests' text and JSON) and read by its reader, within limits, every bad input one problem.
 */
package cctk.results.inputs;
