package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.CsvRows;
import cctk.ExitCode;
import cctk.bench.fixture.ThreadCommunicator;
import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import cctk.comm.nccl.NcclTypes;
import cctk.spec.Benchmark;
import cctk.spec.MessageSize;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backend that cannot run a variant (Communicator.unsupported: nccl's in-place all-to-all and send/recv, or
 * bfloat16 on an NCCL before 2.10) gets a skipped row with its reason instead of running it; the rest still runs.
 */
@Timeout(120)
class UnsupportedRowTest {

    @TempDir
    Path dir;

    /** The thread backend answering unsupported() as nccl 2.8.4 would. */
    private static Communicator asOldNccl(final Communicator c) {
        return new Communicator() {
            @Override
            public int rank() {
                return c.rank();
            }

            @Override
            public int size() {
                return c.size();
            }

            @Override
            public String backend() {
                return c.backend();
            }

            @Override
            public CommBuffer allocate(final long bytes) {
                return c.allocate(bytes);
            }

            @Override
            public void allReduce(final CommBuffer s, final CommBuffer r, final long n, final DType t,
                                  final ReduceOp o) {
                c.allReduce(s, r, n, t, o);
            }

            @Override
            public void allGather(final CommBuffer s, final CommBuffer r, final long n, final DType t) {
                c.allGather(s, r, n, t);
            }

            @Override
            public void reduceScatter(final CommBuffer s, final CommBuffer r, final long n, final DType t,
                                      final ReduceOp o) {
                c.reduceScatter(s, r, n, t, o);
            }

            @Override
            public void broadcast(final CommBuffer s, final CommBuffer r, final long n, final DType t, final int root) {
                c.broadcast(s, r, n, t, root);
            }

            @Override
            public void reduce(final CommBuffer s, final CommBuffer r, final long n, final DType t, final ReduceOp o,
                               final int root) {
                c.reduce(s, r, n, t, o, root);
            }

            @Override
            public void allToAll(final CommBuffer s, final CommBuffer r, final long n, final DType t) {
                refuse(CollectiveType.ALLTOALL, s, r, t);
                c.allToAll(s, r, n, t);
            }

            @Override
            public void allToAllv(final CommBuffer s, final long[] sc, final long[] sd, final CommBuffer r,
                                  final long[] rc, final long[] rd, final DType t) {
                c.allToAllv(s, sc, sd, r, rc, rd, t);
            }

            @Override
            public void sendRecv(final CommBuffer s, final int sp, final CommBuffer r, final int rp, final long n,
                                 final DType t) {
                refuse(CollectiveType.SENDRECV, s, r, t);
                c.sendRecv(s, sp, r, rp, n, t);
            }

            /** What a real old NCCL would not run: a call here is a variant the harness should have skipped. */
            private void refuse(final CollectiveType coll, final CommBuffer s, final CommBuffer r, final DType t) {
                final String why = unsupported(coll, t, null, s == r);
                if (why != null) {
                    throw new IllegalStateException(coll.specName() + " ran although unsupported: " + why);
                }
            }

            @Override
            public String unsupported(final CollectiveType coll, final DType t, final ReduceOp o,
                                      final boolean inPlace) {
                return NcclTypes.unsupported(coll, t, o, inPlace, 2804);
            }

            @Override
            public void barrier() {
                c.barrier();
            }

            @Override
            public void synchronize() {
                c.synchronize();
            }

            @Override
            public void close() {
                c.close();
            }
        };
    }

    /** The JIT warm-up runs only what the sweep would: in place alone, in bfloat16 alone, nothing of these two. */
    @Test
    void theJitWarmUpSkipsWhatTheSweepRefuses() throws IOException {
        final Benchmark b = new Benchmark(List.of("threads"), List.of(1), List.of(CollectiveType.ALLTOALL,
                CollectiveType.SENDRECV), List.of(new MessageSize(1024, false)), List.of(DType.BFLOAT16),
                List.of(ReduceOp.SUM), 1, 2, 1, Benchmark.InPlace.IN_PLACE, 0, new Benchmark.Imbalance(2.0, null), 30,
                2);
        final MemoryStore store = new MemoryStore(2, java.time.Duration.ofSeconds(20));
        final StringWriter progress = new StringWriter();
        final List<ExitCode> codes = ThreadCommunicator.run(2, ThreadCommunicator.shared(2), comm -> {
            final RunContext ctx = new RunContext("0.1.0-test", Path.of("configs/t.yaml"), "job8",
                    new cctk.results.RankInfo(comm.rank(), "host-" + comm.rank(), 1, 0, comm.rank(), "cpu", "default"),
                    dir, Map.of());
            return new Harness(asOldNccl(comm), store, HarnessTest.spec(b), ctx, new PrintWriter(progress)).run();
        });
        assertThat(codes).as(progress.toString()).containsOnly(ExitCode.OK);
        assertThat(HarnessTest.csv(dir)).hasSize(2)
                .allSatisfy(r -> assertThat(r.get("skipped")).startsWith("no in-place form"));
    }

    @Test
    void unsupportedVariantsAreSkippedWithTheBackendsReason() throws IOException {
        final Benchmark b = HarnessTest.bench(List.of(CollectiveType.ALL_REDUCE, CollectiveType.ALLTOALL,
                CollectiveType.SENDRECV), List.of(DType.FLOAT32, DType.BFLOAT16), List.of(ReduceOp.SUM),
                List.of(new MessageSize(1024, false)), 1, Benchmark.InPlace.BOTH);
        final MemoryStore store = new MemoryStore(2, java.time.Duration.ofSeconds(20));
        final StringWriter progress = new StringWriter();
        final List<ExitCode> codes = ThreadCommunicator.run(2, ThreadCommunicator.shared(2), comm -> {
            final RunContext ctx = new RunContext("0.1.0-test", Path.of("configs/t.yaml"), "job7",
                    new cctk.results.RankInfo(comm.rank(), "host-" + comm.rank(), 1, 0, comm.rank(), "cpu", "default"),
                    dir, Map.of());
            return new Harness(asOldNccl(comm), store, HarnessTest.spec(b), ctx, new PrintWriter(progress)).run();
        });
        assertThat(codes).as(progress.toString()).containsOnly(ExitCode.OK);
        final List<Map<String, String>> rows = HarnessTest.csv(dir);
        // in-place all-to-all and send/recv are refused first, whatever the type
        assertThat(rows).filteredOn(r -> r.get("dtype").equals("bfloat16")
                && (r.get("collective").equals("all_reduce") || r.get("in_place").equals("false")))
                .hasSize(4)
                .allSatisfy(r -> assertThat(r.get("skipped"))
                        .isEqualTo("bfloat16 needs NCCL 2.10.0 or newer; this node's is 2.8.4"));
        assertThat(rows).filteredOn(r -> r.get("dtype").equals("float32") && !r.get("collective").equals("all_reduce")
                && r.get("in_place").equals("true"))
                .hasSize(2).allSatisfy(r -> assertThat(r.get("skipped")).startsWith("no in-place form on nccl"));
        assertThat(rows).filteredOn(r -> r.get("dtype").equals("float32")
                && (r.get("collective").equals("all_reduce") || r.get("in_place").equals("false")))
                .hasSize(4).allSatisfy(r -> assertThat(r.get("skipped")).as(CsvRows.show(r)).isEmpty())
                .allSatisfy(r -> assertThat(r.get("wrong")).isEqualTo("0"));
    }
}
