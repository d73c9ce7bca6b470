/**
 * Result files, both ways, in cctk's own formats: the record of a run ({@link cctk.results.Run}) and of each
 * measurement ({@link cctk.results.Result}), their one schema ({@link cctk.results.Column}) and the checks on its
 * values, the references a run carries ({@link cctk.results.Reference}), the profile text, CSV and JSON a run writes
 * ({@link cctk.results.ResultFiles}) and their readers, and the one number formatter. Other tools' formats
 * ({@code cctk.results.nccltests}), the judging of references ({@code cctk.results.judge}) and the reading of a
 * report's inputs ({@code cctk.results.inputs}) are built on it, and it uses none of them.
 */
package cctk.results;
