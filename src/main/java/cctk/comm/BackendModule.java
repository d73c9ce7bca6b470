package cctk.comm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A backend that lives in a module of its own, a jar with its libraries that a rank loads only when a spec asks for
 * that backend (the gloo backend: PyTorch's c10d ProcessGroupGloo, 470 MB of native libraries unpacked). The rank
 * finds the module, loads it in a class loader of its own and asks it for a communicator.
 */
public interface BackendModule {

    /** The backend's name in specs and result files, e.g. {@code gloo}. */
    String backend();

    /** The libraries that run, with their versions, for the rank's header (e.g. "libtorch 2.10.0 (Gloo)"). */
    String libraries();

    /**
     * Connects this rank to the others of its step; every wait is bounded by the request's deadline. Throws
     * CctkException with the exit code that fits (ENVIRONMENT when the libraries cannot load).
     */
    Communicator connect(Request request);

    /**
     * What a module needs to connect a rank.
     *
     * @param rank        this rank in the step
     * @param size        the step's ranks
     * @param store       the job's authenticated store, under {@code keyPrefix}
     * @param keyPrefix   the prefix of this backend's keys in the store (one per step and world size)
     * @param nics        the spec's NICs by name (empty: the module's default)
     * @param host        the address this rank's peers reach it at when no NIC is named
     * @param sharedDir   an owner-only directory every rank of the step can reach (the job's output file system)
     * @param nativeCache the node-local, owner-only directory native libraries are unpacked to
     * @param deadline    how long any wait on a peer may last
     */
    record Request(int rank, int size, Store store, String keyPrefix, List<String> nics, String host,
                   Path sharedDir, Path nativeCache, Duration deadline) {
        public Request {
            nics = List.copyOf(nics);
        }
    }
}
