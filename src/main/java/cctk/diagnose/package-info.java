/**
 * {@code cctk diagnose}, its job side: the command's render-submit-and-wait ({@link cctk.diagnose.DiagnoseJob}) and
 * what the diagnosis holds as a whole: its settings, rank 0's plan of the nodes, the store keys and rank 0's
 * coordination (collect, ask for repeats, judge with {@link cctk.diagnose.verdict}, write the files and the page).
 * Nothing here measures or opens a link: the rank side ({@link cctk.diagnose.probe}) does, and uses this package.
 */
package cctk.diagnose;
