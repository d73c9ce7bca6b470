package cctk.comm.nccl;

import cctk.CctkException;
import java.util.HexFormat;
import java.util.Map;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;

/**
 * A child process for {@link NcclRealLibrariesIT}: loads the real cudart/NCCL through cctk's loader (with the
 * built jar on the class path) and prints what they answer, one "key value" a line. Modes: versions, id (a real
 * NCCL unique id, hex), share DIR RANK (rank 0's id through a file store),
 * has SYMBOL, devices, setup (the checks NcclSetup.open makes before the GPU), second LIBRARY... (a second load
 * in the same process, each LIBRARY an nccl.library or - for none).
 * Exit code: 0, or the CctkException's exit code with its one paragraph on stderr.
 */
public final class RealLibrariesProbe {

    private RealLibrariesProbe() {
    }

    public static void main(final String[] args) {
        try {
            NcclLibraries.load(cctk.Environment.process(), System.getProperty("cctk.probe.library"));
            run(args);
        } catch (CctkException e) {
            System.err.println("cctk: " + e.getMessage());
            System.exit(e.exitCode().code());
        }
    }

    /**
     * A send/recv whose ncclSend fails (a communicator NCCL refuses: no GPU needed) must leave no group open: an
     * extra ncclGroupEnd afterwards is then "not in a group" (ncclInvalidUsage), where a group left open would
     * have been ended by it (ncclSuccess), as the raw sequence shows first.
     */
    private static void group() {
        final org.bytedeco.cuda.nccl.ncclComm none = new org.bytedeco.cuda.nccl.ncclComm();
        final org.bytedeco.javacpp.Pointer p = new org.bytedeco.javacpp.Pointer();
        nccl.ncclGroupStart();
        System.out.println("raw-send " + nccl.ncclSend(p, 4, nccl.ncclFloat32, 1, none, null));
        System.out.println("raw-extra-group-end " + nccl.ncclGroupEnd());
        final NcclCommunicator comm = nullComm(none, new int[1]);
        final NcclBuffer b = new NcclBuffer(comm, p, 0, 64);
        try {
            comm.sendRecv(b, 1, b, 1, 4, cctk.comm.DType.FLOAT32);
            System.out.println("sendrecv ok");
        } catch (CctkException e) {
            System.out.println("sendrecv " + e.exitCode() + " " + e.getMessage());
        }
        System.out.println("extra-group-end " + nccl.ncclGroupEnd());
    }

    /**
     * NcclSetup's real communicator creation, world 1, with the real NCCL on a machine without a GPU: NCCL refuses
     * it (at once, or through ncclCommGetAsyncError after ncclInProgress); cctk must abort it on this thread and
     * say so in one paragraph, and the process must live on to print it.
     */
    private static void init() {
        final org.bytedeco.cuda.nccl.ncclUniqueId u = new org.bytedeco.cuda.nccl.ncclUniqueId();
        System.out.println("unique-id " + nccl.ncclGetUniqueId(u));
        final byte[] id = new byte[UniqueIdExchange.ID_BYTES];
        u.internal().get(id);
        final org.bytedeco.cuda.nccl.ncclComm comm = new org.bytedeco.cuda.nccl.ncclComm();
        final int[] aborts = new int[1];
        final Watchdog.Health real = NcclSetup.health(comm);
        final Watchdog.Health counted = new Watchdog.Health() {
            @Override
            public int asyncError() {
                return real.asyncError();
            }

            @Override
            public String errorText(final int code) {
                return real.errorText(code);
            }

            @Override
            public String lastError() {
                return real.lastError();
            }

            @Override
            public void abort() {
                aborts[0]++;
                System.out.println("abort on " + Thread.currentThread().getName());
                real.abort();
            }
        };
        final java.time.Duration timeout = java.time.Duration.ofSeconds(60);
        final Watchdog dog = new Watchdog(counted, 0, timeout.toNanos());
        final NcclSetup.Request r = new NcclSetup.Request(0, 1, 0, null, "", "nccl", NcclConfig.DEFAULT, timeout,
                null);
        try {
            NcclSetup.init(r, id, 0, comm, dog);
            System.out.println("init ok");
        } catch (CctkException e) {
            System.out.println("init " + e.exitCode() + " " + e.getMessage());
        }
        System.out.println("aborts " + aborts[0] + " aborted " + dog.aborted());
        System.out.println("threads " + Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith("cctk-")).sorted().toList());
    }

    /** Every field of cctk's ncclConfig_t as the preset reads it back: "config NAME VALUE" a line. */
    private static void config() {
        try (org.bytedeco.cuda.nccl.ncclConfig_t c = CommConfig.nonBlocking()) {
            for (final java.lang.reflect.Method m : c.getClass().getDeclaredMethods()) {
                if (m.getParameterCount() == 0 && java.lang.reflect.Modifier.isNative(m.getModifiers())
                        && java.lang.reflect.Modifier.isPublic(m.getModifiers())) {
                    try {
                        final Object v = m.invoke(c);
                        System.out.println("config " + m.getName() + " " + (v == null
                                || v instanceof org.bytedeco.javacpp.Pointer p && p.isNull() ? "NULL" : v));
                    } catch (ReflectiveOperationException e) {
                        System.out.println("config " + m.getName() + " unreadable " + e);
                    }
                }
            }
            System.out.println("sizeof " + org.bytedeco.javacpp.Pointer.sizeof(c.getClass()));
        }
    }

    /** A communicator on a null handle (NCCL refuses it: no GPU needed); {@code aborts[0]} counts its aborts. */
    private static NcclCommunicator nullComm(final org.bytedeco.cuda.nccl.ncclComm none, final int[] aborts) {
        final Watchdog.Health quiet = new Watchdog.Health() {
            @Override
            public int asyncError() {
                return 0;
            }

            @Override
            public String errorText(final int code) {
                return "error " + code;
            }

            @Override
            public void abort() {
                aborts[0]++;
            }
        };
        return new NcclCommunicator(new NcclSetup.Opened(0, 2, "nccl", 0, none,
                new org.bytedeco.cuda.cudart.CUstream_st(), new Watchdog(quiet, 0,
                java.util.concurrent.TimeUnit.SECONDS.toNanos(30))), NcclConfig.DEFAULT);
    }

    /** After an abort the communicator is freed: cctk refuses the next call itself, and close() aborts no more. */
    private static void aborted() {
        final int[] aborts = new int[1];
        final NcclCommunicator comm = nullComm(new org.bytedeco.cuda.nccl.ncclComm(), aborts);
        final NcclBuffer b = new NcclBuffer(comm, new org.bytedeco.javacpp.Pointer(), 0, 64);
        comm.watchdogForTests().abort();
        try {
            comm.allReduce(b, b, 4, cctk.comm.DType.FLOAT32, cctk.comm.ReduceOp.SUM);
            System.out.println("allreduce ok");
        } catch (CctkException e) {
            System.out.println("allreduce " + e.exitCode() + " " + e.getMessage());
        }
        comm.close();
        System.out.println("aborts " + aborts[0]);
    }

    private static void run(final String[] args) {
        final int[] v = new int[1];
        switch (args[0]) {
            case "versions" -> {
                System.out.println("cudart " + cudart.cudaRuntimeGetVersion(v) + " " + v[0]);
                System.out.println("driver " + cudart.cudaDriverGetVersion(v) + " " + v[0]);
                System.out.println("nccl " + nccl.ncclGetVersion(v) + " " + v[0] + " " + NcclTypes.versionText(v[0]));
                System.out.println("mapped " + String.join(" ", NcclLibraries.mapped()));
                System.out.println("loaded " + NcclLibraries.loadedFiles());
            }
            case "id" -> {
                final org.bytedeco.cuda.nccl.ncclUniqueId id = new org.bytedeco.cuda.nccl.ncclUniqueId();
                final int r = nccl.ncclGetUniqueId(id);
                final byte[] b = new byte[UniqueIdExchange.ID_BYTES];
                id.internal().get(b);
                System.out.println("id " + r + " " + HexFormat.of().formatHex(b));
                System.out.println("last " + NcclSetup.lastError(null));
            }
            case "share" -> {
                // rank 0 creates a real NCCL unique id; the store carries it to rank 1 in another process
                final int rank = Integer.parseInt(args[2]);
                try (cctk.comm.FileStore store = new cctk.comm.FileStore(java.nio.file.Path.of(args[1]), rank,
                        java.time.Duration.ofSeconds(60))) {
                    final byte[] id = UniqueIdExchange.share(store, "nccl-unique-id", rank, () -> {
                        final org.bytedeco.cuda.nccl.ncclUniqueId u = new org.bytedeco.cuda.nccl.ncclUniqueId();
                        if (nccl.ncclGetUniqueId(u) != nccl.ncclSuccess) {
                            throw CctkException.environment("ncclGetUniqueId failed");
                        }
                        final byte[] b = new byte[UniqueIdExchange.ID_BYTES];
                        u.internal().get(b);
                        return b;
                    });
                    System.out.println("shared " + HexFormat.of().formatHex(id));
                }
            }
            case "group" -> group();
            case "init" -> init();
            case "config" -> config();
            case "aborted" -> aborted();
            case "has" -> System.out.println("has " + args[1] + " " + NcclLibraries.has(args[1]));
            case "second" -> {
                // a second load in this process, each argument an nccl.library ("-": none)
                for (int i = 1; i < args.length; i++) {
                    try {
                        NcclLibraries.load(cctk.Environment.process(), "-".equals(args[i]) ? null : args[i]);
                        System.out.println("second " + args[i] + " ok");
                    } catch (CctkException e) {
                        System.out.println("second " + args[i] + " " + e.exitCode() + " " + e.getMessage());
                    }
                }
            }
            case "devices" -> {
                final int r = cudart.cudaGetDeviceCount(v);
                System.out.println("devices " + r + " " + v[0] + " " + Cuda.text(r));
            }
            default -> throw CctkException.usage("unknown mode " + args[0] + Map.of());
        }
    }
}
