package cctk.launch;

import cctk.CctkException;
import cctk.CpuList;
import cctk.Printable;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * Where {@code cctk run} places its ranks when they outnumber the CPUs it may use (its own affinity, so that
 * {@code taskset -c 0 cctk run ...} keeps them all on CPU 0): rank r is started under util-linux's
 * {@code taskset -c C}, C the (r mod n)-th of those n CPUs, so the same ranks share a core in every run (as
 * {@code mpirun --map-by core --bind-to core} places its ranks). Left to the kernel, which ranks share a core is
 * settled early in a run and kept to its end, and it differs between runs: over 4 back-to-back runs of 4 ranks on 2
 * vCPUs the median cell moved 1.34-1.42x unbound and 1.14x bound, the 1 MiB cells up to 2.4x unbound and 1.23x at
 * most bound (bench/RESULTS.md, issue 22, sets R-R3). Ranks that fit one a CPU are not bound:
 * the kernel keeps them apart, and rank 0's cross-core reading needs two CPUs. {@link Mode#NONE} (the
 * {@code --cpu-bind none} of {@code cctk run}) binds nothing; where taskset is missing nothing is bound either, and
 * {@link #describe} says so. Under Slurm, srun binds (its {@code --cpu-bind}), not this.
 * <b>Note:</b> threadsafe (immutable).
 */
public final class CpuBinding {

    /** Whether ranks that outnumber the CPUs are bound. */
    public enum Mode {
        /** Bound when they outnumber the CPUs (the default). */
        AUTO,
        /** Never bound: the kernel places them. */
        NONE;

        /** The mode {@code --cpu-bind} names ({@code auto} or {@code none}, any case); a usage error otherwise. */
        public static Mode ofFlag(final String text) {
            return switch (text == null ? "auto" : text.trim().toLowerCase(Locale.ROOT)) {
                case "auto" -> AUTO;
                case "none" -> NONE;
                default -> throw CctkException.usage("--cpu-bind: expected auto or none, found '"
                    + Printable.of(text) + "'.");
            };
        }
    }

    private final Mode mode;
    /** The CPUs this launcher may use; null when unknown (nothing is bound). */
    private final CpuList cpus;
    /** util-linux's taskset; null when none was found (nothing is bound). */
    private final Path taskset;

    /** A binding of ranks over {@code cpus} with {@code taskset} (either null: none is bound). */
    CpuBinding(final Mode mode, final CpuList cpus, final Path taskset) {
        this.mode = mode;
        this.cpus = cpus;
        this.taskset = taskset;
    }

    /** This launcher's binding: its allowed CPUs and the taskset on its PATH (or in /usr/bin, /bin). */
    public static CpuBinding of(final Mode mode) {
        return new CpuBinding(mode, CpuList.allowed(), mode == Mode.NONE ? null : tasksetOnPath(
            cctk.Environment.process().optional(cctk.EnvVar.PATH)));
    }

    /** The executable {@code taskset} on {@code path} (a PATH value; /usr/bin and /bin after it), or null. */
    static Path tasksetOnPath(final String path) {
        final String dirs = (path == null ? "" : path + File.pathSeparator) + "/usr/bin" + File.pathSeparator + "/bin";
        for (final String dir : dirs.split(File.pathSeparator, -1)) {
            if (dir.isEmpty() || !dir.startsWith("/")) {
                continue; // a relative entry resolves against wherever cctk runs: never trusted for a command
            }
            final Path p = Path.of(dir, "taskset");
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** Whether ranks of a world of {@code world} are bound. */
    public boolean binds(final int world) {
        return mode == Mode.AUTO && cpus != null && taskset != null && world > cpus.size();
    }

    /** What starts rank {@code rank} of {@code world} before its own command: nothing, or {@code taskset -c C}. */
    public List<String> prefix(final int rank, final int world) {
        if (!binds(world)) {
            return List.of();
        }
        return List.of(taskset.toString(), "-c", Integer.toString(cpu(rank)));
    }

    /** The CPU rank {@code rank} is bound to where ranks are bound. */
    int cpu(final int rank) {
        return cpus.get(rank % cpus.size());
    }

    /**
     * The launcher's line on how a world of {@code world} ranks is placed, or null where they fit one a CPU (or the
     * CPUs are unknown): which ranks each CPU holds, or why they are not bound.
     */
    public String describe(final int world) {
        if (cpus == null || world <= cpus.size()) {
            return null;
        }
        final String head = world + " ranks on " + cpus.size() + " CPU(s) (" + cpus.text() + ")";
        if (mode == Mode.NONE) {
            return head + ", not bound (--cpu-bind none): the kernel decides which ranks share a core, and that"
                + " changes between runs, so the figures move more between runs";
        }
        if (taskset == null) {
            return head + ", not bound: no taskset found (Debian's util-linux); the kernel decides which ranks share"
                + " a core, and that changes between runs, so the figures move more between runs";
        }
        final StringJoiner each = new StringJoiner("; ");
        for (int i = 0; i < cpus.size(); i++) {
            final StringJoiner ranks = new StringJoiner(",");
            for (int r = i; r < world; r += cpus.size()) {
                ranks.add(Integer.toString(r));
            }
            each.add("CPU " + cpus.get(i) + ": rank(s) " + ranks);
        }
        return head + ", each bound to one (taskset -c) so the same ranks share a core in every run: " + each;
    }
}
