package cctk.comm;

/**
 * The rendezvous key-value store a job's ranks share (served by rank 0): endpoints, unique ids,
 * results. Values are written once; {@link #get} waits for a key until the store's deadline.
 * <b>Note:</b> threadsafe.
 */
public interface Store extends AutoCloseable {

    /** Publishes {@code value} under {@code key}. */
    void set(String key, byte[] value);

    /** The value of {@code key}, waiting for it to be set; throws CctkException naming the key on timeout. */
    byte[] get(String key);

    /** Returns once every rank of the world has called {@code barrier} with the same name. */
    void barrier(String name);

    @Override
    void close();
}
