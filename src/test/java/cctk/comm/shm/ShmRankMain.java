package cctk.comm.shm;

import cctk.CctkException;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.FileStore;
import cctk.comm.ReduceOp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One rank as its own process, for {@link ShmProcessesIT}: args RANK WORLD STORE_DIR SHM_DIR DEADLINE_S MODE.
 * check: a round of every collective, checked; exit 0 or 1. loop: the check, then "rank R ready" on stdout, then
 * all-reduce until something fails; a failure prints its message on stderr and exits 3. hold: the check, a line on
 * stdin (sent once the peers have allocated theirs: an allocation maps every peer's published buffers), two more
 * buffers, "rank R ready", then nothing (until killed).
 */
public final class ShmRankMain {

    private ShmRankMain() {
    }

    public static void main(final String[] args) {
        final int rank = Integer.parseInt(args[0]);
        final int world = Integer.parseInt(args[1]);
        final ShmOptions options = ShmWorld.options(Path.of(args[3]), Duration.ofSeconds(Long.parseLong(args[4])));
        try (ShmCommunicator comm = ShmCommunicator.connect(options, rank, world,
                new FileStore(Path.of(args[2]), rank, Duration.ofSeconds(60)))) {
            final List<String> bad = new ArrayList<>();
            for (final DType type : new DType[] {DType.FLOAT32, DType.BFLOAT16, DType.INT8}) {
                for (final boolean inPlace : new boolean[] {false, true}) {
                    ShmCollectivesTest.allReduce(comm, type, ReduceOp.SUM, 300_001, inPlace, bad);
                    ShmCollectivesTest.allReduce(comm, type, ReduceOp.MAX, 1000, inPlace, bad);
                    ShmCollectivesTest.reduceScatter(comm, type, ReduceOp.AVG, 70_001, inPlace, bad);
                    ShmCollectivesTest.reduce(comm, type, ReduceOp.MIN, 70_001, inPlace, 1, bad);
                    ShmDataMovementTest.allGather(comm, type, 70_001, inPlace, bad);
                    ShmDataMovementTest.broadcast(comm, type, 70_001, inPlace, 2, bad);
                    ShmDataMovementTest.allToAll(comm, type, 70_001, inPlace, bad);
                    ShmDataMovementTest.sendRecvRing(comm, type, 70_001, inPlace, bad);
                }
                ShmDataMovementTest.allToAllv(comm, type, 5000, bad);
            }
            if (!bad.isEmpty()) {
                System.err.println("rank " + rank + ": " + bad);
                System.exit(1);
            }
            if ("hold".equals(args[5]) && new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                    java.nio.charset.StandardCharsets.UTF_8)).readLine() == null) {
                System.exit(4); // the test went away before saying its peers had allocated theirs
            }
            final CommBuffer b = comm.allocate(16 << 20);
            comm.allocate(1 << 20); // never used in a collective: its file stays until the buffer is freed
            System.out.println("rank " + rank + " ready");
            System.out.flush();
            while ("loop".equals(args[5])) {
                comm.allReduce(b, b, 4 << 20, DType.FLOAT32, ReduceOp.MAX);
            }
            while ("hold".equals(args[5])) {
                Thread.sleep(1000); // never joins another collective: no peer maps its last buffers
            }
        } catch (final CctkException e) {
            System.err.println(e.getMessage());
            System.exit(e.exitCode().code());
        } catch (final InterruptedException | java.io.IOException e) {
            System.exit(4);
        }
    }
}
