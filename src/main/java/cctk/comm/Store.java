package cctk.comm;

/**
 * The rendezvous key-value store a job's ranks share (served by rank 0): endpoints, unique ids, rank lines,
 * diagnoses. Values are written once; {@link #get} waits for a key until the store's deadline; keys nobody will read
 * again are dropped ({@link #drop}), so what the store holds stays bounded over a long job.
 * <b>Note:</b> threadsafe.
 */
public interface Store extends AutoCloseable {

    /** Publishes {@code value} under {@code key}. */
    void set(String key, byte[] value);

    /** The value of {@code key}, waiting for it to be set; throws CctkException naming the key on timeout. */
    byte[] get(String key);

    /**
     * Forgets every key that starts with {@code prefix} (values only: a waiting get still waits). The caller knows
     * that no rank will read them again. A store that keeps everything may ignore it.
     */
    default void drop(final String prefix) {
        // kept: harmless, only memory
    }

    /** Returns once every rank of the world has called {@code barrier} with the same name. */
    void barrier(String name);

    /**
     * Why the store failed, as its server said it to every rank (e.g. "rank 3 (host node2) disconnected from the
     * rendezvous store: it exited or crashed."), or null while it works. A store that cannot fail returns null.
     */
    default String failure() {
        return null;
    }

    /**
     * The rank whose process left the store without a goodbye (it crashed or was killed), once the store knows:
     * a rank whose connection to the store broke, or rank 0 (which holds the store) for a rank that lost it; -1
     * while none did, or for a store that cannot tell.
     */
    default int departed() {
        return -1;
    }

    @Override
    void close();
}
