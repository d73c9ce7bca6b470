/**
 * References judged on measurements: the verdict of each ({@link cctk.results.judge.ReferenceJudge},
 * {@link cctk.results.judge.Verdict}) at the end of a run and in {@code cctk report}, and which measurements stand
 * for a run where one figure per size is wanted ({@link cctk.results.judge.Selection}), shared with the report's
 * series.
 */
package cctk.results.judge;
