/**
 * nccl-tests' output as cctk's results: its text (the table of each collective) and its JSON read into
 * {@link cctk.results.Result}s ({@link cctk.results.nccltests.NcclTestsText},
 * {@link cctk.results.nccltests.NcclTestsJson}), cctk's runs written in its text layout
 * ({@link cctk.results.nccltests.NcclTestsWriter}), and its names for types, operators and collectives mapped to
 * cctk's ({@link cctk.results.nccltests.NcclTests}).
 */
package cctk.results.nccltests;
