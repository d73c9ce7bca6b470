package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.ExitCode;
import cctk.bench.fixture.ThreadCommunicator;
import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.IterationTimer;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import cctk.spec.Benchmark;
import cctk.spec.MessageSize;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A communicator's own timer (CUDA events for nccl) replaces the host clock in the harness; others keep it. */
@Timeout(60)
class IterationTimerTest {

    @TempDir
    Path dir;

    /** A thread communicator that times every iteration as 250 µs and counts what it was asked to time. */
    static class FixedClock implements Communicator, IterationTimer.Source {
        final Communicator inner;
        final AtomicInteger timedIterations = new AtomicInteger();

        FixedClock(final Communicator inner) {
            this.inner = inner;
        }

        @Override
        public IterationTimer iterationTimer() {
            return (n, iteration) -> {
                for (int i = 0; i < n; i++) {
                    iteration.run();
                    timedIterations.incrementAndGet();
                }
                inner.synchronize();
                final double[] t = new double[n];
                Arrays.fill(t, 250.0);
                return t;
            };
        }

        // CHECKSTYLE.OFF: the rest delegates
        @Override public int rank() { return inner.rank(); }
        @Override public int size() { return inner.size(); }
        @Override public String backend() { return inner.backend(); }
        @Override public CommBuffer allocate(final long b) { return inner.allocate(b); }
        @Override public void allReduce(final CommBuffer s, final CommBuffer r, final long c, final DType t,
                                        final ReduceOp o) { inner.allReduce(s, r, c, t, o); }
        @Override public void allGather(final CommBuffer s, final CommBuffer r, final long c, final DType t) {
            inner.allGather(s, r, c, t); }
        @Override public void reduceScatter(final CommBuffer s, final CommBuffer r, final long c, final DType t,
                                            final ReduceOp o) { inner.reduceScatter(s, r, c, t, o); }
        @Override public void broadcast(final CommBuffer s, final CommBuffer r, final long c, final DType t,
                                        final int root) { inner.broadcast(s, r, c, t, root); }
        @Override public void reduce(final CommBuffer s, final CommBuffer r, final long c, final DType t,
                                     final ReduceOp o, final int root) { inner.reduce(s, r, c, t, o, root); }
        @Override public void allToAll(final CommBuffer s, final CommBuffer r, final long c, final DType t) {
            inner.allToAll(s, r, c, t); }
        @Override public void allToAllv(final CommBuffer s, final long[] sc, final long[] sd, final CommBuffer r,
                                        final long[] rc, final long[] rd, final DType t) {
            inner.allToAllv(s, sc, sd, r, rc, rd, t); }
        @Override public void sendRecv(final CommBuffer s, final int sp, final CommBuffer r, final int rp,
                                       final long c, final DType t) { inner.sendRecv(s, sp, r, rp, c, t); }
        @Override public void barrier() { inner.barrier(); }
        @Override public void synchronize() { inner.synchronize(); }
        @Override public void close() { inner.close(); }
        // CHECKSTYLE.ON
    }

    @Test
    void theCommunicatorsTimerIsUsedAndItsTimesReachTheResults() throws Exception {
        final Benchmark b = HarnessTest.bench(List.of(CollectiveType.ALL_REDUCE, CollectiveType.ALL_GATHER),
                List.of(DType.FLOAT32), List.of(ReduceOp.SUM), List.of(new MessageSize(4096, false)), 1,
                Benchmark.InPlace.OUT_OF_PLACE);
        final MemoryStore store = new MemoryStore(2, java.time.Duration.ofSeconds(20));
        final AtomicInteger timed = new AtomicInteger();
        final List<ExitCode> codes = ThreadCommunicator.run(2, ThreadCommunicator.shared(2), comm -> {
            final FixedClock clock = new FixedClock(comm);
            final RunContext ctx = new RunContext("t", Path.of("t.yaml"), "job9",
                new cctk.results.RankInfo(comm.rank(), "r", 1, 0, 0, "cpu", "default"), dir, Map.of());
            final ExitCode code = new Harness(clock, store, HarnessTest.spec(b), ctx,
                    new PrintWriter(new StringWriter())).run();
            timed.addAndGet(clock.timedIterations.get());
            return code;
        });
        assertThat(codes).containsOnly(ExitCode.OK);
        // 2 ranks x 2 iters x every loop each row timed: its 3 repeats, the loops timed again because this test JVM
        // compiled meanwhile, and a loop kept although still disturbed (counted in attempts, not in points_retimed)
        assertThat(b.repeats()).isEqualTo(3);
        final List<Map<String, String>> rows = HarnessTest.csv(dir);
        assertThat(rows).extracting(r -> r.get("iters")).containsOnly("2");
        final int loops = rows.stream().mapToInt(r -> Integer.parseInt(r.get("attempts"))).sum();
        assertThat(loops).isGreaterThanOrEqualTo(2 * 3);
        assertThat(timed.get()).isEqualTo(2 * 2 * loops);
        assertThat(rows).extracting(r -> r.get("time_us") + "/" + r.get("p50_us") + "/" + r.get("wrong"))
                .containsExactly("250/250/0", "250/250/0");
    }

    @Test
    void withoutATimerEachIterationIsTimedOnTheHostAfterSynchronize() {
        final AtomicInteger syncs = new AtomicInteger();
        final AtomicInteger calls = new AtomicInteger();
        final Communicator plain = ThreadCommunicator.run(1, ThreadCommunicator.shared(1), c -> c).get(0);
        assertThat(IterationTimer.of(new FixedClock(plain))).isNotNull();
        final FixedClock counting = new FixedClock(plain) {
            @Override
            public void synchronize() {
                syncs.incrementAndGet();
            }
        };
        final double[] times = IterationTimer.host(counting).time(3, () -> {
            calls.incrementAndGet();
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(calls.get()).isEqualTo(3);
        assertThat(syncs.get()).isEqualTo(3);
        assertThat(times).hasSize(3);
        assertThat(Arrays.stream(times).min().orElse(0)).isGreaterThanOrEqualTo(2000.0);
    }
}
