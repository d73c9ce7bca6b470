package cctk.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * A CPU quota for one rank of a test job: a cgroup of the CPU controller (cgroup v2's {@code cpu.max}, or v1's CFS
 * quota) allowing {@code percent} % of one CPU per 100 ms period, and a watcher that moves the rank's process into it
 * the moment it appears (found by its environment: the job's name and {@code SLURM_PROCID}). Needs root; where no
 * CPU controller can be written the test that asked aborts, loudly, as skipped and not passed.
 * <b>Note:</b> not threadsafe; {@link #capWhenStarted} runs on one watcher thread.
 */
final class CpuCap {

    private final Path dir;
    private volatile int capped;

    private CpuCap(final Path dir) {
        this.dir = dir;
    }

    /** Makes the cgroup {@code name} at {@code percent} % of one CPU. */
    static CpuCap make(final String name, final int percent) throws IOException {
        final Path v2 = Path.of("/sys/fs/cgroup/cgroup.controllers");
        final Path v1 = Path.of("/sys/fs/cgroup/cpu");
        try {
            if (Files.isRegularFile(v2)) {
                final Path d = Path.of("/sys/fs/cgroup", name);
                Files.writeString(Path.of("/sys/fs/cgroup/cgroup.subtree_control"), "+cpu");
                Files.createDirectories(d);
                Files.writeString(d.resolve("cpu.max"), percent * 1000 + " 100000");
                return new CpuCap(d);
            }
            if (Files.isDirectory(v1) && Files.isRegularFile(v1.resolve("cpu.cfs_quota_us"))) {
                final Path d = v1.resolve(name);
                Files.createDirectories(d);
                Files.writeString(d.resolve("cpu.cfs_period_us"), "100000");
                Files.writeString(d.resolve("cpu.cfs_quota_us"), Integer.toString(percent * 1000));
                return new CpuCap(d);
            }
        } catch (final IOException e) {
            skip("cannot make a CPU-quota cgroup (" + e + "); the test needs root and a writable CPU controller");
        }
        skip("no cgroup CPU controller under /sys/fs/cgroup; the test needs one");
        return null;
    }

    private static void skip(final String why) {
        System.out.println("!!! SKIPPED, NOT PASSED: " + why);
        org.junit.jupiter.api.Assumptions.abort("SKIPPED, NOT PASSED: " + why);
    }

    /** Waits (at most {@code limit}) for rank {@code rank} of job {@code jobName} and moves it into the cgroup. */
    void capWhenStarted(final String jobName, final int rank, final Duration limit) {
        final long end = System.nanoTime() + limit.toNanos();
        final List<String> want = List.of("SLURM_JOB_NAME=" + jobName, "SLURM_PROCID=" + rank);
        while (System.nanoTime() < end && !Thread.currentThread().isInterrupted()) {
            try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
                for (final Path p : procs.filter(q -> q.getFileName().toString().matches("[0-9]+")).toList()) {
                    if (isRank(p, want)) {
                        Files.writeString(dir.resolve("cgroup.procs"), p.getFileName().toString());
                        capped = Integer.parseInt(p.getFileName().toString());
                        return;
                    }
                }
                Thread.sleep(50);
            } catch (final IOException e) {
                // a process ended while we looked: look again
            } catch (final InterruptedException e) {
                return;
            }
        }
    }

    private static boolean isRank(final Path proc, final List<String> want) {
        try {
            final String cmd = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8);
            if (!cmd.contains("cctk.jar") || !cmd.contains("\0rank")) {
                return false;
            }
            final List<String> env = List.of(new String(Files.readAllBytes(proc.resolve("environ")),
                    StandardCharsets.UTF_8).split("\0"));
            return env.containsAll(want);
        } catch (final IOException e) {
            return false;
        }
    }

    /** The pid capped, 0 if none yet. */
    int capped() {
        return capped;
    }

    /** Moves every process back to the root cgroup and removes this one. */
    void remove() throws IOException {
        final Path procs = dir.resolve("cgroup.procs");
        final Path root = dir.getParent().resolve("cgroup.procs");
        if (Files.isRegularFile(procs)) {
            for (final String pid : Files.readAllLines(procs)) {
                try {
                    Files.writeString(root, pid);
                } catch (final IOException e) {
                    // it ended meanwhile
                }
            }
        }
        Files.deleteIfExists(dir);
    }
}
