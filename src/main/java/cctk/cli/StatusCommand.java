package cctk.cli;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.slurm.JobQuery;
import cctk.slurm.JobState;
import cctk.slurm.JobStatus;
import cctk.slurm.ProcessRunner;
import cctk.slurm.SlurmCli;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cctk status JOBID}: one line with a job's state, as squeue, scontrol or sacct know it. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Prints the state of one Slurm job, e.g. 'job 12 FAILED, exit code 3:0 (NonZeroExitCode)'.",
            "Exit code: 0 when Slurm answered, whatever the job's state (the state is in the line); 1 when no "
            + "Slurm tool knows the job (ended long ago, or never existed); 3 when Slurm could not be asked or"
            + " answered with no state cctk knows."})
final class StatusCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "JOBID", description = "The Slurm job id, as 'cctk submit' printed it.")
    String jobId;

    @Override
    public Integer call() {
        if (!jobId.matches("[0-9]+(_[0-9]+)?")) {
            throw CctkException.usage("'" + jobId + "' is not a Slurm job id (digits, e.g. 1234)");
        }
        final SlurmCli slurm = new SlurmCli(ProcessRunner.fromSystem(spec.commandLine().getErr()::println));
        final JobStatus s = new JobQuery(slurm).query(jobId).orElseThrow(() -> CctkException.failed(
                "no Slurm tool knows job " + jobId + ": squeue and scontrol forget a job MinJobAge seconds after"
                + " it ends, and sacct needs accounting."));
        if (s.state() == JobState.UNKNOWN) {
            throw CctkException.environment(s.source() + " answered for job " + jobId + ", but not with a job state"
                    + " cctk knows (" + s.reason() + "); is this Slurm's own " + s.source() + ", and which version?"
                    + " Ask it directly: scontrol show job " + jobId + ".");
        }
        spec.commandLine().getOut().println(s.describe() + " [" + s.source() + "]");
        return ExitCode.OK.code();
    }
}
