package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.ExitCode;
import cctk.bench.fixture.CountingCommunicator;
import cctk.bench.fixture.ThreadCommunicator;
import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.store.StoreClient;
import cctk.store.StoreServer;
import cctk.results.RankInfo;
import cctk.spec.Benchmark;
import cctk.spec.MessageSize;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cost model of a point, at 1,024 ranks (threads) against the real store over loopback: rank 0 makes no store
 * round trip per point and sends log2(W) small messages for the point's figures; its store traffic is per run (the
 * rank lines, once) and per size (one request: it has read the machine after the size, {@link MachineWatch}, and the
 * ranks of its host wait on that off the CPUs), and the store holds nothing once the run ends. Counts, not times; one
 * repeat per point (each repeat costs the same again), measured raw (re-timing off), so that no loop is timed again
 * and no disturbed repeat replaced by another.
 */
@Timeout(300)
class PerPointCostTest {

    private static final int WORLD = 1024;
    private static final int ITERS = 2;
    private static final byte[] SECRET = "per-point-cost".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    /** {store requests, store bytes, sendRecv calls, sendRecv bytes} of rank 0 before each point, then at the end. */
    private final List<long[]> marks = new ArrayList<>();

    @Test
    void rankZeroPaysLogWSmallMessagesPerPointAndOneStoreRoundTripPerSize() {
        final Benchmark b = new Benchmark(List.of("threads"), List.of(WORLD), List.of(CollectiveType.BROADCAST),
            List.of(new MessageSize(4, false), new MessageSize(64, false), new MessageSize(1024, false)),
            List.of(DType.FLOAT32), List.of(ReduceOp.SUM), 1, ITERS, 1, Benchmark.InPlace.OUT_OF_PLACE, 0,
            new Benchmark.Imbalance(1.0, null), 60, 0).withRepeats(1, false);
        final Duration timeout = Duration.ofSeconds(120);
        final StringWriter progress = new StringWriter();
        try (StoreServer server = StoreServer.start("localhost", List.of(InetAddress.getLoopbackAddress()), 0, WORLD,
                SECRET, timeout, line -> { })) {
            final ThreadCommunicator.Shared shared = ThreadCommunicator.shared(WORLD);
            // 1,024 threads connect to the store over loopback on 2 cores before their first collective: counts, not
            // times, so the first barrier waits as long as connecting takes
            shared.barrierSeconds = 120;
            final List<ExitCode> codes = ThreadCommunicator.run(WORLD, shared, thread -> {
                final CountingCommunicator comm = new CountingCommunicator(thread);
                try (StoreClient store = StoreClient.connect("127.0.0.1", server.port(), comm.rank(), WORLD,
                        "host", SECRET, timeout)) {
                    final PointHook hook = (rank, sizesDone) -> {
                        if (rank == 0) {
                            mark(server, comm);
                        }
                    };
                    final RunContext ctx = new RunContext("test", Path.of("t.yaml"), "job1", new RankInfo(comm.rank(),
                        "host", 1, comm.rank(), 0, "cpu", "default"), dir, Map.of(), hook, null);
                    final ExitCode code = new Harness(comm, store, HarnessTest.spec(b), ctx,
                        new PrintWriter(comm.rank() == 0 ? progress : new StringWriter())).run();
                    if (comm.rank() == 0) {
                        mark(server, comm);
                    }
                    return code;
                }
            });
            assertThat(codes).containsOnly(ExitCode.OK);
            final int steps = Integer.numberOfTrailingZeros(WORLD);
            final long figureBytes = 8L * (PointStats.SLOTS + ITERS);
            final StringBuilder table = new StringBuilder("W=" + WORLD + ", rank 0, per point:"
                + " store round trips, store bytes, reduction steps, bytes sent\n");
            for (int p = 0; p + 1 < marks.size(); p++) {
                final long[] d = new long[4];
                for (int k = 0; k < 4; k++) {
                    d[k] = marks.get(p + 1)[k] - marks.get(p)[k];
                }
                table.append("  point ").append(p).append(": ").append(d[0]).append(", ").append(d[1]).append(", ")
                    .append(d[2]).append(", ").append(d[3]).append('\n');
                if (p + 2 < marks.size()) {
                    // one point a size here: the machine read after it, and the ranks of rank 0's host told so
                    assertThat(d[0]).as("store round trips of rank 0 during point %d", p).isEqualTo(1);
                    assertThat(d[2]).as("reduction steps").isEqualTo(steps);
                    assertThat(d[3]).as("bytes rank 0 sent").isEqualTo(steps * figureBytes);
                } else {
                    // after the last point: the machine read after its size (one request), the run ends: rank 0
                    // says it has read the machine (one request: the others wait on it, off the CPUs), and once
                    // every rank has read (a store barrier) it drops the run's keys: four requests
                    assertThat(d[0]).isEqualTo(4);
                }
            }
            final long[] before = marks.get(0);
            table.append("  per run before the first point: ").append(before[0]).append(" store round trips, ")
                .append(before[1]).append(" bytes (rank lines, buffers' agreement); keys left in the store: ")
                .append(server.keys());
            System.out.println(table);
            assertThat(marks).hasSize(3 + 1);
            // per run, not per point: rank 0 sets its rank line, gets every rank's, drops them, and says it has read
            // the machine before the first size (and no more)
            assertThat(before[0]).isBetween((long) WORLD + 2, (long) WORLD + 5);
            assertThat(server.keys()).as("keys held after the run").isZero();
        }
    }

    private synchronized void mark(final StoreServer server, final CountingCommunicator comm) {
        final long[] t = server.traffic(0);
        final long[] s = comm.sendRecvs();
        marks.add(new long[] {t[0], t[1], s[0], s[1]});
    }
}
