package cctk.store;

import cctk.comm.JobProof;
import java.nio.ByteBuffer;

/**
 * The store's join over {@link JobProof}: a rank proves it knows the job secret without sending it, and rank 0
 * proves the same back, so neither a stranger nor another job's rank 0 on a reused port gets in.
 * <b>Note:</b> threadsafe (no state besides the key).
 */
final class JoinProof {

    static final int NONCE_BYTES = JobProof.NONCE_BYTES;

    private final JobProof proof;

    JoinProof(final byte[] secret) {
        this.proof = new JobProof(secret);
    }

    static byte[] nonce() {
        return JobProof.nonce();
    }

    /** What a rank sends for the server's nonce: binds rank and world size so they cannot be swapped. */
    byte[] rankProof(final byte[] serverNonce, final int rank, final int worldSize) {
        return proof.prove("cctk-join", serverNonce, ByteBuffer.allocate(8).putInt(rank).putInt(worldSize).array());
    }

    /** What rank 0 sends back for the rank's nonce. */
    byte[] serverProof(final byte[] clientNonce) {
        return proof.prove("cctk-welcome", clientNonce);
    }

    /** Constant-time comparison. */
    static boolean same(final byte[] a, final byte[] b) {
        return JobProof.same(a, b);
    }
}
