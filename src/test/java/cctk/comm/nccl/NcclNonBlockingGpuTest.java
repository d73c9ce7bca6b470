package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.bytedeco.cuda.cudart.cudaHostFn_t;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The non-blocking communicator (ncclCommInitRankConfig, config.blocking = 0) on a real GPU, where NCCL answers
 * ncclInProgress: the driving thread polls ncclCommGetAsyncError, and on a passed deadline aborts the communicator
 * itself (ncclCommAbort) and throws one paragraph, with no crash and a close() that returns. Not yet run on a GPU.
 */
@Tag("gpu")
@Timeout(600)
class NcclNonBlockingGpuTest {

    @BeforeAll
    static void needsTheGpuStack() {
        NcclGpuTest.needsTheGpuStack();
    }

    private static NcclSetup.Request request(final int world, final Duration timeout) {
        return new NcclSetup.Request(0, world, 0, new MemoryStore(world, timeout), "nb/", "nccl", NcclConfig.DEFAULT,
                timeout, cctk.Environment.process());
    }

    @Test
    void aHealthyCommunicatorRunsFinalizesAndDestroys() {
        try (NcclCommunicator c = NcclSetup.open(request(1, Duration.ofSeconds(60)))) {
            final CommBuffer b = c.allocate(1 << 20);
            c.allReduce(b, b, 1 << 18, DType.FLOAT32, ReduceOp.SUM);
            c.synchronize();
            c.barrier();
        }
    }

    /** World 2 with only rank 0 present: ncclCommInitRankConfig stays in progress until the deadline. */
    @Test
    void anInitWhosePeerNeverComesEndsAtTheDeadlineWithoutACrash() {
        final NcclSetup.Request r = request(2, Duration.ofSeconds(5));
        NcclLibraries.load(r.env(), null);
        Cuda.check(cudart.cudaSetDevice(0), "cudaSetDevice");
        final org.bytedeco.cuda.nccl.ncclUniqueId u = new org.bytedeco.cuda.nccl.ncclUniqueId();
        assertThat(org.bytedeco.cuda.global.nccl.ncclGetUniqueId(u)).isZero();
        final byte[] id = new byte[UniqueIdExchange.ID_BYTES];
        u.internal().get(id);
        final org.bytedeco.cuda.nccl.ncclComm comm = new org.bytedeco.cuda.nccl.ncclComm();
        final Watchdog dog = new Watchdog(NcclSetup.health(comm), 0, r.timeout().toNanos());
        final long start = System.nanoTime();
        assertThatThrownBy(() -> NcclSetup.init(r, id, 0, comm, dog))
                .isInstanceOfSatisfying(CctkException.class, e -> {
                    assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
                    assertThat(e.getMessage()).contains("rank 0", "ncclCommInitRankConfig", "had not finished")
                            .doesNotContain("\n");
                });
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(60));
        assertThat(dog.aborted()).isTrue();
    }

    /** A stream held by a sleeping host function: the wait passes its deadline, this thread aborts, close returns. */
    @Test
    void aStuckStreamIsAbortedByTheDrivingThread() throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        final cudaHostFn_t hold = new cudaHostFn_t() {
            @Override
            public void call(final Pointer data) {
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        final NcclCommunicator c = NcclSetup.open(request(1, Duration.ofSeconds(2)));
        try {
            final CommBuffer b = c.allocate(4096);
            c.allReduce(b, b, 1024, DType.FLOAT32, ReduceOp.SUM);
            Cuda.check(cudart.cudaLaunchHostFunc(c.stream(), hold, null), "cudaLaunchHostFunc");
            assertThatThrownBy(c::synchronize).isInstanceOfSatisfying(CctkException.class, e -> {
                assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
                assertThat(e.getMessage()).contains("rank 0", "all_reduce of 4096 bytes", "had not finished after",
                        "NCCL reported no error");
            });
        } finally {
            release.countDown();
            c.close();
        }
    }
}
