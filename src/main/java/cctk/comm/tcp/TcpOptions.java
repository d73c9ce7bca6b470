package cctk.comm.tcp;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

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
 * @param secret       the job secret every mesh connection proves it knows (never sent); the same on every rank
 * @param log          where dropped strangers are reported (the rank's stderr)
 */
public record TcpOptions(List<String> interfaces, boolean multiNode, Duration deadline, int socketBufferBytes,
                         String keyPrefix, byte[] secret, Consumer<String> log) {

    /** Default socket buffer: large enough that a ring step rarely waits on the kernel. */
    public static final int DEFAULT_SOCKET_BUFFER = 4 << 20;

    public TcpOptions {
        interfaces = List.copyOf(Objects.requireNonNull(interfaces, "interfaces"));
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(log, "log");
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("deadline must be positive: " + deadline);
        }
        if (socketBufferBytes < 0) {
            throw new IllegalArgumentException("socketBufferBytes must be >= 0: " + socketBufferBytes);
        }
        if (secret == null || secret.length == 0) {
            throw new IllegalArgumentException("the job secret must not be empty");
        }
        secret = secret.clone();
    }

    /** Options that report dropped strangers on stderr. */
    public TcpOptions(final List<String> interfaces, final boolean multiNode, final Duration deadline,
                      final int socketBufferBytes, final String keyPrefix, final byte[] secret) {
        this(interfaces, multiNode, deadline, socketBufferBytes, keyPrefix, secret, System.err::println);
    }

    /** Single-node defaults on loopback: the given deadline, 4 MiB socket buffers. */
    public static TcpOptions local(final Duration deadline, final String keyPrefix, final byte[] secret) {
        return new TcpOptions(List.of(), false, deadline, DEFAULT_SOCKET_BUFFER, keyPrefix, secret);
    }

    /** A copy of the job secret. */
    @Override
    public byte[] secret() {
        return secret.clone();
    }

    /** Number of connections per peer pair. */
    int stripes() {
        return Math.max(1, interfaces.size());
    }
}
