package cctk.comm.tcp;

import cctk.comm.Tuning;

/**
 * How the tcp backend fits itself to the host it runs on: spinning before blocking, shallow send buffers for streams,
 * and broadcast as a stream, each decided from the job's placement unless a {@link Tuning} knob says otherwise.
 * <b>Note:</b> threadsafe (no state).
 */
final class HostTuning {

    /** Spin this long before blocking in the selector; a cross-vCPU wake-up costs about as much. */
    private static final long SPIN_NANOS = 50_000L;
    private static final int STREAM_SEND_BYTES = 256 << 10;

    private HostTuning() {
    }

    /** How long to spin before blocking ({@link Tuning#spinMicros}). */
    static long spinNanos(final TcpOptions options, final int size) {
        final long micros = Tuning.fromSystemProperties().spinMicros();
        if (micros >= 0) {
            return micros * 1000L;
        }
        return sharesCores(options, size) ? 0L : SPIN_NANOS;
    }

    /**
     * Whether broadcast runs as a stream (shallow send buffers). Its chain relays what each rank receives, and a
     * relay that must wait for a core stalls its upstream unless the buffers are deep (measured at W=4 on 2 vCPUs).
     */
    static boolean broadcastStreams(final TcpOptions options, final int size) {
        return size <= 2 || !sharesCores(options, size);
    }

    /** Whether this single-host job runs more ranks than the host has CPUs. */
    private static boolean sharesCores(final TcpOptions options, final int size) {
        return !options.multiNode() && size > Runtime.getRuntime().availableProcessors();
    }

    /**
     * The send buffer for data-movement collectives ({@link Tuning#streamSendBytes}). Over loopback the round trip is
     * microseconds, so a shallow buffer loses no bandwidth, even when ranks share cores (broadcast is the exception,
     * see {@link #broadcastStreams(TcpOptions, int)}); across hosts it would cap the window.
     */
    static int streamSendBytes(final TcpOptions options) {
        final int bytes = Tuning.fromSystemProperties().streamSendBytes();
        if (bytes >= 0) {
            return bytes;
        }
        return options.multiNode() || options.socketBufferBytes() == 0 ? 0 : STREAM_SEND_BYTES;
    }
}
