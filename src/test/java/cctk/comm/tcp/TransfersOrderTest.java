package cctk.comm.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.HostBuffer;
import cctk.comm.ReduceOp;
import cctk.comm.Tuning;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ops posted on one link share its byte stream, so each waits for the one before it. An empty op is done the
 * moment it is posted; it must not stand in that chain, or the op after it may read an earlier op's bytes. A ring
 * all-reduce of fewer elements than ranks posts empty blocks between full ones, and once returned wrong sums (about
 * one call in 300 at W = 5) or stalled.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransfersOrderTest {

    @Test
    void anEmptyOpNeverStandsBetweenTwoOpsOfOneStream() throws Exception {
        final List<String> got = LocalWorld.run(2, LocalWorld.options(Duration.ofSeconds(30)), comm -> {
            final HostBuffer b = (HostBuffer) comm.allocate(4);
            final int peer = 1 - comm.rank();
            comm.sendRecv(b, peer, b.slice(2, 2), peer, 1, DType.INT8); // connects the pair
            b.memory.base().put(0, (byte) 7).put(1, (byte) 8).put(2, (byte) 0).put(3, (byte) 0);
            final Transfers t = comm.transfers();
            final boolean sender = comm.rank() == 0;
            final int first = sender ? t.send(peer, b, 0, 1, 1) : t.recv(peer, b, 2, 1, 1);
            final int empty = sender ? t.send(peer, b, 1, 0, 1) : t.recv(peer, b, 3, 0, 1);
            final int next = sender ? t.send(peer, b, 1, 1, 1) : t.recv(peer, b, 3, 1, 1);
            final String chain = "empty done " + t.posted(empty).done + ", next after first "
                    + (t.posted(next).after == t.posted(first)) + ", empty in no chain "
                    + (t.posted(next).after != t.posted(empty));
            t.await();
            return chain + (sender ? "" : ", received " + b.memory.base().get(2) + " " + b.memory.base().get(3));
        });
        assertThat(got).containsExactly("empty done true, next after first true, empty in no chain true",
                "empty done true, next after first true, empty in no chain true, received 7 8");
    }

    @Test
    void ringAllReducesWithEmptyBlocksAreRightEveryTime() throws Exception {
        System.setProperty(Tuning.DIRECT_MAX_RANKS_PROP, "2");
        try {
            final List<List<String>> failures = LocalWorld.run(5, LocalWorld.options(Duration.ofSeconds(30)),
                    comm -> {
                        final List<String> bad = new ArrayList<>();
                        for (int i = 0; i < 600 && bad.size() < 5; i++) {
                            final int count = 1 + i % 4; // 1..4 elements over 5 ranks: 1 to 4 empty blocks
                            final CommBuffer send = TcpCollectivesTest.filled(comm, DType.INT8, ReduceOp.SUM, count);
                            final CommBuffer recv = comm.allocate(count);
                            comm.allReduce(send, recv, count, DType.INT8, ReduceOp.SUM);
                            final ByteBuffer want = ReferenceData.reduced(DType.INT8, ReduceOp.SUM, 5, 0, count);
                            TcpCollectivesTest.expect(recv, want, "call " + i + " rank " + comm.rank() + " n="
                                    + count, bad);
                            comm.free(send);
                            comm.free(recv);
                        }
                        return bad;
                    });
            for (final List<String> f : failures) {
                assertThat(f).isEmpty();
            }
        } finally {
            System.clearProperty(Tuning.DIRECT_MAX_RANKS_PROP);
        }
    }
}
