package cctk.comm.shm;

import cctk.comm.JobProof;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Names and seals segment files. A name is {@value #PREFIX} and 40 hex digits of an HMAC-SHA256 over the job secret
 * ({@link JobProof}) of the communicator's key prefix, the owner's rank, a random nonce the owner drew for this
 * communicator, and which segment it is: nobody without the secret can predict one, and two communicators or two
 * runs of one job never share one. A header's MAC proves that its writer knew the secret.
 * <b>Note:</b> threadsafe.
 */
final class SegmentNames {

    /** What every cctk segment's name starts with (the stale-file sweep looks for it). */
    static final String PREFIX = "cctk-shm-";
    static final int NONCE_BYTES = 16;
    private static final int NAME_MAC_BYTES = 20;

    private final JobProof proof;
    private final byte[] context;

    SegmentNames(final byte[] secret, final String keyPrefix) {
        this.proof = new JobProof(secret);
        this.context = keyPrefix.getBytes(StandardCharsets.UTF_8);
    }

    /** The control segment of rank {@code rank}, whose nonce is {@code nonce}. */
    String control(final byte[] nonce, final int rank) {
        return name(nonce, rank, SegmentHeader.KIND_CONTROL, 0, 0);
    }

    /** Generation {@code gen} of data slot {@code slot} of rank {@code rank}. */
    String data(final byte[] nonce, final int rank, final int slot, final long gen) {
        return name(nonce, rank, SegmentHeader.KIND_DATA, slot, gen);
    }

    private String name(final byte[] nonce, final int rank, final int kind, final int slot, final long gen) {
        final byte[] fields = ByteBuffer.allocate(20).putInt(rank).putInt(kind).putInt(slot).putLong(gen).array();
        final byte[] mac = proof.prove("cctk shm segment name", nonce, context, fields);
        return PREFIX + HexFormat.of().formatHex(mac, 0, NAME_MAC_BYTES);
    }

    /** The MAC a header of file {@code name} carries over its signed bytes. */
    byte[] seal(final byte[] nonce, final SegmentHeader header, final String name) {
        return proof.prove("cctk shm segment header", nonce, context, header.signed(),
                name.getBytes(StandardCharsets.US_ASCII));
    }

    /** Whether {@code header} of file {@code name} was sealed by someone who knows the secret. */
    boolean sealed(final byte[] nonce, final SegmentHeader header, final String name) {
        return header.valid() && JobProof.same(header.mac(), seal(nonce, header, name));
    }
}
