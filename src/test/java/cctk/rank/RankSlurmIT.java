package cctk.rank;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.SlurmTests;
import cctk.launch.LocalLauncher;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code srun -n 3 cctk rank} in who-am-I mode on a running Slurm cluster (skipped when none answers). */
@Tag("slurm")
@Timeout(180)
class RankSlurmIT {

    @Test
    void threeSrunTasksFindEachOther() throws Exception {
        if (run(List.of("sinfo", "-h")).code != 0) {
            SlurmTests.ensure("local", "RankSlurmIT");
        }
        final List<String> cmd = new ArrayList<>(List.of("srun", "-n", "3", "-t", "2", "--distribution=block"));
        cmd.addAll(LocalLauncher.cctkCommand(List.of("rank", "--timeout", "60")));
        final Result r = run(cmd);
        assertThat(r.code).as(r.out).isZero();
        for (int rank = 0; rank < 3; rank++) {
            assertThat(r.out).contains("rank " + rank + "/3 local " + rank).contains("via slurm")
                    .contains("rank " + rank + ": all 3 ranks met at ");
        }
    }

    private record Result(int code, String out) {
    }

    private static Result run(final List<String> cmd) throws Exception {
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put(cctk.EnvVar.CCTK_SECRET.name(), "slurm-it-" + System.nanoTime());
        final Process p;
        try {
            p = pb.start();
        } catch (final java.io.IOException e) {
            return new Result(-1, e.getMessage());
        }
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(-1, out);
        }
        return new Result(p.exitValue(), out);
    }
}
