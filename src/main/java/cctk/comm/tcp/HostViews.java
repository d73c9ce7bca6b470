package cctk.comm.tcp;

import cctk.comm.CommBuffer;
import java.nio.ByteBuffer;

/**
 * The tcp backend's views of other backends' host memory ({@link CommBuffer#hostMemory}): one borrowed
 * {@link TcpBuffer.Memory} per allocation and a view per slice, made on first use and kept in two small caches
 * (round-robin), so that repeating a collective on the same buffers allocates nothing. {@link #forget} drops an
 * allocation's entries before its owner frees it.
 * <b>Note:</b> not threadsafe.
 */
final class HostViews {

    private static final int MEMORIES = 8;
    private static final int VIEWS = 32;

    private final ByteBuffer[] hosts = new ByteBuffer[MEMORIES];
    private final TcpBuffer.Memory[] memories = new TcpBuffer.Memory[MEMORIES];
    private final TcpBuffer[] views = new TcpBuffer[VIEWS];
    private int nextMemory;
    private int nextView;

    /** A tcp view of {@code b}, whose host memory is {@code host}. */
    TcpBuffer of(final CommBuffer b, final ByteBuffer host) {
        final TcpBuffer.Memory m = memory(host);
        final long at = b.hostOffset();
        final long length = b.bytes();
        if (at < 0 || length < 0 || at + length > host.capacity()) {
            throw new IndexOutOfBoundsException("a buffer of " + length + " bytes at " + at + " of " + host.capacity());
        }
        for (final TcpBuffer v : views) {
            if (v != null && v.memory == m && v.offset == at && v.length == length) {
                return v;
            }
        }
        final TcpBuffer v = new TcpBuffer(m, (int) at, (int) length);
        views[nextView] = v;
        nextView = (nextView + 1) % VIEWS;
        return v;
    }

    private TcpBuffer.Memory memory(final ByteBuffer host) {
        for (int i = 0; i < MEMORIES; i++) {
            if (hosts[i] == host) {
                return memories[i];
            }
        }
        final int i = nextMemory;
        nextMemory = (nextMemory + 1) % MEMORIES;
        if (memories[i] != null) {
            drop(i);
        }
        hosts[i] = host;
        memories[i] = new TcpBuffer.Memory(host, true);
        return memories[i];
    }

    /** Forgets {@code host}: its owner is about to free it. */
    void forget(final ByteBuffer host) {
        for (int i = 0; i < MEMORIES; i++) {
            if (hosts[i] == host) {
                drop(i);
            }
        }
    }

    private void drop(final int i) {
        final TcpBuffer.Memory m = memories[i];
        for (int k = 0; k < VIEWS; k++) {
            if (views[k] != null && views[k].memory == m) {
                views[k] = null;
            }
        }
        m.free();
        hosts[i] = null;
        memories[i] = null;
    }
}
