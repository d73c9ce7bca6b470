package cctk.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The per-user thread count and the pids cgroup as LocalCapacity reads them, over real files and threads. */
@Timeout(30)
class LocalCapacityTest {

    @TempDir
    Path dir;

    private void process(final Path proc, final String pid, final long uid, final int threads) throws IOException {
        Files.createDirectories(proc.resolve(pid));
        Files.writeString(proc.resolve(pid).resolve("status"), "Name:\tjava\nState:\tS (sleeping)\nUid:\t" + uid
                + "\t" + uid + "\t" + uid + "\t" + uid + "\nGid:\t0\t0\t0\t0\nThreads:\t" + threads + "\n");
    }

    @Test
    void countsOnlyTheThreadsOfTheCallersRealUid() throws IOException {
        final Path proc = dir.resolve("proc");
        process(proc, "1", 0, 1);
        process(proc, "200", 1000, 25);
        process(proc, "201", 1000, 3);
        process(proc, "300", 2000, 900); // a stranger's 900 sleeping threads
        Files.writeString(proc.resolve("loadavg"), "0.00 0.01 0.05 1/929 12345\n");
        Files.createDirectories(proc.resolve("self"));
        Files.createDirectories(proc.resolve("400")); // a process that ended while /proc was read: no status
        Files.createDirectories(proc.resolve("401"));
        Files.writeString(proc.resolve("401/status"), "Name:\tbroken\n");
        assertThat(LocalCapacity.userThreads(proc, 1000)).isEqualTo(28);
        assertThat(LocalCapacity.userThreads(proc, 2000)).isEqualTo(900);
        assertThat(LocalCapacity.userThreads(proc, 3000)).isZero();
        assertThat(LocalCapacity.userThreads(dir.resolve("no-proc"), 1000)).isZero();
        assertThat(LocalCapacity.realUid(proc.resolve("300/status"))).isEqualTo(2000);
    }

    @Test
    void seesThisProcesssOwnNewThreads() throws Exception {
        final long uid = LocalCapacity.realUid(Path.of("/proc/self/status"));
        assertThat(uid).isNotNegative();
        final CountDownLatch hold = new CountDownLatch(1);
        final List<Thread> started = new ArrayList<>();
        final long before = LocalCapacity.userThreads(Path.of("/proc"), uid);
        try {
            for (int i = 0; i < 50; i++) {
                final Thread t = new Thread(() -> {
                    try {
                        hold.await();
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                t.start();
                started.add(t);
            }
            final long with = LocalCapacity.userThreads(Path.of("/proc"), uid);
            // other processes of this user may come and go meanwhile; 50 of ours make the difference
            assertThat(with - before).isGreaterThanOrEqualTo(40);
        } finally {
            hold.countDown();
            for (final Thread t : started) {
                t.join();
            }
        }
    }

    /** Prints how many 200 MiB ranks fit, as LocalCapacity probes this machine. */
    public static final class Probe {
        public static void main(final String[] args) {
            System.out.println(LocalCapacity.probe().maxRanks(200L << 20));
        }
    }

    @Test
    void aProcessUnderUlimit150OnAQuietAccountFitsTwoRanks() throws Exception {
        final long uid = LocalCapacity.realUid(Path.of("/proc/self/status"));
        // this JVM's own threads count too: only where this user runs few others can the child start at all
        Assumptions.assumeTrue(uid == 0 || LocalCapacity.userThreads(Path.of("/proc"), uid) < 70,
                "this user already runs too many threads for ulimit -u 150");
        final String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Process p = new ProcessBuilder("bash", "-c", "ulimit -S -u 150 && exec \"$0\" -XX:+UseSerialGC"
                + " -XX:TieredStopAtLevel=1 -cp \"$1\" \"$2\"", javaBin, System.getProperty("java.class.path"),
                Probe.class.getName()).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(Integer.parseInt(out.trim())).as("ranks that fit under ulimit -u 150").isGreaterThanOrEqualTo(2);
    }

    @Test
    void anIdleUserUnderUlimit150FitsTwoRanks() {
        // ulimit -u 150 less the launcher JVM (about 20 threads) and a shell
        final LocalCapacity idle = new LocalCapacity(2, 8L << 30, "test", 150 - 30, "test");
        assertThat(idle.maxRanks(LocalCapacity.RANK_BASE_BYTES)).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aRanksThreadsGrowWithTheJitCompilersOfTheMachine() {
        assertThat(LocalCapacity.threadsPerRank(2)).isEqualTo(LocalCapacity.RANK_THREADS_BESIDES_COMPILERS + 2);
        assertThat(LocalCapacity.threadsPerRank(4)).isEqualTo(LocalCapacity.RANK_THREADS_BESIDES_COMPILERS + 3);
        assertThat(LocalCapacity.threadsPerRank(128)).isEqualTo(LocalCapacity.RANK_THREADS_BESIDES_COMPILERS + 21);
    }

    @Test
    void pidsCgroupV2TakesTheTightestLevelOfTheCallersCgroup() throws IOException {
        final Path root = dir.resolve("cg2");
        final Path leaf = root.resolve("user.slice/job");
        Files.createDirectories(leaf);
        Files.writeString(root.resolve("user.slice/pids.max"), "100\n");
        Files.writeString(root.resolve("user.slice/pids.current"), "70\n");
        Files.writeString(leaf.resolve("pids.max"), "max\n");
        Files.writeString(leaf.resolve("pids.current"), "10\n");
        assertThat(LocalCapacity.cgroupPidsLeft(root, List.of("0::/user.slice/job"))).isEqualTo(30);
        assertThat(LocalCapacity.cgroupPidsLeft(root, List.of("0::/elsewhere"))).isEqualTo(-1);
        Files.writeString(leaf.resolve("pids.max"), "20\n");
        assertThat(LocalCapacity.cgroupPidsLeft(root, List.of("0::/user.slice/job"))).isEqualTo(10);
    }

    @Test
    void pidsCgroupV1IsTheControllersOwnMount() throws IOException {
        final Path root = dir.resolve("cg1");
        Files.createDirectories(root.resolve("pids/slurm/job_7"));
        Files.writeString(root.resolve("pids/slurm/job_7/pids.max"), "500\n");
        Files.writeString(root.resolve("pids/slurm/job_7/pids.current"), "120\n");
        Files.writeString(root.resolve("pids/pids.max"), "max\n");
        assertThat(LocalCapacity.cgroupPidsLeft(root, List.of("9:name=systemd:/", "8:pids:/slurm/job_7",
                "4:memory:/x", "0::/"))).isEqualTo(380);
        assertThat(LocalCapacity.cgroupPidsLeft(root, List.of("8:pids:/"))).isEqualTo(-1);
    }
}
