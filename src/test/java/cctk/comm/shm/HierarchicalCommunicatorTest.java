package cctk.comm.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import cctk.comm.tcp.TcpCommunicator;
import cctk.comm.tcp.TcpOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Two-level collectives on simulated nodes: W ranks as threads of this host grouped in blocks of k, each block a
 * shared-memory group, the blocks' first ranks joined by a tcp communicator over loopback.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class HierarchicalCommunicatorTest {

    private Path dir;

    @BeforeEach
    void directory() throws Exception {
        dir = ShmWorld.directory();
    }

    @AfterEach
    void clean() throws Exception {
        assertThat(ShmWorld.files(dir)).isEmpty();
        ShmWorld.delete(dir);
    }

    @ParameterizedTest
    @CsvSource({"4, 2", "6, 2", "6, 3", "3, 1"})
    void everyCollectiveMatchesTheReference(final int world, final int perNode) throws Exception {
        for (final List<String> bad : run(world, perNode, comm -> {
            final List<String> out = new ArrayList<>();
            for (final DType type : new DType[] {DType.FLOAT32, DType.BFLOAT16, DType.INT8, DType.INT64}) {
                for (final ReduceOp op : new ReduceOp[] {ReduceOp.SUM, ReduceOp.MAX, ReduceOp.AVG}) {
                    for (final int count : new int[] {1, 7, 70_001}) {
                        for (final boolean inPlace : new boolean[] {false, true}) {
                            ShmCollectivesTest.allReduce(comm, type, op, count, inPlace, out);
                            ShmCollectivesTest.reduceScatter(comm, type, op, count / world + 1, inPlace, out);
                            for (int root = 0; root < world; root++) {
                                ShmCollectivesTest.reduce(comm, type, op, count, inPlace, root, out);
                            }
                        }
                    }
                }
                for (final int count : new int[] {1, 5, 70_001}) {
                    for (final boolean inPlace : new boolean[] {false, true}) {
                        ShmDataMovementTest.allGather(comm, type, count, inPlace, out);
                        for (int root = 0; root < world; root++) {
                            ShmDataMovementTest.broadcast(comm, type, count, inPlace, root, out);
                        }
                        ShmDataMovementTest.allToAll(comm, type, count / world + 1, inPlace, out);
                        ShmDataMovementTest.sendRecvRing(comm, type, count, inPlace, out);
                    }
                    ShmDataMovementTest.allToAllv(comm, type, count, out);
                }
                comm.barrier();
            }
            return out;
        })) {
            assertThat(bad).isEmpty();
        }
    }

    @ParameterizedTest
    @CsvSource({"4, 2"})
    void withoutAFlatCommunicatorAlltoallvAndSendrecvAcrossNodesAreRefusedAlike(final int world, final int perNode)
            throws Exception {
        final List<String> reasons = run(world, perNode, false, comm -> {
            final CommBuffer b = comm.allocate(64);
            assertThatThrownBy(() -> comm.sendRecv(b, 0, b, 0, 1, DType.INT8)).isInstanceOf(CctkException.class);
            assertThat(comm.transports()).startsWith("node " + comm.rank() / perNode + " of 2: shm to rank");
            return comm.unsupported(CollectiveType.ALLTOALLV, DType.FLOAT32, null, false) + " / "
                    + comm.unsupported(CollectiveType.SENDRECV, DType.FLOAT32, null, true) + " / "
                    + comm.unsupported(CollectiveType.ALL_REDUCE, DType.FLOAT32, ReduceOp.SUM, true);
        });
        assertThat(reasons).containsOnly("the hierarchical backend runs alltoallv only within one node / the"
                + " hierarchical backend runs sendrecv only within one node / null");
    }

    interface Body<T> {
        T run(HierarchicalCommunicator comm) throws Exception;
    }

    @ParameterizedTest
    @CsvSource({"4, 2"})
    void theHeaderNamesEveryLevelInWorldRanks(final int world, final int perNode) throws Exception {
        final List<String> said = run(world, perNode, true, comm -> {
            final CommBuffer b = comm.allocate(1 << 20);
            comm.allReduce(b, b, 1 << 18, DType.FLOAT32, ReduceOp.SUM);
            comm.sendRecv(b, comm.rank() ^ 2, b.slice(1 << 19, 1 << 19), comm.rank() ^ 2, 1 << 17, DType.FLOAT32);
            comm.free(b);
            return comm.transports().replaceAll(" \\(zero-copy[^)]*\\)", "");
        });
        assertThat(said).containsExactly(
                "node 0 of 2: shm to rank 1; tcp over lo to rank 2 (leaders); tcp over lo to rank 2 (sendrecv, alltoallv)",
                "node 0 of 2: shm to rank 0; tcp over lo to rank 3 (sendrecv, alltoallv)",
                "node 1 of 2: shm to rank 3; tcp over lo to rank 0 (leaders); tcp over lo to rank 0 (sendrecv, alltoallv)",
                "node 1 of 2: shm to rank 2; tcp over lo to rank 1 (sendrecv, alltoallv)");
    }

    private <T> List<T> run(final int world, final int perNode, final Body<T> body) throws Exception {
        return run(world, perNode, true, body);
    }

    private <T> List<T> run(final int world, final int perNode, final boolean withFlat, final Body<T> body)
            throws Exception {
        final MemoryStore store = new MemoryStore(world, Duration.ofSeconds(60));
        final ShmOptions options = ShmWorld.options(dir, Duration.ofSeconds(60));
        final TcpOptions tcp = TcpOptions.local(Duration.ofSeconds(60), "test/leaders", ShmWorld.SECRET);
        final List<Integer> leaderRanks = new ArrayList<>();
        for (int n = 0; n < world / perNode; n++) {
            leaderRanks.add(n * perNode);
        }
        final ExecutorService pool = Executors.newFixedThreadPool(world);
        try {
            final List<Future<T>> futures = new ArrayList<>();
            for (int r = 0; r < world; r++) {
                final int rank = r;
                futures.add(pool.submit(() -> {
                    try (HierarchicalCommunicator comm = HierarchicalCommunicator.connect(options, rank, world,
                            perNode, store, node -> TcpCommunicator.connect(tcp.namingRanks(leaderRanks), node,
                                    world / perNode, store), withFlat ? TcpCommunicator.connect(
                                    tcp.withKeyPrefix("test/flat"), rank, world, store) : null)) {
                        return body.run(comm);
                    }
                }));
            }
            final List<T> out = new ArrayList<>();
            for (final Future<T> f : futures) {
                out.add(f.get(240, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
