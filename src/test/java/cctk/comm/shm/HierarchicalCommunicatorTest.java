package cctk.comm.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
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
                    }
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
    void alltoallvAndSendrecvAcrossNodesAreRefusedAlike(final int world, final int perNode) throws Exception {
        final List<String> reasons = run(world, perNode, comm -> {
            final CommBuffer b = comm.allocate(64);
            assertThatThrownBy(() -> comm.sendRecv(b, 0, b, 0, 1, DType.INT8)).isInstanceOf(CctkException.class);
            assertThat(comm.transport()).startsWith("node " + comm.rank() / perNode + " of 2: shm to rank");
            return comm.unsupported("alltoallv", DType.FLOAT32, null, false) + " / "
                    + comm.unsupported("sendrecv", DType.FLOAT32, null, true) + " / "
                    + comm.unsupported("all_reduce", DType.FLOAT32, ReduceOp.SUM, true);
        });
        assertThat(reasons).containsOnly("the hierarchical backend runs alltoallv only within one node / the"
                + " hierarchical backend runs sendrecv only within one node / null");
    }

    interface Body<T> {
        T run(HierarchicalCommunicator comm) throws Exception;
    }

    private <T> List<T> run(final int world, final int perNode, final Body<T> body) throws Exception {
        final MemoryStore store = new MemoryStore(world, Duration.ofSeconds(60));
        final ShmOptions options = ShmWorld.options(dir, Duration.ofSeconds(60));
        final TcpOptions tcp = TcpOptions.local(Duration.ofSeconds(60), "test/leaders", ShmWorld.SECRET);
        final ExecutorService pool = Executors.newFixedThreadPool(world);
        try {
            final List<Future<T>> futures = new ArrayList<>();
            for (int r = 0; r < world; r++) {
                final int rank = r;
                futures.add(pool.submit(() -> {
                    try (HierarchicalCommunicator comm = HierarchicalCommunicator.connect(options, rank, world,
                            perNode, store, node -> TcpCommunicator.connect(tcp, node, world / perNode, store))) {
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
