/**
 * cctk, the cluster collective toolkit: its base, the layer beneath every other (it uses none of them). A class
 * is here because layers that share nothing else need it, each the one place cctk decides one thing:
 * <ul>
 * <li>How a command ends: {@link cctk.ExitCode}, the exit codes of every command, and {@link cctk.CctkException},
 * the one exception that reaches the user, which carries one (from the command line down to the communicators);
 * {@link cctk.IoErrors} says in words why a file operation failed, for its message.</li>
 * <li>What comes in from outside: {@link cctk.EnvVar} lists every environment variable cctk reads, and
 * {@link cctk.Environment} is the only reader of the process environment (the command line hands it down to the
 * launchers, the rank, the communicators, the job scripts and the spec); {@link cctk.Printable} makes text from outside
 * (result files, file names, Slurm's output) safe to print, for the command line, the report and the readers.</li>
 * <li>Files on machines that other users share: {@link cctk.OwnerFiles} creates them owner-only where
 * {@link cctk.Ownership} finds that no other user controls the way (result files, reports, job scripts,
 * manifests, the diagnosis); {@link cctk.CauseFile} is the line a rank that ends early leaves beside a run's result
 * files, written by the harness and read by the local launcher, Slurm's wait and the result files' reader.</li>
 * <li>JSON: {@link cctk.Json} is cctk's one encoder and decoder (its reading side {@code JsonParsing}), for the
 * result files, the diagnosis, the report and Slurm's output; with the result files, the only user of Gson.</li>
 * </ul>
 */
package cctk;
