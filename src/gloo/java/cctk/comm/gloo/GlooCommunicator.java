package cctk.comm.gloo;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.comm.AllToAllvArgs;
import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.time.Duration;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerScope;
import org.bytedeco.javacpp.chrono.Milliseconds;
import org.bytedeco.pytorch.AllToAllOptions;
import org.bytedeco.pytorch.AllgatherOptions;
import org.bytedeco.pytorch.AllreduceOptions;
import org.bytedeco.pytorch.BroadcastOptions;
import org.bytedeco.pytorch.LongVector;
import org.bytedeco.pytorch.ProcessGroupGloo;
import org.bytedeco.pytorch.ReduceOptions;
import org.bytedeco.pytorch.ReduceScatterOptions;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.Work;
import org.bytedeco.pytorch.global.torch;

/**
 * cctk's Communicator on PyTorch's c10d ProcessGroupGloo: every call wraps the caller's memory in tensors without a
 * copy, runs Gloo's collective and waits for it (bounded by the deadline Gloo was given). Where c10d's call works in
 * place and cctk's asks for two buffers, the data is copied first, as a PyTorch program would ({@code
 * recv.copy_(send)}), and that copy is inside the timed call: all_reduce and broadcast out of place, and reduce (Gloo's
 * reduce overwrites the buffers of the ranks that are not the root, so they reduce a copy); in place, alltoall and
 * sendrecv send from a copy (Gloo reads and writes the buffers at once). The C++ objects of a call
 * live in a pointer scope that closes with it.
 * <b>Note:</b> not threadsafe: one caller at a time, as c10d's process group expects per stream of work.
 */
final class GlooCommunicator implements Communicator {

    private final ProcessGroupGloo group;
    private final int rank;
    private final int size;
    private final Milliseconds timeout;
    private final String transports;
    private final Runnable onClose;
    private GlooBuffer scratch;
    private int tag;

    GlooCommunicator(final ProcessGroupGloo group, final int rank, final int size, final Duration deadline,
                     final String transports, final Runnable onClose) {
        this.group = group;
        this.rank = rank;
        this.size = size;
        this.timeout = new Milliseconds(deadline.toMillis());
        this.timeout.retainReference();
        this.transports = transports;
        this.onClose = onClose;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String backend() {
        return "gloo";
    }

    @Override
    public String transports() {
        return transports;
    }

    @Override
    public CommBuffer allocate(final long bytes) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE - 8) {
            throw CctkException.usage("the gloo backend allocates buffers of 0 to 2 GiB; " + bytes
                    + " bytes were asked for.");
        }
        try {
            return GlooBuffer.allocate(bytes);
        } catch (final OutOfMemoryError e) {
            throw CctkException.environment("rank " + rank + " could not allocate " + bytes + " bytes of host memory"
                    + " for the gloo backend.");
        }
    }

    @Override
    public void free(final CommBuffer buffer) {
        final GlooBuffer g = gloo(buffer);
        if (!g.whole()) {
            throw CctkException.usage("only a whole buffer can be freed, not a slice of " + g.length + " bytes at "
                    + g.offset + ".");
        }
        g.release();
    }

    @Override
    public String unsupported(final CollectiveType collective, final DType type, final ReduceOp op,
                              final boolean inPlace) {
        if (op == ReduceOp.AVG && !type.floating()) {
            return "Gloo's AVG reduces floating-point types only (c10d: the float result cannot be cast to "
                    + type.specName() + ")";
        }
        return null;
    }

    @Override
    public void allReduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final ReduceOp op) {
        final long bytes = bytes(count, type);
        final GlooBuffer r = check(recv, bytes);
        try (PointerScope scope = new PointerScope()) {
            copy(check(send, bytes), r, bytes);
            final AllreduceOptions o = new AllreduceOptions();
            o.reduceOp(GlooTypes.op(op));
            o.timeout(timeout);
            await(group.allreduce(new TensorVector(tensor(r, 0, count, type)), o), CollectiveType.ALL_REDUCE, bytes);
        }
    }

    @Override
    public void allGather(final CommBuffer send, final CommBuffer recv, final long sendCount, final DType type) {
        final long block = bytes(sendCount, type);
        final GlooBuffer s = check(send, block);
        final GlooBuffer r = check(recv, block * size);
        try (PointerScope scope = new PointerScope()) {
            final AllgatherOptions o = new AllgatherOptions();
            o.timeout(timeout);
            await(group._allgather_base(tensor(r, 0, sendCount * size, type), tensor(s, 0, sendCount, type), o),
                    CollectiveType.ALL_GATHER, block * size);
        }
    }

    @Override
    public void reduceScatter(final CommBuffer send, final CommBuffer recv, final long recvCount, final DType type,
                              final ReduceOp op) {
        final long block = bytes(recvCount, type);
        final GlooBuffer s = check(send, block * size);
        final GlooBuffer r = check(recv, block);
        try (PointerScope scope = new PointerScope()) {
            final ReduceScatterOptions o = new ReduceScatterOptions();
            o.reduceOp(GlooTypes.op(op));
            o.timeout(timeout);
            await(group._reduce_scatter_base(tensor(r, 0, recvCount, type), tensor(s, 0, recvCount * size, type),
                    o), CollectiveType.REDUCE_SCATTER, block * size);
        }
    }

    @Override
    public void broadcast(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final int root) {
        checkPeer(root, "root");
        final long bytes = bytes(count, type);
        final GlooBuffer r = check(recv, bytes);
        try (PointerScope scope = new PointerScope()) {
            if (rank == root) {
                copy(check(send, bytes), r, bytes);
            }
            final BroadcastOptions o = new BroadcastOptions();
            o.rootRank(root);
            o.timeout(timeout);
            await(group.broadcast(new TensorVector(tensor(r, 0, count, type)), o), CollectiveType.BROADCAST, bytes);
        }
    }

    @Override
    public void reduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                       final ReduceOp op, final int root) {
        checkPeer(root, "root");
        final long bytes = bytes(count, type);
        final GlooBuffer s = check(send, bytes);
        // Gloo's reduce writes into every rank's tensor: the root reduces into recv, the others into a scratch copy
        final GlooBuffer into = rank == root ? check(recv, bytes) : scratch(bytes);
        try (PointerScope scope = new PointerScope()) {
            copy(s, into, bytes);
            final ReduceOptions o = new ReduceOptions();
            o.reduceOp(GlooTypes.op(op));
            o.rootRank(root);
            o.timeout(timeout);
            await(group.reduce(new TensorVector(tensor(into, 0, count, type)), o), CollectiveType.REDUCE, bytes);
        }
    }

    @Override
    public void allToAll(final CommBuffer send, final CommBuffer recv, final long countPerPeer, final DType type) {
        final long total = bytes(countPerPeer * size, type);
        GlooBuffer s = check(send, total);
        final GlooBuffer r = check(recv, total);
        if (overlaps(s, r, total)) {
            s = copy(s, scratch(total), total);
        }
        try (PointerScope scope = new PointerScope()) {
            final AllToAllOptions o = new AllToAllOptions();
            o.timeout(timeout);
            await(group.alltoall_base(tensor(r, 0, countPerPeer * size, type), tensor(s, 0, countPerPeer * size,
                    type), new LongVector(), new LongVector(), o), CollectiveType.ALLTOALL, total);
        }
    }

    @Override
    public void allToAllv(final CommBuffer send, final long[] sendCounts, final long[] sendDispls,
                          final CommBuffer recv, final long[] recvCounts, final long[] recvDispls, final DType type) {
        AllToAllvArgs.check(rank, size, sendCounts, sendDispls, recvCounts, recvDispls);
        final long sendTotal = packed(sendCounts, sendDispls, "send");
        final long recvTotal = packed(recvCounts, recvDispls, "receive");
        GlooBuffer s = check(send, bytes(sendTotal, type));
        final GlooBuffer r = check(recv, bytes(recvTotal, type));
        if (overlaps(s, r, bytes(Math.max(sendTotal, recvTotal), type))) {
            s = copy(s, scratch(bytes(sendTotal, type)), bytes(sendTotal, type));
        }
        try (PointerScope scope = new PointerScope()) {
            final AllToAllOptions o = new AllToAllOptions();
            o.timeout(timeout);
            await(group.alltoall_base(tensor(r, 0, recvTotal, type), tensor(s, 0, sendTotal, type),
                    new LongVector(recvCounts), new LongVector(sendCounts), o), CollectiveType.ALLTOALLV,
                    bytes(Math.max(sendTotal, recvTotal), type));
        }
    }

    @Override
    public void sendRecv(final CommBuffer send, final int sendPeer, final CommBuffer recv, final int recvPeer,
                         final long count, final DType type) {
        checkPeer(sendPeer, "peer to send to");
        checkPeer(recvPeer, "peer to receive from");
        final long bytes = bytes(count, type);
        GlooBuffer s = check(send, bytes);
        final GlooBuffer r = check(recv, bytes);
        if (overlaps(s, r, bytes)) {
            // Gloo sends and receives at once: in place, the bytes to send must not be overwritten by those arriving
            s = copy(s, scratch(bytes), bytes);
        }
        try (PointerScope scope = new PointerScope()) {
            final int t = tag++ & 0x3fffffff;
            final Work out = group.send(new TensorVector(tensor(s, 0, count, type)), sendPeer, t);
            final Work in = group.recv(new TensorVector(tensor(r, 0, count, type)), recvPeer, t);
            await(out, CollectiveType.SENDRECV, bytes);
            await(in, CollectiveType.SENDRECV, bytes);
        }
    }

    @Override
    public void barrier() {
        try (PointerScope scope = new PointerScope()) {
            await(group.barrier(), CollectiveType.BARRIER, 0);
        }
    }

    @Override
    public void synchronize() {
        // every call waits for its work
    }

    @Override
    public void close() {
        if (scratch != null) {
            scratch.release();
            scratch = null;
        }
        onClose.run();
    }

    /** Waits for {@code work} (Gloo's timeout bounds it); a failure becomes a CctkException naming the call. */
    private void await(final Work work, final CollectiveType collective, final long bytes) {
        try {
            work._wait(timeout);
        } catch (final RuntimeException e) {
            // Gloo says what failed in text only (no peer rank as a value): the message is passed on, not parsed
            throw new CctkException(ExitCode.FAILED, "rank " + rank + ": gloo " + collective.specName() + " of " + bytes
                    + " bytes failed: " + firstLine(e.getMessage()), e);
        }
    }

    private static String firstLine(final String s) {
        if (s == null) {
            return "(no message)";
        }
        final int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static Tensor tensor(final GlooBuffer b, final long at, final long count, final DType type) {
        return torch.from_blob(b.at(at), new long[] {count}, new TensorOptions(GlooTypes.scalar(type)));
    }

    private static GlooBuffer copy(final GlooBuffer from, final GlooBuffer to, final long bytes) {
        if (from.base.address() + from.offset != to.base.address() + to.offset && bytes > 0) {
            Pointer.memcpy(to.at(0), from.at(0), bytes);
        }
        return to;
    }

    private static boolean overlaps(final GlooBuffer a, final GlooBuffer b, final long bytes) {
        final long x = a.base.address() + a.offset;
        final long y = b.base.address() + b.offset;
        return x < y + bytes && y < x + bytes && bytes > 0;
    }

    private GlooBuffer scratch(final long bytes) {
        if (scratch == null || scratch.length < bytes) {
            if (scratch != null) {
                scratch.release();
            }
            scratch = GlooBuffer.allocate(bytes);
        }
        return scratch;
    }

    /** The elements of a packed layout (displacements the running sums of the counts), else a usage error. */
    private static long packed(final long[] counts, final long[] displs, final String side) {
        long at = 0;
        for (int p = 0; p < counts.length; p++) {
            if (displs[p] != at) {
                throw CctkException.usage("the gloo backend's alltoallv takes packed blocks (c10d alltoall_base has "
                        + "split sizes, not displacements): the " + side + " displacement of rank " + p + " is "
                        + displs[p] + ", not " + at + ".");
            }
            at += counts[p];
        }
        return at;
    }

    private static long bytes(final long count, final DType type) {
        if (count < 0) {
            throw CctkException.usage("a count of " + count + " elements.");
        }
        return Math.multiplyExact(count, type.bytes());
    }

    private static GlooBuffer gloo(final CommBuffer b) {
        if (!(b instanceof GlooBuffer g)) {
            throw CctkException.usage("the gloo backend runs on buffers it allocated, not " + b + ".");
        }
        return g;
    }

    private static GlooBuffer check(final CommBuffer b, final long bytes) {
        final GlooBuffer g = gloo(b);
        if (g.length < bytes) {
            throw CctkException.usage("a buffer of " + g.length + " bytes for " + bytes + " bytes.");
        }
        return g;
    }

    private void checkPeer(final int peer, final String what) {
        if (peer < 0 || peer >= size) {
            throw CctkException.usage("the " + what + " is rank " + peer + ", outside 0-" + (size - 1) + ".");
        }
    }
}
