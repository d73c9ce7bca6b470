package cctk.comm.shm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How a shared-memory communicator meets its peers and where its segments live.
 *
 * @param directory where segments are made: a tmpfs every member can reach, normally {@code /dev/shm}
 * @param deadline  how long any wait on a peer may last before the peer is reported stalled (a dead peer is named
 *                  within about a second whatever the deadline)
 * @param keyPrefix namespace of this communicator's keys in the store, also part of every segment name, so that
 *                  several communicators (a node's group inside a world) share one store and one directory
 * @param secret    the job secret: segment names and the seals in their headers derive from it (never written)
 * @param ranks     how messages and {@link ShmCommunicator#transports()} name member i: rank {@code ranks.get(i)}
 *                  (its world rank); empty: member i is rank i
 * @param backend   the name result files give the backend ({@code shm}; {@code tcp} where the CPU backend chose
 *                  shared memory for a job on one host)
 * <b>Note:</b> threadsafe (immutable).
 */
public record ShmOptions(Path directory, Duration deadline, String keyPrefix, byte[] secret, List<Integer> ranks,
                         String backend) {

    /** Where segments go unless told otherwise. */
    public static final Path DEFAULT_DIRECTORY = Path.of("/dev/shm");

    public ShmOptions {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(backend, "backend");
        ranks = List.copyOf(Objects.requireNonNull(ranks, "ranks"));
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("deadline must be positive: " + deadline);
        }
        if (secret == null || secret.length == 0) {
            throw new IllegalArgumentException("the job secret must not be empty");
        }
        secret = secret.clone();
    }

    /** Segments in /dev/shm, members named by their index. */
    public static ShmOptions local(final Duration deadline, final String keyPrefix, final byte[] secret) {
        return new ShmOptions(DEFAULT_DIRECTORY, deadline, keyPrefix, secret, List.of(), "shm");
    }

    /** The same options with segments in {@code dir}. */
    public ShmOptions inDirectory(final Path dir) {
        return new ShmOptions(dir, deadline, keyPrefix, secret, ranks, backend);
    }

    /** The same options with member i named rank {@code worldRanks.get(i)}. */
    public ShmOptions namingRanks(final List<Integer> worldRanks) {
        return new ShmOptions(directory, deadline, keyPrefix, secret, worldRanks, backend);
    }

    /** The same options under another key prefix (another group of the same job). */
    public ShmOptions withKeyPrefix(final String prefix) {
        return new ShmOptions(directory, deadline, prefix, secret, ranks, backend);
    }

    /** The same options, the backend named {@code name} in result files. */
    public ShmOptions named(final String name) {
        return new ShmOptions(directory, deadline, keyPrefix, secret, ranks, name);
    }

    /** A copy of the job secret. */
    @Override
    public byte[] secret() {
        return secret.clone();
    }

    /** The world rank of member {@code member}. */
    int rankOf(final int member) {
        return member < ranks.size() ? ranks.get(member) : member;
    }

    /** "rank N" for member {@code member}. */
    String label(final int member) {
        return "rank " + rankOf(member);
    }
}
