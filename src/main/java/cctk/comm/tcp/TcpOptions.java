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
 * @param ranks        how messages and {@link TcpCommunicator#transports()} name member i: rank {@code ranks.get(i)}
 *                     (its world rank, e.g. for the leaders of a hierarchical communicator); empty: member i is rank i
 * <b>Note:</b> threadsafe (immutable).
 */
public record TcpOptions(List<String> interfaces, boolean multiNode, Duration deadline, int socketBufferBytes,
                         String keyPrefix, byte[] secret, Consumer<String> log, List<Integer> ranks) {

    /** Default socket buffer: large enough that a ring step rarely waits on the kernel. */
    public static final int DEFAULT_SOCKET_BUFFER = 4 << 20;

    public TcpOptions {
        interfaces = List.copyOf(Objects.requireNonNull(interfaces, "interfaces"));
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(log, "log");
        ranks = List.copyOf(Objects.requireNonNull(ranks, "ranks"));
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

    /** Options whose members are named by their index. */
    public TcpOptions(final List<String> interfaces, final boolean multiNode, final Duration deadline,
                      final int socketBufferBytes, final String keyPrefix, final byte[] secret,
                      final Consumer<String> log) {
        this(interfaces, multiNode, deadline, socketBufferBytes, keyPrefix, secret, log, List.of());
    }

    /** Options that report dropped strangers on stderr. */
    public TcpOptions(final List<String> interfaces, final boolean multiNode, final Duration deadline,
                      final int socketBufferBytes, final String keyPrefix, final byte[] secret) {
        this(interfaces, multiNode, deadline, socketBufferBytes, keyPrefix, secret, System.err::println);
    }

    /** The same options with member i named rank {@code worldRanks.get(i)}. */
    public TcpOptions namingRanks(final List<Integer> worldRanks) {
        return new TcpOptions(interfaces, multiNode, deadline, socketBufferBytes, keyPrefix, secret, log, worldRanks);
    }

    /** The same options under another key prefix (another communicator of the same job). */
    public TcpOptions withKeyPrefix(final String prefix) {
        return new TcpOptions(interfaces, multiNode, deadline, socketBufferBytes, prefix, secret, log, ranks);
    }

    /** The world rank of member {@code member}. */
    int rankOf(final int member) {
        return member < ranks.size() ? ranks.get(member) : member;
    }

    /** "rank N" for member {@code member}, as messages name it. */
    String label(final int member) {
        return "rank " + rankOf(member);
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
