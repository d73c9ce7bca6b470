package cctk.comm.tcp;

import cctk.CctkException;
import cctk.comm.CollectiveType;
import cctk.comm.PeerFailure;
import cctk.comm.PeerFault;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Reductions;
import cctk.comm.Tuning;
import cctk.comm.HostBuffer;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.function.Consumer;

/**
 * The progress engine: collectives post sends and receives (optionally reduced on arrival, or forwarded as they
 * arrive) and {@link #await} drives them all on the caller's thread over nonblocking sockets. It spins briefly
 * (a cross-vCPU wake-up costs tens of microseconds on small VMs), then blocks in the selector. Everything it
 * touches per operation is preallocated: no allocation, boxing or exceptions unless a peer fails.
 * <b>Note:</b> not threadsafe.
 */
final class Transfers {

    /** Received bytes are reduced in pieces of this size, so reduction overlaps the rest of the transfer. */
    static final int REDUCE_PIECE = 64 << 10;
    /**
     * A reducing receive reads at most this much per call and reduces it at once, while the bytes are still in the
     * L2 cache (2 MiB per core here); an unbounded read can return several MiB that the reduction then re-fetches.
     */
    static final int REDUCE_READ = Tuning.fromSystemProperties().reduceReadBytes();
    /**
     * A reducing receive lands its bytes in a staging ring of this many bytes per connection and reduces them from
     * there, so the kernel's copy and the reduction both stay in cache instead of streaming through a scratch copy of
     * the whole message.
     */
    static final int STAGE = 2 * REDUCE_READ;
    /** Messages below this size use one connection even when several NICs are striped. */
    static final int STRIPE_MIN = 256 << 10;

    static final boolean YIELD = Tuning.fromSystemProperties().yield();

    private final int rank;
    private final TcpOptions options;
    private final TcpMesh mesh;
    private final Link[][] links;
    private final int stripes;
    private final Selector selector;
    private final long deadlineNanos;
    private final long spinNanos;
    private final TransferOp[] ops;
    private final Consumer<SelectionKey> ignoreKey = key -> { };
    private final TransferOp[] lastSend;
    private final TransferOp[] lastRecv;
    /** Per peer, the staging rings of its connections ({@link #STAGE} bytes each), made on first reducing receive. */
    private final HostBuffer[] stages;
    /** SO_SNDBUF for collectives that only move data (0: never changed), for those that reduce, and now. */
    private final int streamSendBuffer;
    private final int reduceSendBuffer;
    private int sendBuffer;
    /** The mesh's link count when the send buffers were last set (links made since get theirs at the next change). */
    private int tuned;
    private int count;
    private String operation = "setup";

    /**
     * {@code streamSendBytes}: when positive, data-movement collectives shrink every socket's send buffer to this
     * size and reducing ones restore {@code socketBytes}; 0 leaves the buffers as connected.
     */
    Transfers(final TcpOptions options, final int rank, final TcpMesh mesh, final long spinNanos,
              final int streamSendBytes) {
        this.rank = rank;
        this.options = options;
        this.mesh = mesh;
        this.streamSendBuffer = Math.max(0, streamSendBytes);
        this.reduceSendBuffer = options.socketBufferBytes();
        this.sendBuffer = options.socketBufferBytes();
        this.links = mesh.links;
        this.stripes = mesh.stripes;
        this.selector = mesh.selector();
        this.deadlineNanos = options.deadline().toNanos();
        this.spinNanos = spinNanos;
        this.ops = new TransferOp[4 * links.length * stripes + 8];
        this.tuned = mesh.made();
        this.lastSend = new TransferOp[links.length * stripes];
        this.lastRecv = new TransferOp[links.length * stripes];
        this.stages = new HostBuffer[links.length];
        for (int i = 0; i < ops.length; i++) {
            ops[i] = new TransferOp();
        }
    }

    /** Gives back the staging rings (the communicator is closing). */
    void free() {
        for (int p = 0; p < stages.length; p++) {
            if (stages[p] != null) {
                stages[p].memory.free();
                stages[p] = null;
            }
        }
    }

    /** Names the running collective in error messages. */
    void operation(final CollectiveType collective) {
        this.operation = collective.specName();
        mesh.operation(operation);
    }

    /**
     * Names the running collective and sets the send buffers for it. A stream (nothing to reduce) runs fastest
     * with a shallow send buffer: the receiver copies each byte out while the sender's copy is still in cache. A
     * rank that reduces between its reads needs a deep one, or its peers stall while it computes.
     */
    void operation(final CollectiveType collective, final boolean streaming) {
        operation(collective);
        final int want = streaming ? streamSendBuffer : reduceSendBuffer;
        if (streamSendBuffer == 0 || want == sendBuffer && tuned == mesh.made()) {
            return;
        }
        tuned = mesh.made();
        for (final Link[] peer : links) {
            for (int s = 0; peer != null && s < peer.length; s++) {
                if (peer[s] == null) {
                    continue;
                }
                try {
                    peer[s].channel.setOption(StandardSocketOptions.SO_SNDBUF, want);
                } catch (final IOException e) {
                    throw failed(peer[s], "refused a new send buffer size (" + cctk.IoErrors.why(e) + ")");
                }
            }
        }
        sendBuffer = want;
    }

    /** Posts a send of {@code len} bytes of {@code buf} at {@code off}; returns the first op index. */
    int send(final int peer, final HostBuffer buf, final int off, final int len, final int unit) {
        return post(peer, true, buf, off, len, unit, -1);
    }

    /** Posts a send that only sends bytes the receive at {@code gate} has produced (pipelined forwarding). */
    int forward(final int peer, final HostBuffer buf, final int off, final int len, final int unit, final int gate) {
        return post(peer, true, buf, off, len, unit, gate);
    }

    int recv(final int peer, final HostBuffer buf, final int off, final int len, final int unit) {
        return post(peer, false, buf, off, len, unit, -1);
    }

    /**
     * Posts a receive that, as bytes arrive, stores {@code out = received op in}. The bytes pass through the staging
     * ring of {@code peer}'s connections, made on first use; receives from one peer share it, because each is
     * reduced to its end (it is not done before) before the next one on that connection reads.
     */
    int recvReduce(final int peer, final HostBuffer out, final int outOff, final HostBuffer in, final int inOff,
                   final int len, final DType type, final ReduceOp op) {
        HostBuffer stage = stages[peer];
        if (stage == null) {
            stage = HostBuffer.allocate(stripes * STAGE);
            stages[peer] = stage;
        }
        final int first = post(peer, false, stage, 0, len, type.bytes(), -1);
        for (int i = first; i < count; i++) {
            final TransferOp o = ops[i];
            final int delta = o.start - stage.offset;
            o.stage = stage.offset + (i - first) * STAGE;
            o.reduce = true;
            o.tmp = stage.memory;
            o.out = out.memory;
            o.outStart = out.offset + outOff + delta;
            o.in = in.memory;
            o.inStart = in.offset + inOff + delta;
            o.type = type;
            o.op = op;
            o.reduced = o.start;
        }
        return first;
    }

    private int post(final int peer, final boolean send, final HostBuffer buf, final int off, final int len,
                     final int unit, final int gate) {
        final int first = count;
        final int parts = len < STRIPE_MIN ? 1 : stripes;
        final long units = len / unit;
        for (int s = 0; s < parts; s++) {
            final int from = (int) (units * s / parts) * unit;
            final int to = s == parts - 1 ? len : (int) (units * (s + 1) / parts) * unit;
            final TransferOp o = ops[count];
            o.link = links[peer][s];
            o.send = send;
            o.cursor = buf.memory.cursor(count);
            o.start = buf.offset + off + from;
            o.pos = o.start;
            o.end = buf.offset + off + to;
            o.gate = gate < 0 ? null : ops[gate + s];
            o.done = o.pos == o.end;
            o.reduce = false;
            final TransferOp[] last = send ? lastSend : lastRecv;
            o.after = last[peer * stripes + s];
            if (!o.done) { // an empty op, done at once, would let the next one read an earlier one's bytes
                last[peer * stripes + s] = o;
            }
            count++;
        }
        return first;
    }

    /** The op posted at {@code index} in the current batch (for tests of the posting order). */
    TransferOp posted(final int index) {
        return ops[index];
    }

    /** Copies bytes locally (no overlap between source and destination). */
    void copy(final HostBuffer src, final int srcOff, final HostBuffer dst, final int dstOff, final int len) {
        dst.memory.copyFrom(dst.offset + dstOff, src.memory, src.offset + srcOff, len);
    }

    /** Drives every posted op to completion, or throws naming the peer that failed or stalled. */
    void await() {
        long lastProgress = System.nanoTime();
        int pending = 0;
        for (int i = 0; i < count; i++) {
            pending += ops[i].done ? 0 : 1;
        }
        while (pending > 0) {
            boolean progress = false;
            for (int i = 0; i < count; i++) {
                final TransferOp o = ops[i];
                if (!o.done && step(o)) {
                    progress = true;
                    pending -= o.done ? 1 : 0;
                }
            }
            if (!progress) {
                // idle: reduce whatever has arrived instead of waiting for a full piece
                for (int i = 0; i < count; i++) {
                    final TransferOp o = ops[i];
                    if (!o.done && o.reduce && o.pos - o.reduced >= o.type.bytes()) {
                        reduceArrived(o);
                        progress = true;
                    }
                }
            }
            final long now = System.nanoTime();
            if (progress) {
                lastProgress = now;
            } else if (now - lastProgress < spinNanos) {
                if (YIELD) {
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
            } else if (now - lastProgress > deadlineNanos) {
                throw stalled();
            } else {
                block(Math.max(1, Math.min(100, (deadlineNanos - (now - lastProgress)) / 1_000_000L)));
            }
        }
        reset();
    }

    private void reset() {
        for (int i = 0; i < count; i++) {
            final Link l = ops[i].link;
            lastSend[l.peer * stripes + l.stripe] = null;
            lastRecv[l.peer * stripes + l.stripe] = null;
        }
        count = 0;
    }

    private boolean step(final TransferOp o) {
        if (o.after != null && !o.after.done) {
            return false;
        }
        final ByteBuffer c = o.cursor;
        final int n;
        try {
            if (o.send) {
                final int limit = o.gate == null ? o.end : Math.min(o.end, o.gate.produced());
                if (o.pos >= limit) {
                    return false;
                }
                c.limit(limit).position(o.pos);
                n = o.link.channel.write(c);
            } else if (o.reduce) {
                final int at = (o.pos - o.start) % STAGE;
                final int room = Math.min(STAGE - at, STAGE - (o.pos - o.reduced));
                if (room == 0) {
                    // the ring holds nothing but unreduced bytes: make room
                    reduceArrived(o);
                    return true;
                }
                c.limit(o.stage + at + Math.min(Math.min(room, REDUCE_READ), o.end - o.pos)).position(o.stage + at);
                n = o.link.channel.read(c);
                if (n < 0) {
                    throw failed(o, "closed the connection");
                }
            } else {
                c.limit(o.end).position(o.pos);
                n = o.link.channel.read(c);
                if (n < 0) {
                    throw failed(o, "closed the connection");
                }
            }
        } catch (final IOException e) {
            throw failed(o, "broke the connection (" + cctk.IoErrors.why(e) + ")");
        }
        if (n == 0) {
            return false;
        }
        o.pos += n;
        if (o.reduce && (o.pos == o.end || o.pos - o.reduced >= REDUCE_PIECE)) {
            reduceArrived(o);
        }
        o.done = o.pos == o.end && (!o.reduce || o.reduced == o.end);
        return true;
    }

    private static void reduceArrived(final TransferOp o) {
        final int unit = o.type.bytes();
        int left = (o.pos - o.reduced) / unit;
        while (left > 0) { // at most twice: to the end of the ring, then from its start
            final int delta = o.reduced - o.start;
            final int at = delta % STAGE;
            final int m = Math.min(left, (STAGE - at) / unit);
            Reductions.reduce(o.type, o.op, o.out.typed(o.type), (o.outStart + delta) / unit,
                    o.tmp.typed(o.type), (o.stage + at) / unit, o.in.typed(o.type), (o.inStart + delta) / unit, m);
            o.reduced += m * unit;
            left -= m;
        }
        o.done = o.pos == o.end && o.reduced == o.end;
    }

    private void block(final long millis) {
        for (int i = 0; i < count; i++) {
            final TransferOp o = ops[i];
            if (!o.done && (o.after == null || o.after.done)) {
                if (!o.send) {
                    o.link.wanted |= SelectionKey.OP_READ;
                } else if (o.gate == null || o.gate.produced() > o.pos) {
                    o.link.wanted |= SelectionKey.OP_WRITE;
                }
            }
        }
        for (int i = 0; i < count; i++) {
            final Link l = ops[i].link;
            if (l.key.interestOps() != l.wanted) {
                l.key.interestOps(l.wanted);
            }
        }
        try {
            selector.select(ignoreKey, millis);
        } catch (final IOException e) {
            throw CctkException.environment(options.label(rank) + ": waiting on its sockets failed during " + operation
                    + ": " + e.getMessage(), e);
        }
        for (int i = 0; i < count; i++) {
            final Link l = ops[i].link;
            l.wanted = 0;
            if (l.key.interestOps() != 0) {
                l.key.interestOps(0);
            }
        }
    }

    private CctkException failed(final TransferOp o, final String what) {
        return failed(o.link, what);
    }

    private CctkException failed(final Link link, final String what) {
        final String words = link.describe + LinkNic.via(link) + " " + what;
        final PeerFault fault = LinkNic.fault(link, PeerFault.Kind.DIED);
        reset();
        return PeerFailure.died(options::rankOf, rank, words, operation, fault, "", null);
    }

    private CctkException stalled() {
        final java.util.List<PeerFault> faults = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            final TransferOp o = ops[i];
            if (!o.done && faults.stream().noneMatch(f -> f.peer() == o.link.peer)) {
                faults.add(LinkNic.fault(o.link, o.send ? PeerFault.Kind.NOT_READING : PeerFault.Kind.NOT_SENDING));
            }
        }
        reset();
        return PeerFailure.stalled(options::rankOf, rank, deadlineNanos / 1_000_000_000.0, operation, faults, "", null);
    }
}
