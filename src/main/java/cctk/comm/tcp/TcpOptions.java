package cctk.comm.tcp;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How a tcp communicator connects.
 *
 * @param interfaces   NIC names to bind (e.g. {@code eth0}); traffic is striped over all of them, one connection per
 *                     NIC per peer pair, the same list on every rank. Empty: 127.0.0.1 for a single-node job, the
 *                     host's own address for a multi-node job.
 * @param multiNode    whether ranks run on several hosts; loopback addresses are then refused
 * @param deadline     how long any wait (rendezvous, connect, a peer's next bytes) may last before the peer is
 *                     reported dead or stalled
 * @param socketBufferBytes SO_SNDBUF/SO_RCVBUF per socket; 0 leaves the kernel's autotuning on
 * @param keyPrefix    namespace of this communicator's keys in the store, so several communicators share one store
 */
public record TcpOptions(List<String> interfaces, boolean multiNode, Duration deadline, int socketBufferBytes,
                         String keyPrefix) {

    /** Default socket buffer: large enough that a ring step rarely waits on the kernel. */
    public static final int DEFAULT_SOCKET_BUFFER = 4 << 20;

    public TcpOptions {
        interfaces = List.copyOf(Objects.requireNonNull(interfaces, "interfaces"));
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("deadline must be positive: " + deadline);
        }
        if (socketBufferBytes < 0) {
            throw new IllegalArgumentException("socketBufferBytes must be >= 0: " + socketBufferBytes);
        }
    }

    /** Single-node defaults on loopback: the given deadline, 4 MiB socket buffers. */
    public static TcpOptions local(final Duration deadline, final String keyPrefix) {
        return new TcpOptions(List.of(), false, deadline, DEFAULT_SOCKET_BUFFER, keyPrefix);
    }

    /** Number of connections per peer pair. */
    int stripes() {
        return Math.max(1, interfaces.size());
    }
}
