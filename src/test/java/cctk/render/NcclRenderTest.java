package cctk.render;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.spec.JobSpec;
import cctk.spec.NcclOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The nccl section in the script: a profiler around each rank, NCCL's per-rank debug log. */
@Timeout(30)
class NcclRenderTest {

    @TempDir
    Path tmp;

    private final SbatchRenderer renderer = new SbatchRenderer("test", s -> "frozen: " + s.job().name() + "\n");

    private String script(final NcclOptions nccl, final List<String> backends) {
        final JobSpec s = JobSpecs.specFor("perlmutter-1x4");
        final JobSpec spec = new JobSpec(s.source(), s.job(), s.cluster(), s.resources(), s.ncclEnv(), s.env(),
                JobSpecs.benchmark(backends, List.of(2, 4)), List.of(), nccl);
        return renderer.render(spec, Path.of("jobs/x"), tmp, SbatchRendererTest.WHEN).script();
    }

    private static NcclOptions with(final boolean debug, final NcclOptions.Profiler profiler) {
        return new NcclOptions("nccl", null, List.of(), debug, cctk.comm.nccl.NcclConfig.Timing.PIPELINED, profiler);
    }

    @Test
    void nsysWrapsEveryRankWithOneReportPerRankAndWorldSize() {
        final String script = script(with(false, NcclOptions.Profiler.NSYS), List.of("nccl"));
        final String out = tmp.resolve("results/perlmutter-1x4").toString();
        // quoted: the profiler, not the shell, expands %q{SLURM_PROCID} in each task
        assertThat(script).contains("nsys profile --trace=cuda,nvtx,osrt --force-overwrite=true --output='" + out
                + "/profiles/perlmutter-1x4.w2.rank%q{SLURM_PROCID}' java -Xms32m ");
        assertThat(script).contains("/profiles/perlmutter-1x4.w4.rank%q{SLURM_PROCID}' java -Xms32m ");
        assertThat(script).contains("mkdir -p -- " + out + "/profiles\n");
        assertThat(script).doesNotContain("NCCL_DEBUG_FILE");
    }

    @Test
    void ncuTooAndNothingWhenNoNcclBackendRuns() {
        assertThat(script(with(false, NcclOptions.Profiler.NCU), List.of("nccl")))
                .contains("ncu --target-processes all --force-overwrite --export ");
        assertThat(script(with(true, NcclOptions.Profiler.NCU), List.of("tcp")))
                .doesNotContain("ncu ", "NCCL_DEBUG_FILE");
        assertThat(script(NcclOptions.DEFAULT, List.of("nccl"))).doesNotContain("nsys", "ncu ", "NCCL_DEBUG_FILE");
    }

    @Test
    void debugLogsPerRankIntoTheOutputDirectory() {
        final String script = script(with(true, NcclOptions.Profiler.NONE), List.of("nccl"));
        final String out = tmp.resolve("results/perlmutter-1x4").toString();
        assertThat(script).contains("mkdir -p -- " + out + "/nccl-debug\nexport NCCL_DEBUG=INFO\n"
                + "export NCCL_DEBUG_FILE=" + out + "/nccl-debug/%h.%p.log");
        // after the spec's own nccl_env, so the switch wins
        assertThat(script.indexOf("NCCL_DEBUG_FILE")).isGreaterThan(script.indexOf("export NCCL_SOCKET_IFNAME"));
    }
}
