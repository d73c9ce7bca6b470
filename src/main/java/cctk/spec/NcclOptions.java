package cctk.spec;

import cctk.comm.nccl.NcclConfig.Timing;
import cctk.comm.nccl.NcclConfig;
import java.util.List;
import java.util.Locale;

/**
 * The {@code nccl:} section: how the nccl backend runs.
 *
 * @param backendName the name this NCCL build goes by in benchmark.backends and result file names: {@code nccl},
 *                    or e.g. {@code ncclx} for another NCCL-API-compatible library
 * @param library     a libnccl.so.2 file or its directory used instead of the library path's, or null
 * @param devices     local rank → GPU index; empty: local rank modulo the visible GPUs
 * @param debug       NCCL_DEBUG=INFO into a per-rank NCCL_DEBUG_FILE, summarised in each rank's header line
 * @param timing      how the timed iterations are timed
 * @param profiler    a profiler wrapped around every rank, one report per rank
 */
public record NcclOptions(String backendName, String library, List<Integer> devices, boolean debug, Timing timing,
                          Profiler profiler) {

    /** The defaults of a spec without an {@code nccl:} section. */
    public static final NcclOptions DEFAULT = new NcclOptions("nccl", null, List.of(), false, Timing.PIPELINED,
            Profiler.NONE);

    public NcclOptions {
        devices = List.copyOf(devices);
    }

    /** What the communicator needs of this section; {@code alltoallGrouped} from the environment. */
    public NcclConfig config(final boolean alltoallGrouped) {
        return new NcclConfig(library, devices, timing, alltoallGrouped);
    }

    /** Whether {@code backend} (a benchmark.backends entry) is this NCCL build. */
    public boolean serves(final String backend) {
        return "nccl".equals(backend) || backendName.equals(backend);
    }

    /** A profiler around each rank. */
    public enum Profiler {
        NONE, NSYS, NCU;

        public String specName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
