package cctk.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The frame every host communicator shares, on a backend that only records what the frame asks of it: the checks
 * come before the collective begins, a failure goes through {@link HostCommunicator#failed} and the collective ends
 * however it went, the root alone reads a broadcast's send buffer and writes a reduce's receive buffer, and an
 * alltoallv copies back only its blocks.
 */
class HostCommunicatorTest {

    /** A buffer of {@code bytes} that holds nothing: the recording backend never reads it. */
    private record Plain(long bytes) implements CommBuffer {
        @Override
        public CommBuffer slice(final long offset, final long length) {
            return new Plain(length);
        }

        @Override
        public void upload(final ByteBuffer src, final long offset) {
            // holds nothing
        }

        @Override
        public void download(final long offset, final ByteBuffer dst) {
            // holds nothing
        }
    }

    /** Rank {@code rank} of 4, buffers up to 1 KiB; writes down each hook it is asked for. */
    private static final class Recording extends HostCommunicator<CommBuffer> {
        final List<String> calls = new ArrayList<>();
        CctkException fail;

        Recording(final int rank) {
            super(rank, 4, "recording", 1024);
        }

        @Override
        protected void begin(final CollectiveType collective, final long bytes, final DType type) {
            calls.add("begin " + collective.specName() + " " + bytes);
        }

        @Override
        protected void end() {
            calls.add("end");
        }

        @Override
        protected CctkException failed(final CctkException e) {
            calls.add("failed " + e.getMessage());
            return e;
        }

        @Override
        protected CommBuffer in(final CommBuffer buffer, final int bytes, final DType type) {
            calls.add("in " + bytes);
            return buffer;
        }

        @Override
        protected CommBuffer out(final CommBuffer buffer, final int bytes, final DType type) {
            calls.add("out " + bytes);
            return buffer;
        }

        @Override
        protected void flush(final CommBuffer target, final CommBuffer used, final int offset, final int bytes) {
            calls.add("flush " + offset + "+" + bytes);
        }

        private void body(final String what) {
            calls.add(what);
            if (fail != null) {
                throw fail;
            }
        }

        @Override
        protected void runAllReduce(final CommBuffer s, final CommBuffer r, final long n, final DType t,
                                    final ReduceOp o) {
            body("allReduce");
        }

        @Override
        protected void runAllGather(final CommBuffer s, final CommBuffer r, final long n, final DType t) {
            body("allGather");
        }

        @Override
        protected void runReduceScatter(final CommBuffer s, final CommBuffer r, final long n, final DType t,
                                        final ReduceOp o) {
            body("reduceScatter");
        }

        @Override
        protected void runBroadcast(final CommBuffer s, final CommBuffer r, final long n, final DType t,
                                    final int root) {
            body("broadcast send " + (s != null));
        }

        @Override
        protected void runReduce(final CommBuffer s, final CommBuffer r, final long n, final DType t,
                                 final ReduceOp o, final int root) {
            body("reduce recv " + (r != null));
        }

        @Override
        protected void runAllToAll(final CommBuffer s, final CommBuffer r, final long n, final DType t) {
            body("allToAll");
        }

        @Override
        protected void runAllToAllv(final CommBuffer s, final long[] sc, final long[] sd, final CommBuffer r,
                                    final long[] rc, final long[] rd, final DType t) {
            body("allToAllv");
        }

        @Override
        protected void runSendRecv(final CommBuffer s, final int sp, final CommBuffer r, final int rp,
                                   final long n, final DType t) {
            body("sendRecv");
        }

        @Override
        protected void runBarrier() {
            body("barrier");
        }

        @Override
        public String backend() {
            return "recording";
        }

        @Override
        public CommBuffer allocate(final long bytes) {
            return new Plain(bytes);
        }

        @Override
        public void close() {
            // holds nothing
        }
    }

    private final CommBuffer b = new Plain(1024);

    @Test
    void aCollectiveBeginsStagesRunsCopiesBackAndEnds() {
        final Recording c = new Recording(1);
        c.allGather(b, b, 8, DType.FLOAT32);
        assertThat(c.calls).containsExactly("begin all_gather 128", "out 128", "in 32", "allGather", "flush 0+128",
                "end");
    }

    @Test
    void aFailureGoesThroughTheHookAndTheCollectiveStillEnds() {
        final Recording c = new Recording(0);
        c.fail = CctkException.environment("rank 2 died");
        assertThatThrownBy(c::barrier).isSameAs(c.fail);
        assertThat(c.calls).containsExactly("begin barrier -1", "barrier", "failed rank 2 died", "end");
    }

    @Test
    void argumentsAreRefusedBeforeTheCollectiveBegins() {
        final Recording c = new Recording(0);
        assertThatThrownBy(() -> c.broadcast(b, b, 1, DType.INT8, 4))
                .hasMessage("root 4 is not a rank of this 4-rank communicator.");
        assertThatThrownBy(() -> c.sendRecv(b, 0, b, 1, 1, DType.INT8))
                .hasMessage("sendrecv on rank 0 sends to rank 0 but receives from rank 1; a rank can only pair with"
                        + " itself in both directions.");
        assertThatThrownBy(() -> c.allReduce(b, b, 257, DType.FLOAT32, ReduceOp.SUM))
                .hasMessage("an element count of 257 float32 is out of range for the recording backend (0 to 2 GiB"
                        + " per buffer).");
        assertThatThrownBy(() -> c.allToAllv(b, new long[4], new long[4], b, new long[3], new long[4], DType.INT8))
                .hasMessageContaining("alltoallv needs 4 counts");
        assertThat(c.calls).isEmpty();
    }

    @Test
    void onlyTheRootReadsABroadcastsSendBufferAndWritesAReducesReceiveBuffer() {
        final Recording root = new Recording(2);
        final Recording other = new Recording(3);
        for (final Recording c : List.of(root, other)) {
            c.broadcast(b, b, 4, DType.INT8, 2);
            c.reduce(b, b, 4, DType.INT8, ReduceOp.SUM, 2);
        }
        assertThat(root.calls).contains("broadcast send true", "reduce recv true");
        assertThat(other.calls).contains("broadcast send false", "reduce recv false");
        assertThat(other.calls.subList(other.calls.indexOf("begin reduce 4"), other.calls.size()))
                .containsExactly("begin reduce 4", "in 4", "reduce recv false", "end");
    }

    @Test
    void anAlltoallvCopiesBackOnlyItsBlocks() {
        final Recording c = new Recording(1);
        c.allToAllv(b, new long[] {1, 2, 0, 1}, new long[] {0, 1, 3, 3}, b, new long[] {2, 2, 0, 1},
                new long[] {8, 0, 4, 2}, DType.INT32);
        assertThat(c.calls).containsExactly("begin alltoallv 16", "out 40", "in 16", "allToAllv", "flush 32+8",
                "flush 0+8", "flush 16+0", "flush 8+4", "end");
    }
}
