package cctk.render;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import cctk.spec.Cluster;
import cctk.spec.Job;
import cctk.spec.JobSpec;
import cctk.spec.Resources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders specs full of hostile values, then runs the script with real bash and a fake srun and module first in
 * PATH (each records its argv and environment), from an unrelated directory. No payload may run, and srun must get
 * every value as one intact argument.
 */
@Timeout(60)
class ScriptExecutionTest {

    private static final String FAKE_SRUN = """
            #!/bin/bash
            n=$(cat "$FAKE_DIR/srun-count" 2>/dev/null || echo 0)
            echo $((n + 1)) > "$FAKE_DIR/srun-count"
            printf '%s\\0' "$@" > "$FAKE_DIR/srun-$n.argv"
            env -0 > "$FAKE_DIR/srun-$n.env"
            for a in "$@"; do case "$a" in --ntasks=*) w=${a#--ntasks=};; esac; done
            if [ -f "$FAKE_DIR/hold-$w" ]; then
                touch "$FAKE_DIR/started-$w"
                while [ ! -f "$FAKE_DIR/release" ]; do sleep 0.05; done
            fi
            if [ -f "$FAKE_DIR/rc-$w" ]; then exit "$(cat "$FAKE_DIR/rc-$w")"; fi
            """;
    /** squeue -o %L: the time left, from left-N for the N-th call (0-based), else 10 minutes. */
    private static final String FAKE_SQUEUE = """
            #!/bin/bash
            n=$(cat "$FAKE_DIR/squeue-count" 2>/dev/null || echo 0)
            echo $((n + 1)) > "$FAKE_DIR/squeue-count"
            if [ -f "$FAKE_DIR/left-$n" ]; then cat "$FAKE_DIR/left-$n"; else echo 10:00; fi
            """;
    private static final String FAKE_MODULE = """
            #!/bin/bash
            n=$(cat "$FAKE_DIR/module-count" 2>/dev/null || echo 0)
            echo $((n + 1)) > "$FAKE_DIR/module-count"
            printf '%s\\0' "$@" > "$FAKE_DIR/module-$n.argv"
            """;

    private static final AdversarialTally TALLY = new AdversarialTally("injection payloads");

    /** The spec fields payloads went into in this test, and how many payloads each got. */
    private final Map<String, Integer> used = new java.util.LinkedHashMap<>();

    @TempDir
    Path tmp;

    @AfterAll
    static void report() {
        TALLY.report();
    }
    Path fake;
    Path bin;
    Path base;

    @BeforeEach
    void fakes() throws IOException {
        fake = Files.createDirectories(tmp.resolve("fake"));
        bin = Files.createDirectories(tmp.resolve("bin"));
        base = Files.createDirectories(tmp.resolve("base dir 'q' $(x)"));
        executable(bin.resolve("srun"), FAKE_SRUN);
        executable(bin.resolve("module"), FAKE_MODULE);
        executable(bin.resolve("squeue"), FAKE_SQUEUE);
    }

    /** Payloads that each try to create their own file in tmp. */
    private List<String> payloads(final String tag) {
        used.merge(tag, 1, Integer::sum);
        final String p = tmp.resolve("pwned-" + tag).toString();
        return List.of("$(touch " + p + "-dollar)", "`touch " + p + "-tick`", "'; touch " + p + "-quote; '",
                "\"; touch " + p + "-dq; \"", "x; touch " + p + "-semi", "a|touch " + p + "-pipe");
    }

    private String hostile(final String tag) {
        return "v " + String.join(" ", payloads(tag)) + " größe→🚀 $HOME * !!";
    }

    @Test
    void hostileValuesRunNoPayloadAndReachSrunIntact() throws Exception {
        final String envValue = hostile("env") + "\nsecond line\ttab";
        final String ncclValue = "=eth0,eth1" + hostile("nccl");
        final Path envScript = base.resolve("env dir 'e'/site $(x).sh");
        Files.createDirectories(envScript.getParent());
        Files.writeString(envScript, "touch \"$(dirname \"${BASH_SOURCE[0]}\")/sourced\"\n");
        final String jobName = "job " + String.join(" ", payloads("name"));
        final JobSpec spec = new JobSpec(null,
                new Job(jobName, "results dir/o'u\"t " + payloads("out").get(0) + payloads("out").get(2), "00:05:00"),
                new Cluster("hostile", "debug " + payloads("part").get(2), "acct" + payloads("acct").get(0),
                        "q " + payloads("qos").get(1), "gpu&hbm80g" + payloads("con").get(3), null,
                        List.of("--comment=" + payloads("extra").get(0)),
                        List.of("cuda/12.2 " + payloads("mod").get(0), "it's " + payloads("mod").get(2)),
                        "env dir 'e'/site $(x).sh", "jdk dir/bin/java " + payloads("java").get(0),
                        "my jars/cctk 1.0's " + payloads("jar").get(1) + ".jar",
                        List.of("--comment=x " + payloads("srun").get(1), "--network=disable_rdzv_get")),
                new Resources(2, 2, 4, 3, "none" + payloads("bind").get(2), "block" + payloads("dist").get(0),
                        List.of("eth0" + payloads("nic").get(0), "eth 1'" + payloads("nic2").get(3))),
                JobSpecs.map("NCCL_SOCKET_IFNAME", ncclValue),
                JobSpecs.map("CCTK_HOSTILE", envValue, "EMPTY", ""),
                JobSpecs.benchmark(List.of("tcp"), List.of(3, 4)), List.of());

        final RenderedJob job = render(spec, base.resolve("jobs/the job 'x'"));
        assertThat(Bash.syntaxErrors(job.script(), tmp)).isEmpty();
        final Bash.Result r = runScript(job, true);

        assertThat(r.code()).as(r.err()).isZero();
        final List<String> ran;
        try (Stream<Path> files = Files.list(tmp)) {
            ran = files.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("pwned")).toList();
        }
        for (final Map.Entry<String, Integer> tag : used.entrySet()) {
            // hostile(tag) and the job name embed all six forms; every other call took one of them
            final boolean whole = List.of("env", "nccl", "name").contains(tag.getKey());
            for (int i = 0; i < (whole ? 6 : tag.getValue()); i++) {
                TALLY.record(tag.getKey() + " payload " + i, ran.stream()
                        .anyMatch(f -> f.startsWith("pwned-" + tag.getKey() + "-"))
                        ? AdversarialTally.Outcome.WRONG_EXIT_CODE : AdversarialTally.Outcome.HANDLED);
            }
        }
        assertThat(ran).as("payloads that ran").isEmpty();
        assertThat(envScript.resolveSibling("sourced")).as("env_script was sourced").exists();
        assertThat(Path.of(job.frozenSpec().job().outputDir())).isDirectory();
        assertThat(r.out()).contains("cctk: job " + jobName + " (Slurm job none)");

        final String jar = base.resolve(spec.cluster().jar()).toString();
        final String java = base.resolve(spec.cluster().java()).toString();
        final List<String> argv = new ArrayList<>(Bash.nulSeparated(fake.resolve("srun-0.argv")));
        // the rank's JVM options (RankJvm) sit between java and -jar; the archive's path is the jar's, intact
        final List<String> jvm = argv.subList(argv.indexOf(java) + 1, argv.indexOf("-jar"));
        assertThat(jvm).contains("-XX:SharedArchiveFile=" + jar.substring(0, jar.length() - 4) + ".jsa", "-Xshare:auto");
        jvm.clear();
        assertThat(argv).containsExactly("--nodes=2", "--ntasks=3", "--ntasks-per-node=2", "--cpus-per-task=3",
                "--distribution=" + spec.resources().distribution(), "--kill-on-bad-exit=1",
                spec.cluster().srunExtra().get(0), "--network=disable_rdzv_get", "--gpus-per-node=4",
                "--gpu-bind=" + spec.resources().gpuBind(), java, "-jar", jar, "rank", "--spec",
                job.specPath().toString());
        assertThat(Bash.nulSeparated(fake.resolve("srun-1.argv"))).startsWith("--nodes=2", "--ntasks=4");
        final List<String> env = Bash.nulSeparated(fake.resolve("srun-0.env"));
        assertThat(env).contains("CCTK_HOSTILE=" + envValue, "NCCL_SOCKET_IFNAME=" + ncclValue, "EMPTY=");
        final String secret = env.stream().filter(e -> e.startsWith("CCTK_SECRET=")).findFirst().orElseThrow()
                .substring("CCTK_SECRET=".length());
        assertThat(secret).matches("[0-9a-f]{64}");
        assertThat(r.out() + r.err()).doesNotContain(secret);
        assertThat(Bash.nulSeparated(fake.resolve("module-0.argv"))).containsExactly("load",
                spec.cluster().modules().get(0));
        assertThat(Bash.nulSeparated(fake.resolve("module-1.argv"))).containsExactly("load",
                spec.cluster().modules().get(1));
        assertThat(job.script()).contains("#SBATCH --partition='debug '\\''; touch ");
    }

    /**
     * A job that runs gloo exports glibc's settings for Gloo's temporaries (JobEnvironment.glooAllocator) to its
     * ranks, but not where the environment the job starts with sets the allocator itself: real bash, the fake srun
     * records the ranks' environment.
     */
    @Test
    void aJobThatRunsGlooGivesItsRanksGlibcsSettingsUnlessTheEnvironmentSetsTheAllocator() throws Exception {
        final JobSpec local = JobSpecs.specFor("local");
        final JobSpec spec = new JobSpec(local.source(), local.job(), local.cluster(), local.resources(),
                local.ncclEnv(), local.env(), JobSpecs.benchmark(List.of("tcp", "gloo"), List.of(2)), List.of());
        final RenderedJob job = render(spec, base.resolve("jobs/g"));
        assertThat(Bash.syntaxErrors(job.script(), tmp)).isEmpty();
        final Bash.Result plain = runScript(job, true);
        assertThat(plain.code()).as(plain.err()).isZero();
        assertThat(Bash.nulSeparated(fake.resolve("srun-0.env"))).contains("MALLOC_MMAP_THRESHOLD_=33554432",
                "MALLOC_TOP_PAD_=67108864");
        for (final Map.Entry<String, String> own : Map.of("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1",
                "MALLOC_ARENA_MAX", "2").entrySet()) {
            Files.delete(fake.resolve("srun-count"));
            final Bash.Result r = runScript(job, true, Map.of(own.getKey(), own.getValue()));
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(Bash.nulSeparated(fake.resolve("srun-0.env"))).as(own.getKey())
                    .contains(own.getKey() + "=" + own.getValue())
                    .noneMatch(e -> e.startsWith("MALLOC_MMAP_THRESHOLD_=") || e.startsWith("MALLOC_TOP_PAD_="));
        }
        final JobSpec tcp = new JobSpec(local.source(), local.job(), local.cluster(), local.resources(),
                local.ncclEnv(), local.env(), JobSpecs.benchmark(List.of("tcp"), List.of(2)), List.of());
        assertThat(render(tcp, base.resolve("jobs/t")).script()).doesNotContain("MALLOC_");
    }

    @Test
    void eachStepRunsAndTheScriptExitsWithTheWorstCode() throws Exception {
        final JobSpec local = JobSpecs.specFor("local");
        final JobSpec spec = new JobSpec(local.source(), local.job(), local.cluster(), local.resources(),
                local.ncclEnv(), local.env(), JobSpecs.benchmark(List.of("tcp"), List.of(1, 2, 4)), List.of());
        Files.writeString(fake.resolve("rc-2"), "2");
        Files.writeString(fake.resolve("rc-4"), "143");
        final Bash.Result r = runScript(render(spec, base.resolve("jobs/x")), true);
        assertThat(r.code()).as("a step whose task died of SIGTERM (143) counts as cctk's 3").isEqualTo(3);
        assertThat(Files.readString(fake.resolve("srun-count")).trim()).isEqualTo("3");
        assertThat(r.out()).contains("cctk: step W=1 nodes=1 tasks-per-node=1: ok");
        assertThat(r.err()).contains("cctk: step W=2 nodes=1 tasks-per-node=2: failed with exit code 2",
                "cctk: step W=4 nodes=1 tasks-per-node=4: srun ended with 143",
                "cctk: step W=4 nodes=1 tasks-per-node=4: failed with exit code 3", "worst exit code 3");
    }

    @Test
    void sigtermToTheScriptWaitsForTheRunningStepStartsNoOtherAndExitsWithCctksCode() throws Exception {
        final JobSpec local = JobSpecs.specFor("local");
        final JobSpec spec = new JobSpec(local.source(), local.job(), local.cluster(), local.resources(),
                local.ncclEnv(), local.env(), JobSpecs.benchmark(List.of("tcp"), List.of(2, 4)), List.of());
        Files.writeString(fake.resolve("hold-2"), "");
        Files.writeString(fake.resolve("rc-2"), "1"); // what ranks stopped by SIGTERM exit with
        final RenderedJob job = render(spec, base.resolve("jobs/t"));
        final ProcessBuilder pb = new ProcessBuilder("bash", job.scriptPath().toString())
                .directory(Files.createDirectories(tmp.resolve("elsewhere")).toFile())
                .redirectOutput(tmp.resolve("out.txt").toFile()).redirectError(tmp.resolve("err.txt").toFile());
        pb.environment().put("PATH", bin + ":/usr/bin:/bin");
        pb.environment().put("FAKE_DIR", fake.toString());
        pb.environment().remove("SLURM_JOB_ID");
        final Process script = pb.start();
        try {
            final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(fake.resolve("started-2")) && System.nanoTime() < until && script.isAlive()) {
                Thread.sleep(20);
            }
            assertThat(fake.resolve("started-2")).exists();
            script.destroy(); // SIGTERM to bash only, as Slurm sends it to the batch shell
            Files.writeString(fake.resolve("release"), "");
            assertThat(script.waitFor(30, TimeUnit.SECONDS)).isTrue();
            final String err = Files.readString(tmp.resolve("err.txt"));
            assertThat(script.exitValue()).as(err).isEqualTo(1);
            assertThat(Files.readString(fake.resolve("srun-count")).trim()).isEqualTo("1");
            assertThat(err).contains("step W=4 nodes=1 tasks-per-node=4: not started, the job was stopped (SIGTERM)",
                    "stopped early (SIGTERM); exit code 1; incomplete results in");
        } finally {
            script.destroyForcibly();
        }
    }

    @Test
    void noStepStartsInsideSlurmsWarningWindowBeforeTheTimeLimit() throws Exception {
        final JobSpec local = JobSpecs.specFor("local");
        final JobSpec spec = new JobSpec(local.source(), local.job(), local.cluster(), local.resources(),
                local.ncclEnv(), local.env(), JobSpecs.benchmark(List.of("tcp"), List.of(1, 2, 4)), List.of());
        final RenderedJob job = render(spec, base.resolve("jobs/w"));
        final int window = SbatchDirectives.stopWindow(spec);
        assertThat(job.script()).contains("#SBATCH --signal=USR1@" + (window - 60), "cctk_window=" + window);
        // the first step always starts; before the second squeue answers (day form) a time left within the window
        Files.writeString(fake.resolve("left-0"), "0-00:00:" + (window - 1) + "\n");
        final Map<String, String> env = new HashMap<>();
        env.put("PATH", bin + ":/usr/bin:/bin");
        env.put("FAKE_DIR", fake.toString());
        final Bash.Result r = Bash.run(List.of("env", "SLURM_JOB_ID=77", "bash", job.scriptPath().toString()),
                Files.createDirectories(tmp.resolve("elsewhere")), env);
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(Files.readString(fake.resolve("srun-count")).trim()).isEqualTo("1");
        assertThat(r.err()).contains("step W=2 nodes=1 tasks-per-node=2: not started, the job was stopped (time"
                + " limit: " + (window - 1) + " s left, within Slurm's warning window of " + window + " s)",
                "step W=4 nodes=1 tasks-per-node=4: not started", "stopped early (time limit: ");
    }

    @Test
    void modulesWithoutAModuleCommandStopTheJobWithAClearMessage() throws Exception {
        Files.delete(bin.resolve("module"));
        final Bash.Result r = runScript(render(JobSpecs.specFor("perlmutter-1x4"), base.resolve("jobs/p")), true);
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains("no 'module' command");
        assertThat(fake.resolve("srun-count")).doesNotExist();
    }

    private RenderedJob render(final JobSpec spec, final Path jobDir) {
        final SbatchRenderer renderer = new SbatchRenderer("test", s -> "frozen: true\n");
        final RenderedJob job = renderer.render(spec, jobDir, base, Instant.parse("2025-01-02T03:04:05Z"));
        assertThat(renderer.write(job)).isEqualTo(job.scriptPath());
        return job;
    }

    private Bash.Result runScript(final RenderedJob job, final boolean fakesFirst) throws Exception {
        return runScript(job, fakesFirst, Map.of());
    }

    /** The script under bash, glibc's allocator variables of this JVM's environment left out, {@code extra} added. */
    private Bash.Result runScript(final RenderedJob job, final boolean fakesFirst, final Map<String, String> extra)
            throws Exception {
        final Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        final Map<String, String> env = new HashMap<>();
        env.put("PATH", (fakesFirst ? bin + ":" : "") + "/usr/bin:/bin");
        env.put("FAKE_DIR", fake.toString());
        env.put("LC_ALL", "C.UTF-8");
        env.remove("SLURM_JOB_ID");
        final List<String> argv = new ArrayList<>(List.of("env", "-u", "SLURM_JOB_ID", "-u", "SLURM_JOB_NODELIST"));
        System.getenv().keySet().stream().filter(n -> n.equals("GLIBC_TUNABLES") || n.startsWith("MALLOC_"))
                .forEach(n -> argv.addAll(List.of("-u", n)));
        extra.forEach((k, v) -> argv.add(k + "=" + v));
        argv.addAll(List.of("bash", job.scriptPath().toString()));
        return Bash.run(argv, elsewhere, env);
    }

    private static void executable(final Path file, final String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
