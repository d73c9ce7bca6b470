package cctk.comm.tcp;

import cctk.comm.JobProof;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The mesh's hello: a mutual challenge-response over the job secret ({@link JobProof}), so a connection is taken
 * as rank R, stripe S only when it proves it knows the secret, and the dialer knows it reached the job's rank.
 * <pre>
 *   acceptor -> dialer   nonce A                                      32 bytes
 *   dialer   -> acceptor rank | stripe | world size | nonce D | MAC_d  4 + 4 + 4 + 32 + 32 = 76 bytes
 *   acceptor -> dialer   MAC_a                                        32 bytes
 *   MAC_d = HMAC(secret, "cctk-mesh-dial",   A, rank, stripe, world size, acceptor's rank, key prefix)
 *   MAC_a = HMAC(secret, "cctk-mesh-accept", D, acceptor's rank, stripe, world size, dialer's rank, key prefix)
 * </pre>
 * Ints are big-endian. A fresh nonce per connection makes a recorded hello useless for another connection.
 * <b>Note:</b> threadsafe (no state besides the key).
 */
final class MeshHello {

    static final int CHALLENGE_BYTES = JobProof.NONCE_BYTES;
    static final int HELLO_BYTES = 12 + JobProof.NONCE_BYTES + JobProof.PROOF_BYTES;
    static final int ANSWER_BYTES = JobProof.PROOF_BYTES;
    static final int RANK_OFFSET = 0;
    static final int STRIPE_OFFSET = 4;
    static final int WORLD_OFFSET = 8;
    static final int NONCE_OFFSET = 12;
    static final int PROOF_OFFSET = NONCE_OFFSET + JobProof.NONCE_BYTES;

    private final JobProof proof;
    private final byte[] prefix;

    MeshHello(final byte[] secret, final String keyPrefix) {
        this.proof = new JobProof(secret);
        this.prefix = keyPrefix.getBytes(StandardCharsets.UTF_8);
    }

    /** The dialer's hello for the acceptor's {@code challenge}. */
    ByteBuffer hello(final byte[] challenge, final int rank, final int stripe, final int world, final int acceptor,
                     final byte[] dialerNonce) {
        return ByteBuffer.allocate(HELLO_BYTES).putInt(rank).putInt(stripe).putInt(world).put(dialerNonce)
                .put(dialProof(challenge, rank, stripe, world, acceptor)).flip();
    }

    byte[] dialProof(final byte[] challenge, final int rank, final int stripe, final int world, final int acceptor) {
        return proof.prove("cctk-mesh-dial", challenge, ints(rank, stripe, world, acceptor), prefix);
    }

    byte[] acceptProof(final byte[] dialerNonce, final int acceptor, final int stripe, final int world,
                       final int dialer) {
        return proof.prove("cctk-mesh-accept", dialerNonce, ints(acceptor, stripe, world, dialer), prefix);
    }

    private static byte[] ints(final int a, final int b, final int c, final int d) {
        return ByteBuffer.allocate(16).putInt(a).putInt(b).putInt(c).putInt(d).array();
    }
}
