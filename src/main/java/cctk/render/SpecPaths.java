package cctk.render;

import cctk.CctkException;
import cctk.spec.Benchmark;
import cctk.spec.Cluster;
import cctk.spec.Job;
import cctk.spec.JobSpec;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Makes the file paths of a spec absolute against a base directory (where {@code cctk render} ran), so that the
 * job script and the frozen spec mean the same files whichever directory {@code sbatch} is called from and
 * whatever directory the ranks start in.
 */
public final class SpecPaths {

    private SpecPaths() {
    }

    /**
     * The same spec with absolute {@code cluster.env_script}, {@code cluster.jar}, {@code cluster.java} (when it
     * names a file, i.e. holds a slash), {@code job.output_dir} and {@code benchmark.alltoallv.matrix}.
     * A leading {@code ~/} means the user's home directory.
     */
    public static JobSpec absolute(final JobSpec spec, final Path baseDir) {
        final Path base = baseDir.toAbsolutePath().normalize();
        final Job j = spec.job();
        final Job job = new Job(j.name(), resolve(base, "job.output_dir", j.outputDir()), j.timeLimit());
        final Cluster c = spec.cluster();
        final String java = c.java() != null && c.java().contains("/")
                ? resolve(base, "cluster.java", c.java()) : c.java();
        final Cluster cluster = new Cluster(c.name(), c.partition(), c.account(), c.qos(), c.constraint(),
                c.reservation(), c.sbatchExtra(), c.modules(), resolve(base, "cluster.env_script", c.envScript()),
                java, resolve(base, "cluster.jar", c.jar()), c.srunExtra());
        final Benchmark b = spec.benchmark();
        Benchmark benchmark = b;
        if (b != null && b.alltoallv() != null && b.alltoallv().matrixFile() != null) {
            final Benchmark.Imbalance imbalance = new Benchmark.Imbalance(b.alltoallv().spread(),
                    resolve(base, "benchmark.alltoallv.matrix", b.alltoallv().matrixFile()));
            benchmark = new Benchmark(b.backends(), b.taskCounts(), b.collectives(), b.sizes(), b.dtypes(),
                    b.ops(), b.warmupIters(), b.iters(), b.checkIters(), b.inPlace(), b.root(), imbalance,
                    b.timeoutSeconds(), b.jitWarmupSeconds(), b.repeats(), b.retime(), b.windowMillis(),
                    b.timeAcrossRanks());
        }
        final Path source = spec.source() == null ? null : base.resolve(spec.source()).normalize();
        return new JobSpec(source, job, cluster, spec.resources(), spec.ncclEnv(), spec.env(), benchmark,
                spec.references(), spec.nccl(), spec.diagnose());
    }

    /** One path against the base; null and blank stay as they are (not given). */
    static String resolve(final Path base, final String key, final String value) {
        if (value == null || value.isBlank()) {
            return value;
        }
        try {
            final String home = System.getProperty("user.home");
            final String expanded = value.equals("~") ? home
                    : value.startsWith("~/") ? home + value.substring(1) : value;
            return base.resolve(expanded).normalize().toString();
        } catch (InvalidPathException e) {
            throw CctkException.usage("'" + key + "' is not a usable path: " + e.getReason()
                    + ". Give a plain file path.");
        }
    }
}
