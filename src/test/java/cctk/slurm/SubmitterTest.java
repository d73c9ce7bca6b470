package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class SubmitterTest {

    @TempDir
    Path tmp;

    private final List<String> log = new ArrayList<>();

    @Test
    void parsableOutputWithAndWithoutCluster() {
        assertThat(Submitter.parse("1234\n")).isEqualTo(new Submitter.Submission("1234", null));
        assertThat(Submitter.parse("77;perlmutter\n")).isEqualTo(new Submitter.Submission("77", "perlmutter"));
        assertThat(Submitter.parse("note: something\n88\n")).isEqualTo(new Submitter.Submission("88", null));
    }

    @Test
    void outputWithoutAnIdIsAnEnvironmentError() {
        for (final String bad : List.of("", "Submitted batch job 12", "12;", "abc")) {
            assertThatThrownBy(() -> Submitter.parse(bad)).as(bad).isInstanceOf(CctkException.class)
                    .hasMessageContaining("no job id");
        }
    }

    @Test
    void argvPutsUserArgumentsBeforeTheScript() {
        assertThat(Submitter.argv(Path.of("jobs/x/job.sbatch"), List.of("--qos=debug", "-t", "5")))
                .containsExactly("sbatch", "--parsable", "--qos=debug", "-t", "5", "jobs/x/job.sbatch");
    }

    @Test
    void displayQuotesOnlyWhatAShellWouldSplit() {
        assertThat(Submitter.display(List.of("sbatch", "--parsable", "--comment=a b", "it's", "jobs/x.sbatch")))
                .isEqualTo("sbatch --parsable '--comment=a b' 'it'\\''s' jobs/x.sbatch");
    }

    @Test
    void submitRunsSbatchInTheSubmitDirectoryAndReturnsTheId() throws Exception {
        final Path bin = Files.createDirectory(tmp.resolve("bin"));
        FakeSlurm.script(bin, "sbatch", "printf '%s\\n' \"$@\" > \"$PWD/args\"; echo '42;alpha'");
        final Path script = tmp.resolve("job.sbatch");
        Files.writeString(script, "#!/bin/bash\n");
        final Submitter.Submission s = new Submitter(FakeSlurm.cli(bin, log)).submit(script, List.of("-p", "gpu"),
                tmp);
        assertThat(s).isEqualTo(new Submitter.Submission("42", "alpha"));
        assertThat(Files.readAllLines(tmp.resolve("args"))).containsExactly("--parsable", "-p", "gpu",
                script.toString());
    }

    @Test
    void aRejectedJobShowsSbatchsOwnMessage() throws Exception {
        final Path bin = Files.createDirectory(tmp.resolve("bin"));
        FakeSlurm.script(bin, "sbatch", "echo 'sbatch: error: Batch job submission failed: Invalid partition name"
                + " specified' >&2; exit 1");
        assertThatThrownBy(() -> new Submitter(FakeSlurm.cli(bin, log)).submit(tmp.resolve("j.sh"), List.of(), tmp))
                .isInstanceOfSatisfying(CctkException.class,
                        e -> assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT))
                .hasMessageContaining("sbatch rejected").hasMessageContaining("Invalid partition name specified");
    }

    @Test
    void missingSbatchSaysHowToGetSlurm() {
        final SlurmCli cli = new SlurmCli(new ProcessRunner(java.util.Map.of("PATH", tmp.toString()), log::add));
        assertThatThrownBy(() -> new Submitter(cli).submit(tmp.resolve("j.sh"), List.of(), tmp))
                .isInstanceOfSatisfying(CctkException.class,
                        e -> assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT))
                .hasMessage("sbatch not found on PATH: is Slurm installed / module loaded? For a local test cluster"
                        + " run scripts/slurm-local.sh start");
    }
}
