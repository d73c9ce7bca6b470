package cctk.comm.nccl;

import cctk.comm.CommBuffer;
import java.nio.ByteBuffer;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.Pointer;

/**
 * Device memory from cudaMalloc, or a slice of it. {@link #pointer()} is positioned at the slice's first byte
 * ({@code void*} arguments get address + position in bytes). Uploads and downloads go through the
 * communicator's pinned staging buffer, asynchronously on its stream. Freed by {@link NcclCommunicator#free} or
 * when the communicator closes; after that every use of it or its slices fails.
 * <b>Note:</b> not threadsafe.
 */
final class NcclBuffer implements CommBuffer {

    private final NcclCommunicator owner;
    /** The allocation this is a slice of (itself for a root): keeps the memory alive while any slice is. */
    private final NcclBuffer root;
    private final Pointer base;
    private final long offset;
    private final long bytes;
    private final Pointer pointer;
    /** Set on the root when its memory went back to the device. */
    private boolean freed;

    NcclBuffer(final NcclCommunicator owner, final Pointer base, final long offset, final long bytes) {
        this(owner, null, base, offset, bytes);
    }

    private NcclBuffer(final NcclCommunicator owner, final NcclBuffer root, final Pointer base, final long offset,
                       final long bytes) {
        this.owner = owner;
        this.root = root == null ? this : root;
        this.base = base;
        this.offset = offset;
        this.bytes = bytes;
        this.pointer = new Pointer(base).position(base.position() + offset);
    }

    /** The slice's first byte, for NCCL calls; throws when the memory was freed. */
    Pointer pointer() {
        live();
        return pointer;
    }

    /** The allocation this is a slice of (itself for a whole buffer). */
    NcclBuffer root() {
        return root;
    }

    /** Marks the root's memory as given back. */
    void freed() {
        root.freed = true;
    }

    private void live() {
        if (root.freed) {
            throw new IllegalStateException("a device buffer of " + bytes + " bytes was used after it was freed");
        }
    }

    /** The slice's byte {@code at}, as a new pointer. */
    Pointer at(final long at) {
        return new Pointer(base).position(base.position() + offset + at);
    }

    @Override
    public long bytes() {
        return bytes;
    }

    @Override
    public CommBuffer slice(final long off, final long length) {
        if (off < 0 || length < 0 || off + length > bytes) {
            throw new IndexOutOfBoundsException("slice " + off + "+" + length + " of " + bytes + " bytes");
        }
        return new NcclBuffer(owner, root, base, offset + off, length);
    }

    @Override
    public void upload(final ByteBuffer src, final long at) {
        copy(src, at, true);
    }

    @Override
    public void download(final long at, final ByteBuffer dst) {
        copy(dst, at, false);
    }

    private void copy(final ByteBuffer host, final long at, final boolean toDevice) {
        live();
        final int length = host.remaining();
        if (at < 0 || at + length > bytes) {
            throw new IndexOutOfBoundsException((toDevice ? "upload " : "download ") + length + " bytes at " + at
                    + " of " + bytes);
        }
        final PinnedStaging staging = owner.staging();
        for (int done = 0; done < length; ) {
            final int n = Math.min(length - done, staging.capacity());
            // on the communicator's (non-blocking) stream, which does not wait on stream 0, then waited for: the
            // staging buffer is reused and the next collective must see these bytes
            if (toDevice) {
                staging.fill(host, host.position() + done, n);
                Cuda.check(cudart.cudaMemcpyAsync(at(at + done), staging.pointer(), n, cudart.cudaMemcpyHostToDevice,
                        owner.stream()), "cudaMemcpyAsync to the device");
                owner.synchronize();
            } else {
                Cuda.check(cudart.cudaMemcpyAsync(staging.pointer(), at(at + done), n, cudart.cudaMemcpyDeviceToHost,
                        owner.stream()), "cudaMemcpyAsync from the device");
                owner.synchronize();
                staging.drain(host, host.position() + done, n);
            }
            done += n;
        }
        host.position(host.position() + length);
    }
}
