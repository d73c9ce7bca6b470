package cctk.comm.nccl;

import cctk.CctkException;
import cctk.comm.Store;
import java.util.function.Supplier;

/**
 * Shares the one ncclUniqueId of a communicator: rank 0 creates it (ncclGetUniqueId) and publishes its 128 bytes
 * in the rendezvous store; every other rank reads them. Each rank creating its own id would leave every rank in a
 * communicator of one, waiting forever.
 */
public final class UniqueIdExchange {

    /** NCCL_UNIQUE_ID_BYTES: the size of ncclUniqueId. */
    public static final int ID_BYTES = 128;

    private UniqueIdExchange() {
    }

    /** The id's bytes on every rank; {@code create} runs on rank 0 only. */
    public static byte[] share(final Store store, final String key, final int rank, final Supplier<byte[]> create) {
        final byte[] id;
        if (rank == 0) {
            id = create.get();
            check(id, key);
            store.set(key, id);
        } else {
            id = store.get(key);
            check(id, key);
        }
        return id;
    }

    private static void check(final byte[] id, final String key) {
        if (id == null || id.length != ID_BYTES) {
            throw new CctkException(cctk.ExitCode.INTERNAL, "the NCCL unique id under '" + key + "' has "
                    + (id == null ? "no" : Integer.toString(id.length)) + " bytes, expected " + ID_BYTES
                    + "; every rank must run the same cctk build.");
        }
    }
}
