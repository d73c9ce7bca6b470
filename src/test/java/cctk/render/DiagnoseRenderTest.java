package cctk.render;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.spec.Diagnose;
import cctk.spec.JobSpec;
import cctk.spec.SpecParser;
import java.nio.file.Path;
import java.time.Instant;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A diagnosing spec renders one srun step of every task of the allocation, whatever benchmark.tasks says. */
@Timeout(30)
class DiagnoseRenderTest {

    @TempDir
    Path dir;

    @Test
    void oneStepOfEveryTask() {
        final JobSpec spec = SpecParser.parse(Path.of("configs/two-nic-2node.yaml")).withDiagnose(Diagnose.DEFAULT);
        final RenderedJob job = new SbatchRenderer("test").render(spec, dir.resolve("job"), Path.of(""),
                Instant.parse("2026-01-01T00:00:00Z"));
        assertThat(Pattern.compile("(?m)^cctk_step ").matcher(job.script()).results().count()).isEqualTo(1);
        assertThat(job.script()).contains("srun --nodes=2 --ntasks=4 --ntasks-per-node=2", " rank --spec ");
        assertThat(job.frozenSpec().diagnose()).isEqualTo(Diagnose.DEFAULT);
        final RenderedJob plain = new SbatchRenderer("test").render(spec.withDiagnose(null), dir.resolve("job2"),
                Path.of(""), Instant.parse("2026-01-01T00:00:00Z"));
        assertThat(plain.frozenSpec().diagnose()).isNull();
    }
}
