package cctk.spec;

import cctk.EnvVar;
import cctk.results.Reference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Checks a merged spec tree and builds the records: job, cluster, resources and the two environments. */
final class SpecBuilder {

    /** Linux interface names: at most 15 characters (IFNAMSIZ 16 with the NUL; [LINUX-IF] in docs/sources.md). */
    static final Pattern IFNAME = Pattern.compile("[A-Za-z0-9_.:-]{1,15}");
    private static final Pattern TIME = Pattern.compile("(\\d+-)?\\d{1,2}:[0-5]\\d:[0-5]\\d");
    private static final Pattern SHELL_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern GPU_BIND = Pattern.compile(
            "(verbose,)?(none|closest|single:\\d+|per_task:\\d+"
                    + "|(map|map_gpu):[0-9*,]+|(mask|mask_gpu):[0-9a-fA-Fx*,]+)");
    private static final Pattern DISTRIBUTION = Pattern.compile(
            "(\\*|block|cyclic|arbitrary|plane=\\d+)(:(\\*|block|cyclic|fcyclic)){0,2}(,(Pack|NoPack))?");
    private static final Pattern MODULE = Pattern.compile("[A-Za-z0-9._/+@-]+");
    /** The CCTK_ variables a spec's env may set: the user's switches; the rest cctk sets itself. */
    private static final List<String> USER_CCTK = List.of(EnvVar.CCTK_NCCL_ALLTOALL.name(),
            EnvVar.CCTK_JAVACPP_CACHE.name(), EnvVar.CCTK_GLOO_DIR.name());
    private static final String DEFAULT_TIME = "00:10:00";

    private SpecBuilder() {
    }

    static JobSpec build(final Path file, final SpecValue root, final Problems problems) {
        final Section top = new Section(root, "", problems, root.where());
        final Job job = job(top.section("job"), file);
        final Cluster cluster = cluster(top.section("cluster"));
        final int before = problems.size();
        final Resources resources = resources(top.section("resources"));
        final boolean resourcesOk = problems.size() == before;
        final Section ncclSection = top.section("nccl_env");
        final Map<String, String> nccl = ncclEnv(ncclSection);
        final Map<String, String> env = env(top.section("env"));
        final NcclOptions ncclOptions = NcclBuilder.build(top.section("nccl"));
        final TcpSettings tcp = TcpBuilder.build(top.section("tcp"));
        debugSetOnce(ncclSection, nccl, ncclOptions);
        final Benchmark benchmark = BenchmarkBuilder.build(top.section("benchmark"), resources, resourcesOk,
                ncclOptions);
        final List<Reference> references = ReferenceBuilder.build(top);
        final Diagnose diagnose = DiagnoseBuilder.build(top);
        top.finish();
        return new JobSpec(file, job, cluster, resources, nccl, env, benchmark, references, ncclOptions, diagnose,
                tcp);
    }

    private static Job job(final Section s, final Path file) {
        final String stem = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        String name = s.string("name", Job.validName(stem) ? stem : null);
        if (name == null && !s.has("name")) {
            s.missing("name", "a job name of letters, digits, '.', '_' and '-'");
        } else if (name != null && !Job.validName(name)) {
            s.problems().expected(s.get("name"), s.keyPath("name"),
                    "a job name of 1-64 letters, digits, '.', '_' and '-', not '.' or '..'");
            name = null;
        }
        final String outputDir = s.string("output_dir", name == null ? null : "results/" + name);
        final String time = timeLimit(s);
        s.finish();
        return new Job(name, outputDir, time);
    }

    /** Slurm's forms cctk accepts: HH:MM:SS, D-HH:MM:SS, or whole minutes (normalised to HH:MM:SS). */
    private static String timeLimit(final Section s) {
        final SpecValue v = s.get("time_limit");
        if (v == null) {
            return DEFAULT_TIME;
        }
        final String expected = "a time limit as HH:MM:SS, D-HH:MM:SS or whole minutes";
        if (v.kind() == SpecValue.Kind.INT) {
            final int minutes = s.integer(v, s.keyPath("time_limit"), 1, 525_600, 0);
            return minutes == 0 ? DEFAULT_TIME
                    : String.format("%02d:%02d:00", minutes / 60, minutes % 60);
        }
        if (v.kind() != SpecValue.Kind.STRING || !TIME.matcher(v.text()).matches()) {
            s.problems().expected(v, s.keyPath("time_limit"), expected);
            return DEFAULT_TIME;
        }
        return v.text();
    }

    private static Cluster cluster(final Section s) {
        final Cluster c = new Cluster(s.string("name", "local"), s.string("partition", null),
                s.string("account", null), s.string("qos", null), s.string("constraint", null),
                s.string("reservation", null), sbatchExtra(s), modules(s), s.string("env_script", null),
                s.string("java", "java"), s.string("jar", "target/cctk.jar"),
                extraOptions(s, "srun_extra", "one whole srun option such as --network=disable_rdzv_get"));
        s.finish();
        return c;
    }

    private static List<String> sbatchExtra(final Section s) {
        return extraOptions(s, "sbatch_extra", "one whole sbatch option such as --exclusive");
    }

    /** A list of whole command-line options (each starts with '-'), e.g. cluster.sbatch_extra, cluster.srun_extra. */
    private static List<String> extraOptions(final Section s, final String key, final String expected) {
        final List<String> extra = s.strings(key, List.of());
        for (int i = 0; i < extra.size(); i++) {
            if (!extra.get(i).startsWith("-")) {
                s.problems().expected(s.get(key).list().get(i), s.keyPath(key) + "[" + i + "]", expected);
            }
        }
        return extra;
    }

    private static List<String> modules(final Section s) {
        final List<String> modules = s.strings("modules", List.of());
        for (int i = 0; i < modules.size(); i++) {
            if (!MODULE.matcher(modules.get(i)).matches()) {
                s.problems().expected(s.get("modules").list().get(i), s.keyPath("modules") + "[" + i + "]",
                        "a module name such as nccl/2.29.2-cu13 (no spaces)");
            }
        }
        return modules;
    }

    private static Resources resources(final Section s) {
        final int nodes = s.requiredInteger("nodes", 1, 100_000);
        final int tasks = s.requiredInteger("tasks_per_node", 1, 1024);
        final int gpus = s.integer("gpus_per_node", 0, 64, 0);
        final int cpus = s.integer("cpus_per_task", 1, 1024, 1);
        final String gpuBind = matching(s, "gpu_bind", GPU_BIND, "none",
                "an srun --gpu-bind value such as none, closest, single:1 or map:0,1");
        final String distribution = matching(s, "distribution", DISTRIBUTION, "block",
                "an srun --distribution value such as block, cyclic, plane=4 or block:cyclic");
        final List<String> nics = s.strings("nics", List.of());
        for (int i = 0; i < nics.size(); i++) {
            if (!IFNAME.matcher(nics.get(i)).matches()) {
                s.problems().expected(s.get("nics").list().get(i), s.keyPath("nics") + "[" + i + "]",
                        "a Linux interface name of at most 15 characters [A-Za-z0-9_.:-]");
            } else if (nics.indexOf(nics.get(i)) != i) {
                s.problems().expected(s.get("nics").list().get(i), s.keyPath("nics") + "[" + i + "]",
                        "each NIC once");
            }
        }
        s.finish();
        return new Resources(nodes, tasks, gpus, cpus, gpuBind, distribution, nics);
    }

    private static String matching(final Section s, final String key, final Pattern p, final String fallback,
                                   final String expected) {
        final String v = s.string(key, fallback);
        if (v != null && !p.matcher(v).matches()) {
            s.problems().expected(s.get(key), s.keyPath(key), expected);
            return fallback;
        }
        return v;
    }

    /** {@code nccl.debug} exports NCCL_DEBUG and NCCL_DEBUG_FILE itself: the job script must not set them twice. */
    private static void debugSetOnce(final Section s, final Map<String, String> nccl, final NcclOptions options) {
        if (!options.debug()) {
            return;
        }
        for (final String name : List.of("NCCL_DEBUG", "NCCL_DEBUG_FILE")) {
            if (nccl.containsKey(name)) {
                s.problems().add(s.keyWhere(name), s.keyPath(name), "nccl.debug: true already sets " + name
                        + " (INFO into a per-rank file under the output directory); remove it here, or set"
                        + " nccl.debug: false to choose NCCL's log yourself");
            }
        }
    }

    private static Map<String, String> ncclEnv(final Section s) {
        final Map<String, String> out = new LinkedHashMap<>();
        for (final Map.Entry<String, SpecValue> e : s.entries().entrySet()) {
            final String name = e.getKey();
            final String path = s.keyPath(name);
            final String value = envValue(s, e.getValue(), path);
            if (!NcclVariables.isKnown(name)) {
                s.problems().add(s.keyWhere(name), path, NcclVariables.unknownMessage(name));
            } else if (value != null) {
                final String problem = NcclVariables.check(name, value);
                if (problem != null) {
                    s.problems().add(e.getValue().where(), path, problem);
                } else {
                    out.put(name, value);
                }
            }
        }
        final String product = NcclVariables.checkTogether(out);
        if (product != null) {
            s.problems().add(s.at(), s.keyPath("NCCL_NSOCKS_PERTHREAD"), product);
        }
        return Collections.unmodifiableMap(out);
    }

    private static Map<String, String> env(final Section s) {
        final Map<String, String> out = new LinkedHashMap<>();
        for (final Map.Entry<String, SpecValue> e : s.entries().entrySet()) {
            final String name = e.getKey();
            final String path = s.keyPath(name);
            final String value = envValue(s, e.getValue(), path);
            if (name.startsWith("NCCL_")) {
                s.problems().add(s.keyWhere(name), path, "NCCL variables belong under nccl_env, where cctk checks"
                        + " them; move it there");
            } else if (name.startsWith(EnvVar.CCTK_PREFIX) && !USER_CCTK.contains(name)) {
                s.problems().add(s.keyWhere(name), path, "CCTK_ variables are cctk's own (its launchers set them"
                        + " for every rank); a spec may set only " + String.join(" and ", USER_CCTK));
            } else if (!SHELL_NAME.matcher(name).matches()) {
                s.problems().add(s.keyWhere(name), path, "expected a shell variable name [A-Za-z_][A-Za-z0-9_]*,"
                        + " found '" + Problems.printable(name) + "'");
            } else if (value != null) {
                out.put(name, value);
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** Environment values are scalars exported as text; numbers and booleans keep the text as written. */
    private static String envValue(final Section s, final SpecValue v, final String path) {
        if (!v.isScalar() || v.kind() == SpecValue.Kind.NULL) {
            s.problems().expected(v, path, "a value (a string or a number)");
            return null;
        }
        return s.safe(v, path) ? v.text() : null;
    }

    /** The world sizes, each checked against the allocation; used by {@link BenchmarkBuilder}. */
    static List<Integer> taskCounts(final Section s, final Resources r, final boolean checkAllocation) {
        final List<SpecValue> raw = s.listOrOne("tasks");
        if (raw == null) {
            return List.of(r.totalTasks());
        }
        final List<Integer> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            final boolean list = s.get("tasks").kind() == SpecValue.Kind.LIST;
            final String path = s.keyPath("tasks") + (list ? "[" + i + "]" : "");
            final int n = s.integer(raw.get(i), path, 1, Integer.MAX_VALUE, 0);
            if (checkAllocation && n > r.totalTasks()) {
                s.problems().expected(raw.get(i), path, "at most " + r.totalTasks() + " tasks (nodes "
                        + r.nodes() + " x tasks_per_node " + r.tasksPerNode() + ")");
            } else if (n > 0 && out.contains(n)) {
                s.problems().expected(raw.get(i), path, "each task count once");
            } else if (n > 0) {
                out.add(n);
            }
        }
        if (raw.isEmpty()) {
            s.problems().expected(s.get("tasks"), s.keyPath("tasks"), "at least one task count");
        }
        return out.isEmpty() ? List.of(r.totalTasks()) : List.copyOf(out);
    }
}
