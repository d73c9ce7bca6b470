package cctk.comm.nccl;

import cctk.CctkException;
import cctk.EnvVar;
import cctk.Environment;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Store;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.cudart.cudaDeviceProp;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.cuda.nccl.ncclConfig_t;
import org.bytedeco.cuda.nccl.ncclUniqueId;
import org.bytedeco.javacpp.Pointer;

/**
 * Opens the nccl backend for one rank: loads the libraries (or explains why not), checks that driver, runtime and
 * NCCL fit together, picks the GPU, shares rank 0's unique id through the store and creates the communicator on
 * its own stream; then describes the rank for the result header (GPU, versions, the transport NCCL chose).
 * <b>Note:</b> not threadsafe; call on the thread that will drive the communicator.
 */
public final class NcclSetup {

    /**
     * What opening needs.
     *
     * @param rank      world rank
     * @param size      world size
     * @param localRank rank on this node
     * @param store     the rendezvous store
     * @param keyPrefix store key prefix unique to this step and backend
     * @param backend   the backend's name (nccl, or the spec's alias)
     * @param config    how to open and time it
     * @param timeout   deadline for every wait on a peer
     * @param env       the process environment (cache location, visible GPUs)
     */
    public record Request(int rank, int size, int localRank, Store store, String keyPrefix, String backend,
                          NcclConfig config, Duration timeout, Environment env) {
    }

    /** The native handles of an opened communicator. */
    record Opened(int rank, int size, String backend, int device, ncclComm comm, CUstream_st stream,
                  Watchdog watchdog) {
    }

    private NcclSetup() {
    }

    /** Opens the communicator; throws CctkException with one paragraph when this node cannot run NCCL. */
    public static NcclCommunicator open(final Request r) {
        NcclLibraries.load(r.env(), r.config().library());
        checkVersions();
        final int[] count = new int[1];
        final int err = cudart.cudaGetDeviceCount(count);
        if (err == cudart.cudaErrorNoDevice) {
            count[0] = 0;
        } else if (err != cudart.cudaSuccess) {
            throw CctkException.environment("The CUDA runtime finds no usable GPU on " + NcclLibraries.hostName()
                    + ": cudaGetDeviceCount says '" + Cuda.text(err) + "' (cudaError " + err + "). Check nvidia-smi"
                    + " on this node and that the job asked Slurm for GPUs (resources.gpus_per_node).");
        }
        final int device = DeviceChoice.pick(r.localRank(), count[0], r.config().devices(),
                r.env().get(EnvVar.CUDA_VISIBLE_DEVICES));
        Cuda.check(cudart.cudaSetDevice(device), "cudaSetDevice(" + device + ")");
        final byte[] id = UniqueIdExchange.share(r.store(), r.keyPrefix() + "nccl-unique-id", r.rank(),
                NcclSetup::newUniqueId);
        final CUstream_st stream = new CUstream_st();
        Cuda.check(cudart.cudaStreamCreateWithFlags(stream, cudart.cudaStreamNonBlocking), "cudaStreamCreate");
        r.store().barrier(r.keyPrefix() + "nccl-init");
        final ncclComm comm = new ncclComm();
        final Watchdog dog = new Watchdog(health(comm), r.rank(), r.timeout().toNanos());
        init(r, id, device, comm, dog);
        return new NcclCommunicator(new Opened(r.rank(), r.size(), r.backend(), device, comm, stream, dog),
                r.config());
    }

    /**
     * Creates the communicator into {@code comm}: non-blocking where NCCL has ncclCommInitRankConfig (≥ 2.14), so
     * this thread polls ncclCommGetAsyncError while it returns ncclInProgress, within the timeout, and aborts it
     * itself on an error or a passed deadline; else blocking, under a guard that ends the process.
     */
    static void init(final Request r, final byte[] idBytes, final int device, final ncclComm comm,
                     final Watchdog dog) {
        final ncclUniqueId id = new ncclUniqueId();
        id.internal().put(idBytes);
        if (NcclLibraries.has("ncclCommInitRankConfig")) {
            final String what = "ncclCommInitRankConfig on rank " + r.rank() + " (GPU " + device + ", world "
                    + r.size() + ")";
            try (ncclConfig_t config = CommConfig.nonBlocking()) {
                final int result = dog.call(what, () -> nccl.ncclCommInitRankConfig(comm, r.size(), id, r.rank(),
                        config));
                if (result != nccl.ncclSuccess) {
                    final String text = initFailed(what, result, comm);
                    dog.abort();
                    throw CctkException.environment(text);
                }
            }
            return;
        }
        // ncclCommInitRank blocks until every rank has joined and has no timeout of its own
        final Thread guard = deadline(r, device, System.err);
        final int result;
        try {
            result = nccl.ncclCommInitRank(comm, r.size(), id, r.rank());
        } finally {
            guard.interrupt();
        }
        if (result != nccl.ncclSuccess) {
            throw CctkException.environment(initFailed("ncclCommInitRank on rank " + r.rank() + " (GPU " + device
                    + ", world " + r.size() + ")", result, comm));
        }
    }

    private static String initFailed(final String what, final int result, final ncclComm comm) {
        return what + " failed: " + nccl.ncclGetErrorString(result).getString() + " (ncclResult " + result + ")"
                + lastError(comm) + ". Run with nccl.debug: true and read the rank's NCCL debug file.";
    }

    /** ": " + NCCL's last error message (e.g. "no CUDA-capable device is detected"), or "" (NCCL < 2.13). */
    static String lastError(final ncclComm comm) {
        if (!NcclLibraries.has("ncclGetLastError")) {
            return "";
        }
        final org.bytedeco.javacpp.BytePointer m = nccl.ncclGetLastError(comm);
        final String text = m == null || m.isNull() ? "" : m.getString().trim();
        return text.isEmpty() ? "" : ": " + text;
    }

    private static Thread deadline(final Request r, final int device, final PrintStream err) {
        final Thread t = new Thread(() -> {
            try {
                Thread.sleep(r.timeout().toMillis());
            } catch (InterruptedException e) {
                return;
            }
            err.println("cctk: rank " + r.rank() + " (GPU " + device + "): ncclCommInitRank did not return within "
                    + r.timeout().toSeconds() + " s (benchmark.timeout); a peer may have died or cannot be reached."
                    + " Giving up.");
            err.flush();
            Runtime.getRuntime().halt(cctk.ExitCode.ENVIRONMENT.code());
        }, "cctk-nccl-init-deadline");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static byte[] newUniqueId() {
        final ncclUniqueId id = new ncclUniqueId();
        final int r = nccl.ncclGetUniqueId(id);
        if (r != nccl.ncclSuccess) {
            throw CctkException.environment("ncclGetUniqueId failed: " + nccl.ncclGetErrorString(r).getString()
                    + " (ncclResult " + r + ")" + lastError(null) + "; check NCCL_SOCKET_IFNAME.");
        }
        final byte[] b = new byte[UniqueIdExchange.ID_BYTES];
        id.internal().get(b);
        return b;
    }

    static Watchdog.Health health(final ncclComm comm) {
        return new Watchdog.Health() {
            private final int[] code = new int[1];

            @Override
            public int asyncError() {
                final int r = nccl.ncclCommGetAsyncError(comm, code);
                return r != nccl.ncclSuccess ? r : code[0];
            }

            @Override
            public String errorText(final int c) {
                return nccl.ncclGetErrorString(c).getString();
            }

            @Override
            public String lastError() {
                return NcclSetup.lastError(comm).replaceFirst("^: ", "");
            }

            @Override
            public void abort() {
                nccl.ncclCommAbort(comm);
            }
        };
    }

    /** Driver too old for the runtime, or NCCL older than cctk needs: explained before anything runs. */
    private static void checkVersions() {
        final int[] v = new int[1];
        if (!NcclLibraries.has("ncclGetVersion")) {
            throw CctkException.environment(NcclLibraries.lacking(List.of("ncclGetVersion")));
        }
        nccl.ncclGetVersion(v);
        final String ncclProblem = ncclProblem(v[0]);
        if (ncclProblem != null) {
            throw CctkException.environment(ncclProblem);
        }
        // a function the loaded libnccl lacks kills the JVM when called (lazy binding): refuse it now instead
        final List<String> missing = NcclLibraries.REQUIRED.stream().filter(f -> !NcclLibraries.has(f)).toList();
        if (!missing.isEmpty()) {
            throw CctkException.environment(NcclLibraries.lacking(missing));
        }
        cudart.cudaDriverGetVersion(v);
        final int driver = v[0];
        cudart.cudaRuntimeGetVersion(v);
        final String driverProblem = driverProblem(driver, v[0], NcclLibraries.hostName());
        if (driverProblem != null) {
            throw CctkException.environment(driverProblem);
        }
    }

    /**
     * Why the driver cannot run this CUDA runtime, or null when it can. CUDA's minor-version compatibility runs
     * any runtime of the driver's CUDA major or older (cudart 12.8 on an R535 driver, which reports 12.2; 13.x on
     * any R580+); only a driver of an older major is refused (CUDA Compatibility guide, "Minor Version
     * Compatibility").
     */
    static String driverProblem(final int driver, final int runtime, final String host) {
        if (driver == 0) {
            return "The NVIDIA driver on " + host + " reports no CUDA support (cudaDriverGetVersion gave 0): the"
                    + " driver's libcuda.so.1 is there but no working driver is; run on a GPU node (nvidia-smi should"
                    + " list its GPUs).";
        }
        if (driver / 1000 < runtime / 1000) {
            return "The NVIDIA driver on " + host + " supports CUDA " + Cuda.versionText(driver) + ", an older major"
                    + " than the CUDA " + Cuda.versionText(runtime) + " runtime loaded. Build cctk for the driver's"
                    + " CUDA major (mvn -Pcuda12 package for CUDA 12; docs/nccl.md) or load that major's CUDA module.";
        }
        return null;
    }

    /** Why the loaded NCCL (ncclGetVersion's code) is too old for cctk, or null. */
    static String ncclProblem(final int code) {
        if (NcclTypes.normalised(code) < NcclLibraries.MIN_NCCL) {
            return "The nccl backend cannot start on " + NcclLibraries.hostName() + ": the loaded NCCL is "
                    + NcclTypes.versionText(code) + "; cctk needs "
                    + NcclTypes.versionText(NcclLibraries.MIN_NCCL) + " or newer. Load a newer NCCL module or set"
                    + " nccl.library.";
        }
        return null;
    }

    /** nccl.ncclAlltoAll when this preset declares it and the loaded libnccl exports it, else null. */
    static Method allToAllMethod(final boolean grouped) {
        if (grouped || !NcclLibraries.has("ncclAlltoAll")) {
            return null;
        }
        try {
            return nccl.class.getMethod("ncclAlltoAll", Pointer.class, Pointer.class, long.class, int.class,
                    ncclComm.class, CUstream_st.class);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /**
     * This rank's part of the header: GPU, PCI bus id, versions, how all-to-all runs and the transport NCCL chose
     * (from the NCCL_DEBUG_FILE after one small all-reduce has made it connect).
     */
    public static String describe(final NcclCommunicator c, final Environment env) {
        final var one = c.allocate(4);
        c.allReduce(one, one, 1, DType.FLOAT32, ReduceOp.SUM);
        c.synchronize();
        final int dev = c.device();
        final cudaDeviceProp prop = new cudaDeviceProp();
        Cuda.check(cudart.cudaGetDeviceProperties(prop, dev), "cudaGetDeviceProperties");
        final byte[] bus = new byte[32];
        cudart.cudaDeviceGetPCIBusId(bus, bus.length, dev);
        final int[] v = new int[1];
        final StringBuilder sb = new StringBuilder("gpu ").append(dev).append(" \"")
                .append(prop.name().getString()).append("\" pci ").append(cString(bus));
        cudart.cudaDriverGetVersion(v);
        sb.append(" driver-cuda ").append(Cuda.versionText(v[0]));
        cudart.cudaRuntimeGetVersion(v);
        sb.append(" cudart ").append(Cuda.versionText(v[0]));
        nccl.ncclGetVersion(v);
        sb.append(" nccl ").append(NcclTypes.versionText(v[0]));
        sb.append(" alltoall ").append(c.nativeAllToAll() ? "ncclAlltoAll" : "grouped-send-recv");
        final String files = NcclLibraries.loadedFiles();
        sb.append(files.isEmpty() ? "" : " " + files);
        sb.append(" transport ").append(TransportSummary.ofFile(env.get(EnvVar.NCCL_DEBUG_FILE),
                ProcessHandle.current().pid()));
        prop.close();
        return sb.toString();
    }

    private static String cString(final byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, java.nio.charset.StandardCharsets.US_ASCII);
    }
}
