package cctk.render;

import cctk.OwnerFiles;
import cctk.CctkException;
import cctk.spec.Cluster;
import cctk.spec.JobEnvironment;
import cctk.spec.JobSpec;
import cctk.spec.Resources;
import cctk.spec.SpecWriter;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Renders a {@link JobSpec} into an sbatch script: the model is flattened into the named keys below, each holding
 * already-quoted {@link ShellText}, and poured into the template {@code job.sbatch.tpl}.
 *
 * <p>Thread-safe: holds only immutable state.
 */
public final class SbatchRenderer {

    /** cctk version that rendered the script. */
    public static final String CCTK_VERSION = "CCTK_VERSION";
    /** When it was rendered, ISO-8601 UTC. */
    public static final String RENDERED_AT = "RENDERED_AT";
    /** The spec file it came from. */
    public static final String SPEC_SOURCE = "SPEC_SOURCE";
    /** The frozen spec every rank reads. */
    public static final String FROZEN_SPEC = "FROZEN_SPEC";
    /** One-line description of nodes, tasks, GPUs and NICs. */
    public static final String RESOURCES_SUMMARY = "RESOURCES_SUMMARY";
    /** The script's own path. */
    public static final String SCRIPT_PATH = "SCRIPT_PATH";
    /** The job directory. */
    public static final String JOB_DIR = "JOB_DIR";
    /** The {@code #SBATCH} lines. */
    public static final String SBATCH_DIRECTIVES = "SBATCH_DIRECTIVES";
    /** The job name as one word. */
    public static final String JOB_NAME = "JOB_NAME";
    /** The {@code module load} block, or nothing. */
    public static final String MODULE_LOADS = "MODULE_LOADS";
    /** The {@code source} of the env script, or nothing. */
    public static final String ENV_SCRIPT = "ENV_SCRIPT";
    /** One {@code export} line per nccl_env and env entry. */
    public static final String EXPORTS = "EXPORTS";
    /** Where results go. */
    public static final String OUTPUT_DIR = "OUTPUT_DIR";
    /** One {@code cctk_step ... srun ...} command per world size. */
    public static final String STEPS = "STEPS";
    /** Seconds before the time limit within which no further step starts (0: no time limit, no check). */
    public static final String STOP_WINDOW = "STOP_WINDOW";

    /** The script's name inside the job directory. */
    public static final String SCRIPT_FILE = "job.sbatch";
    /** The frozen spec's name inside the job directory. */
    public static final String SPEC_FILE = "spec.yaml";

    private static final String TEMPLATE = "job.sbatch.tpl";
    private static final DateTimeFormatter DIR_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final String cctkVersion;
    private final Function<JobSpec, String> specYaml;
    private final ScriptTemplate template;

    /** A renderer that freezes specs with {@link SpecWriter#toYaml}. */
    public SbatchRenderer(final String cctkVersion) {
        this(cctkVersion, SpecWriter::toYaml);
    }

    /**
     * @param cctkVersion named in the script header
     * @param specYaml    writes the frozen spec as YAML
     */
    public SbatchRenderer(final String cctkVersion, final Function<JobSpec, String> specYaml) {
        this.cctkVersion = Objects.requireNonNull(cctkVersion);
        this.specYaml = Objects.requireNonNull(specYaml);
        this.template = ScriptTemplate.load(TEMPLATE);
    }

    /** {@code baseDir/jobs/<name>/<yyyyMMdd-HHmmss>} in the given zone. */
    public static Path defaultJobDir(final Path baseDir, final String jobName, final Instant when, final ZoneId zone) {
        if (!cctk.spec.Job.validName(jobName)) {
            throw CctkException.usage("The job name '" + jobName + "' cannot name a directory under jobs/ "
                    + "(it is empty, '.', '..' or holds a '/'); choose another 'job.name' or give -o DIR.");
        }
        return baseDir.resolve("jobs").resolve(jobName).resolve(DIR_TIME.format(when.atZone(zone)));
    }

    /**
     * Renders the script for a spec.
     *
     * @param spec    the resolved spec; its relative paths are taken against {@code baseDir}
     * @param jobDir  where the script and frozen spec go (relative: against {@code baseDir})
     * @param baseDir the directory relative paths mean, usually where cctk was started
     * @param when    the time written into the header
     * @throws CctkException USAGE when a value cannot go into the script safely
     */
    public RenderedJob render(final JobSpec spec, final Path jobDir, final Path baseDir, final Instant when) {
        final Path base = baseDir.toAbsolutePath().normalize();
        final Path dir = base.resolve(jobDir).normalize();
        final JobSpec frozen = SpecPaths.absolute(spec, base);
        final Path scriptPath = dir.resolve(SCRIPT_FILE);
        final Path specPath = dir.resolve(SPEC_FILE);
        final String script = template.fill(keys(frozen, dir, scriptPath, specPath, when));
        return new RenderedJob(script, dir, scriptPath, specPath, frozen);
    }

    /**
     * Writes {@code spec.yaml} (0600) and {@code job.sbatch} (0700) into the job directory, created 0700.
     *
     * @return the script's path
     * @throws CctkException ENVIRONMENT when the files cannot be written
     */
    public Path write(final RenderedJob job) {
        final String yaml = specYaml.apply(job.frozenSpec());
        try {
            OwnerFiles.directory(job.jobDir());
            OwnerFiles.string(job.specPath(), yaml);
            OwnerFiles.string(job.scriptPath(), job.script());
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.setPosixFilePermissions(job.scriptPath(), PosixFilePermissions.fromString("rwx------"));
            }
        } catch (IOException e) {
            throw CctkException.environment("Cannot write the job files to " + job.jobDir() + ": "
                    + cctk.IoErrors.reason(e) + ". Check that the directory is writable or choose another with -o"
                    + " DIR.", e);
        }
        return job.scriptPath();
    }

    /**
     * What {@code cctk render} does: renders and writes the job files.
     *
     * @param jobDir the job directory, or null for {@link #defaultJobDir} in the system time zone
     * @return the script's path
     */
    public Path renderTo(final JobSpec spec, final Path jobDir, final Path baseDir, final Instant when) {
        final Path dir = jobDir != null ? jobDir
                : defaultJobDir(baseDir, spec.job().name(), when, ZoneId.systemDefault());
        return write(render(spec, dir, baseDir, when));
    }

    /** The flat map of named keys the template is filled from; package-private for tests. */
    Map<String, ShellText> keys(final JobSpec spec, final Path jobDir, final Path scriptPath, final Path specPath,
                                final Instant when) {
        final Map<String, ShellText> k = new LinkedHashMap<>();
        k.put(CCTK_VERSION, ShellQuote.quoteDirective("cctk version", cctkVersion));
        k.put(RENDERED_AT, ShellQuote.passThrough(when.truncatedTo(ChronoUnit.SECONDS).toString()));
        k.put(SPEC_SOURCE, spec.source() == null ? ShellQuote.passThrough("(none: built in code)")
                : ShellQuote.quoteDirective("spec file", spec.source().toString()));
        k.put(FROZEN_SPEC, ShellQuote.quoteDirective("job directory", specPath.toString()));
        k.put(RESOURCES_SUMMARY, resourcesSummary(spec.resources()));
        k.put(SCRIPT_PATH, ShellQuote.quoteDirective("job directory", scriptPath.toString()));
        k.put(JOB_DIR, ShellQuote.quoteDirective("job directory", jobDir.toString()));
        k.put(SBATCH_DIRECTIVES, SbatchDirectives.of(spec, jobDir));
        k.put(JOB_NAME, ShellQuote.quote("job.name", spec.job().name()));
        k.put(MODULE_LOADS, moduleLoads(spec.cluster()));
        k.put(ENV_SCRIPT, envScript(spec.cluster()));
        k.put(EXPORTS, exports(spec));
        k.put(OUTPUT_DIR, ShellQuote.quote("job.output_dir", spec.job().outputDir()));
        k.put(STEPS, SrunSteps.of(spec, specPath));
        k.put(STOP_WINDOW, ShellQuote.quote("job.time_limit", Integer.toString(SbatchDirectives.stopWindow(spec))));
        return k;
    }

    private static ShellText resourcesSummary(final Resources r) {
        final List<ShellText> nics = new ArrayList<>();
        for (final String nic : orEmpty(r.nics())) {
            nics.add(ShellQuote.quoteDirective("resources.nics", nic));
        }
        return ShellQuote.passThrough(r.nodes() + " node(s) x " + r.tasksPerNode() + " task(s), "
                + r.gpusPerNode() + " GPU(s) per node, " + r.cpusPerTask() + " CPU(s) per task, NICs: "
                + (nics.isEmpty() ? "(backend's choice)" : ShellText.join(" ", nics).text()));
    }

    private static ShellText moduleLoads(final Cluster c) {
        final List<String> modules = orEmpty(c.modules());
        if (modules.isEmpty()) {
            return ShellQuote.passThrough("");
        }
        final List<ShellText> words = new ArrayList<>();
        for (final String m : modules) {
            words.add(ShellQuote.quote("cluster.modules", m));
        }
        final StringBuilder sb = new StringBuilder()
                .append("if ! command -v module >/dev/null 2>&1; then\n")
                .append("    echo \"cctk: the spec lists modules to load (cluster.modules) but there is no 'module' "
                        + "command on $(hostname); load them in cluster.env_script or remove cluster.modules\" >&2\n")
                .append("    exit 3\nfi\n")
                .append("set +u  # module scripts may read unset variables\n");
        for (final ShellText w : words) {
            sb.append("module load ").append(w.text()).append('\n');
        }
        sb.append("set -u");
        return ShellQuote.passThrough(sb.toString());
    }

    private static ShellText envScript(final Cluster c) {
        if (c.envScript() == null || c.envScript().isBlank()) {
            return ShellQuote.passThrough("");
        }
        final ShellText path = ShellQuote.quote("cluster.env_script", c.envScript());
        return ShellQuote.passThrough("set +u  # site scripts may read unset variables\nsource " + path.text()
                + "\nset -u");
    }

    /**
     * {@link JobEnvironment#glooAllocator}'s variables where the job's environment sets no allocator variable, then
     * one export line per variable {@link JobEnvironment#exported} gives, then nccl.debug's block.
     */
    private static ShellText exports(final JobSpec spec) {
        final List<ShellText> lines = new ArrayList<>();
        final List<JobEnvironment.Variable> glibc = JobEnvironment.glooAllocator(spec);
        if (!glibc.isEmpty()) {
            final StringBuilder sb = new StringBuilder("# glibc's settings for Gloo's per-call temporaries (README: the"
                    + " gloo backend), unless the environment sets the allocator\nif " + JobEnvironment.ALLOCATOR_UNSET
                    + "; then\n");
            for (final JobEnvironment.Variable v : glibc) {
                sb.append("  export ").append(v.name()).append('=').append(ShellQuote.quote(v.key(), v.value()).text())
                        .append('\n');
            }
            lines.add(ShellQuote.passThrough(sb.append("fi").toString()));
        }
        for (final JobEnvironment.Variable v : JobEnvironment.exported(spec)) {
            final ShellText value = ShellQuote.quote(v.key(), v.value());
            lines.add(ShellQuote.passThrough("export " + v.name() + "=" + value.text()));
        }
        final ShellText debug = SrunSteps.ncclSetup(spec);
        if (debug != null) {
            lines.add(debug);
        }
        return ShellText.join("\n", lines);
    }

    static <T> List<T> orEmpty(final List<T> list) {
        return list == null ? List.of() : list;
    }
}
