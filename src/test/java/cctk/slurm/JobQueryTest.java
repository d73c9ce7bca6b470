package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class JobQueryTest {

    /** Real output of Slurm 22.05.8 for a batch script that exited 3 (trimmed). */
    static final String SCONTROL_FAILED = """
            JobId=2 JobName=j.sh
               UserId=root(0) GroupId=root(0) MCS_label=N/A
               Priority=4294901758 Nice=0 Account=(null) QOS=(null)
               JobState=FAILED Reason=NonZeroExitCode Dependency=(null)
               Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=3:0
               RunTime=00:00:02 TimeLimit=UNLIMITED TimeMin=N/A
               NodeList=vm
               StdOut=/tmp/j-2.out
            """;

    @Test
    void squeuePrintsOneStateWordOrNothing() {
        assertThat(JobQuery.parseSqueue("7", "RUNNING\n")).contains(new JobStatus("7", JobState.RUNNING, null,
                null, "squeue"));
        assertThat(JobQuery.parseSqueue("7", "")).isEmpty();
        assertThat(JobQuery.parseSqueue("7", "\n  \n")).isEmpty();
    }

    @Test
    void scontrolGivesStateExitCodeAndReason() {
        final Optional<JobStatus> s = JobQuery.parseScontrol("2", SCONTROL_FAILED);
        assertThat(s).isPresent();
        assertThat(s.get().state()).isEqualTo(JobState.FAILED);
        assertThat(s.get().exitCode()).isEqualTo("3:0");
        assertThat(s.get().exitStatus()).isEqualTo(3);
        assertThat(s.get().signal()).isZero();
        assertThat(s.get().reason()).isEqualTo("NonZeroExitCode");
        assertThat(s.get().describe()).isEqualTo("job 2 FAILED, exit code 3:0 (NonZeroExitCode)");
    }

    @Test
    void scontrolReasonNoneIsDroppedAndDerivedExitCodeIsNotTakenForExitCode() {
        final String text = "JobId=5 JobName=x\n   JobState=COMPLETED Reason=None Dependency=(null)\n"
                + "   DerivedExitCode=9:0\n   Requeue=1 ExitCode=0:0\n";
        final JobStatus s = JobQuery.parseScontrol("5", text).orElseThrow();
        assertThat(s.state()).isEqualTo(JobState.COMPLETED);
        assertThat(s.exitCode()).isEqualTo("0:0");
        assertThat(s.reason()).isNull();
    }

    @Test
    void scontrolWithoutJobStateIsUnknown() {
        assertThat(JobQuery.parseScontrol("9", "slurm_load_jobs error: Invalid job id specified\n")).isEmpty();
    }

    @Test
    void sacctPipeSeparatedWithCancelledBy() {
        final JobStatus s = JobQuery.parseSacct("12", "12|CANCELLED by 0|0:15\n").orElseThrow();
        assertThat(s.state()).isEqualTo(JobState.CANCELLED);
        assertThat(s.exitCode()).isEqualTo("0:15");
        assertThat(s.signal()).isEqualTo(15);
        assertThat(JobQuery.parseSacct("12", "13|COMPLETED|0:0\n")).isEmpty();
        assertThat(JobQuery.parseSacct("12", "")).isEmpty();
        assertThat(JobQuery.parseSacct("4", "4|TIMEOUT|0:0").orElseThrow().state()).isEqualTo(JobState.TIMEOUT);
    }

    @Test
    void unknownExitCodeReadsAsMinusOne() {
        final JobStatus s = new JobStatus("1", JobState.RUNNING, null, null, "squeue");
        assertThat(s.exitStatus()).isEqualTo(-1);
        assertThat(s.describe()).isEqualTo("job 1 RUNNING");
    }

    @Test
    void aStateNoToolKnowsIsUnknownWithWhatSlurmSaidQuotedAndMadePrintable() {
        final JobStatus s = JobQuery.parseSqueue("7", "\u001b[31mWEIRD_STATE\n").orElseThrow();
        assertThat(s.state()).isEqualTo(JobState.UNKNOWN);
        assertThat(s.reason()).isEqualTo("Slurm said '?[31mWEIRD_STATE'");
        assertThat(JobQuery.parseSqueue("7", "RUNNING\n").orElseThrow().reason()).isNull();
    }
}
