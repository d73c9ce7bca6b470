package cctk.rank;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Challenge-response over the per-job secret (HMAC-SHA256): a rank proves it knows the secret without sending
 * it, and rank 0 proves the same back, so neither a stranger nor another job's rank 0 on a reused port gets in.
 * <b>Note:</b> threadsafe (no state besides the key).
 */
final class JoinProof {

    static final int NONCE_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    JoinProof(final byte[] secret) {
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    }

    static byte[] nonce() {
        final byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /** What a rank sends for the server's nonce: binds rank and world size so they cannot be swapped. */
    byte[] rankProof(final byte[] serverNonce, final int rank, final int worldSize) {
        return mac("cctk-join", serverNonce, ByteBuffer.allocate(8).putInt(rank).putInt(worldSize).array());
    }

    /** What rank 0 sends back for the rank's nonce. */
    byte[] serverProof(final byte[] clientNonce) {
        return mac("cctk-welcome", clientNonce, new byte[0]);
    }

    /** Constant-time comparison. */
    static boolean same(final byte[] a, final byte[] b) {
        return MessageDigest.isEqual(a, b);
    }

    private byte[] mac(final String label, final byte[] nonce, final byte[] extra) {
        try {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(label.getBytes(StandardCharsets.US_ASCII));
            mac.update(nonce);
            return mac.doFinal(extra);
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
        }
    }
}
