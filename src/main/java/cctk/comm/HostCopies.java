package cctk.comm;

import java.nio.ByteBuffer;

/**
 * Copies between a caller's byte buffer and a window of host memory ({@code length} bytes at {@code offset} of
 * {@code base}), bounds-checked, for the CPU backends' {@link CommBuffer#upload} and {@link CommBuffer#download}.
 * <b>Note:</b> threadsafe (stateless).
 */
public final class HostCopies {

    private HostCopies() {
    }

    /** Copies {@code src}'s remaining bytes to {@code off} of the window; {@code src} ends at its limit. */
    public static void upload(final ByteBuffer base, final int offset, final long length, final ByteBuffer src,
                              final long off) {
        final int n = src.remaining();
        if (off < 0 || off + n > length) {
            throw new IndexOutOfBoundsException("upload of " + n + " bytes at " + off + " into " + length);
        }
        base.put(offset + (int) off, src, src.position(), n);
        src.position(src.limit());
    }

    /** Fills {@code dst}'s remaining bytes from {@code off} of the window; {@code dst} ends at its limit. */
    public static void download(final ByteBuffer base, final int offset, final long length, final long off,
                                final ByteBuffer dst) {
        final int n = dst.remaining();
        if (off < 0 || off + n > length) {
            throw new IndexOutOfBoundsException("download of " + n + " bytes at " + off + " from " + length);
        }
        dst.put(dst.position(), base, offset + (int) off, n);
        dst.position(dst.limit());
    }
}
