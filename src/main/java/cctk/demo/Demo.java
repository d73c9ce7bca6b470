package cctk.demo;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.results.Numbers;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The seeds' demos on one connected rank: hello (who and where), broadcast (42s from rank 0), all-reduce (ones
 * become W) and a uniform all-to-all with timestamped steps and an exact check. Tables are printed by rank 0
 * after gathering every rank's values. <b>Note:</b> not threadsafe.
 */
public final class Demo {

    /** Elements of the small tensor the broadcast and all-reduce demos show. */
    static final int TABLE_ELEMENTS = 4;
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    private final Communicator comm;
    private final PrintWriter out;
    private final String where;

    /**
     * @param comm  the connected communicator
     * @param out   where this rank prints
     * @param where this rank's host and device, e.g. {@code host vm, cpu}
     */
    public Demo(final Communicator comm, final PrintWriter out, final String where) {
        this.comm = comm;
        this.out = out;
        this.where = where;
    }

    /** Every rank says who it is, then all meet at a barrier. */
    public ExitCode hello() {
        out.println("Rank " + comm.rank() + "/" + comm.size() + " using device: " + where + " (backend "
                + comm.backend() + ")");
        out.flush();
        comm.barrier();
        if (comm.rank() == 0) {
            out.println("All " + comm.size() + " ranks met.");
        }
        return ExitCode.OK;
    }

    /** Rank 0 holds 42s, the others zeros; after the broadcast every rank holds 42s. */
    public ExitCode broadcast() {
        final CommBuffer buf = comm.allocate(TABLE_ELEMENTS * 4L);
        fill(buf, comm.rank() == 0 ? 42 : 0);
        table("Before broadcast:", buf);
        comm.broadcast(buf, buf, TABLE_ELEMENTS, DType.INT32, 0);
        comm.synchronize();
        return table("After broadcast:", buf) == 42 ? ExitCode.OK : ExitCode.FAILED;
    }

    /** Every rank holds ones; after a sum all-reduce every rank holds W. */
    public ExitCode allReduce() {
        final CommBuffer buf = comm.allocate(TABLE_ELEMENTS * 4L);
        fill(buf, 1);
        table("Before reduce:", buf);
        comm.allReduce(buf, buf, TABLE_ELEMENTS, DType.INT32, ReduceOp.SUM);
        comm.synchronize();
        return table("After reduce:", buf) == comm.size() ? ExitCode.OK : ExitCode.FAILED;
    }

    /**
     * Uniform all-to-all of {@code perPeerBytes} to every peer, float32. Element j of the block for peer p on rank r
     * holds r * perPeer + j, exact in float32 below 2^24 elements per peer, so the receiver checks every element.
     */
    public ExitCode allToAll(final long perPeerBytes) {
        final int r = comm.rank();
        final int w = comm.size();
        final long perPeer = perPeerBytes / 4;
        if (perPeer < 1 || perPeer >= (1 << 24) || perPeer * w * 4 > Integer.MAX_VALUE) {
            throw CctkException.usage("--msg-bytes must give 1 to 2^24 float32 elements per peer, and at most 2 GiB"
                    + " per rank in all; " + perPeerBytes + " bytes to each of " + w + " ranks does not.");
        }
        final long total = perPeer * w;
        log("Using CPU (" + where + ", backend " + comm.backend() + ")");
        log("process group of " + w + " ranks initialized");
        log("Creating payload tensor with " + total + " elements (" + mib(total * 4) + " MiB total, " + perPeer
                + " elems/msg = " + mib(perPeer * 4) + " MiB/msg)");
        final CommBuffer send = comm.allocate(total * 4);
        final CommBuffer recv = comm.allocate(total * 4);
        final ByteBuffer host = ByteBuffer.allocate((int) (total * 4)).order(ByteOrder.LITTLE_ENDIAN);
        for (int p = 0; p < w; p++) {
            for (long j = 0; j < perPeer; j++) {
                host.putFloat((float) (r * perPeer + j));
            }
        }
        send.upload(host.flip(), 0);
        comm.barrier();
        log("Starting all_to_all operation...");
        final long t0 = System.nanoTime();
        comm.allToAll(send, recv, perPeer, DType.FLOAT32);
        comm.synchronize();
        final double ms = (System.nanoTime() - t0) / 1e6;
        log("all_to_all completed in " + Numbers.fixed(ms, 2) + " ms");
        host.clear();
        recv.download(0, host);
        long wrong = 0;
        for (int p = 0; p < w; p++) {
            for (long j = 0; j < perPeer; j++) {
                if (host.getFloat((int) ((p * perPeer + j) * 4)) != (float) (p * perPeer + j)) {
                    wrong++;
                }
            }
        }
        log("Verification - output_numel=" + total + " first_vals=" + values(host, 0) + " last_vals="
                + values(host, (int) total - 3) + " wrong=" + wrong);
        return wrong == 0 ? ExitCode.OK : ExitCode.FAILED;
    }

    private void fill(final CommBuffer buf, final int value) {
        final ByteBuffer host = ByteBuffer.allocate(TABLE_ELEMENTS * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < TABLE_ELEMENTS; i++) {
            host.putInt(value);
        }
        buf.upload(host.flip(), 0);
    }

    /** Gathers every rank's tensor to all, rank 0 prints them; returns the smallest value seen on any rank. */
    private int table(final String title, final CommBuffer buf) {
        final int w = comm.size();
        final CommBuffer all = comm.allocate((long) TABLE_ELEMENTS * 4 * w);
        comm.allGather(buf, all, TABLE_ELEMENTS, DType.INT32);
        comm.synchronize();
        final ByteBuffer host = ByteBuffer.allocate(TABLE_ELEMENTS * 4 * w).order(ByteOrder.LITTLE_ENDIAN);
        all.download(0, host);
        int min = Integer.MAX_VALUE;
        final StringBuilder sb = new StringBuilder(title).append('\n');
        final String rule = "        " + "-".repeat(5 * TABLE_ELEMENTS + 1);
        for (int r = 0; r < w; r++) {
            sb.append(rule).append('\n').append(String.format(Locale.ROOT, "Rank %-2d |", r));
            for (int i = 0; i < TABLE_ELEMENTS; i++) {
                final int v = host.getInt((r * TABLE_ELEMENTS + i) * 4);
                min = Math.min(min, v);
                sb.append(String.format(Locale.ROOT, " %-3d|", v));
            }
            sb.append('\n').append(rule).append('\n');
        }
        if (comm.rank() == 0) {
            out.print(sb);
            out.flush();
        }
        return min;
    }

    private void log(final String line) {
        out.println("[" + LocalDateTime.now().format(STAMP) + "] Rank " + comm.rank() + ": " + line);
        out.flush();
    }

    private static String mib(final long bytes) {
        return Numbers.fixed(bytes / (double) (1 << 20), 2);
    }

    private static String values(final ByteBuffer host, final int from) {
        final StringBuilder sb = new StringBuilder("[");
        for (int i = Math.max(0, from); i < from + 3 && i * 4 < host.limit(); i++) {
            sb.append(i > Math.max(0, from) ? ", " : "").append(Numbers.plain(host.getFloat(i * 4)));
        }
        return sb.append(']').toString();
    }
}
