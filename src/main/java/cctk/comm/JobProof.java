package cctk.comm;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Challenge-response over the per-job secret (HMAC-SHA256, RFC 2104): a peer proves it knows the secret without
 * sending it, by a MAC over a fresh nonce of the other side, a label naming the step of the protocol (so one step's
 * answer never serves as another's) and the fields it claims (rank, world size, ...). The rendezvous store's join
 * and the tcp mesh's hello both use it. <b>Note:</b> threadsafe (no state besides the key).
 */
public final class JobProof {

    /** Bytes of a nonce. */
    public static final int NONCE_BYTES = 32;
    /** Bytes of a proof (an HMAC-SHA256). */
    public static final int PROOF_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    /** A prover for {@code secret}, which must not be empty. */
    public JobProof(final byte[] secret) {
        if (secret == null || secret.length == 0) {
            throw new IllegalArgumentException("the job secret must not be empty");
        }
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    }

    /** A fresh random nonce. */
    public static byte[] nonce() {
        final byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /** The MAC of {@code label}, then {@code nonce}, then each of {@code fields} in order. */
    public byte[] prove(final String label, final byte[] nonce, final byte[]... fields) {
        try {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            final byte[] l = label.getBytes(StandardCharsets.US_ASCII);
            mac.update((byte) l.length);
            mac.update(l);
            mac.update(nonce);
            for (final byte[] f : fields) {
                mac.update(f);
            }
            return mac.doFinal();
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
        }
    }

    /** Constant-time comparison. */
    public static boolean same(final byte[] a, final byte[] b) {
        return MessageDigest.isEqual(a, b);
    }
}
