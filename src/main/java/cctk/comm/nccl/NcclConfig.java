package cctk.comm.nccl;

import java.util.List;
import java.util.Locale;

/**
 * How one rank's NCCL communicator is opened and timed, as the rank layer hands it down (from the spec's
 * {@code nccl:} section).
 *
 * @param library a libnccl.so.2 file or its directory used instead of the library path's, or null
 * @param devices local rank → GPU index; empty: local rank modulo the visible GPUs
 * @param timing  how the timed iterations are timed
 * @param alltoallGrouped all-to-all as grouped send/recv even where ncclAlltoAll exists
 */
public record NcclConfig(String library, List<Integer> devices, Timing timing, boolean alltoallGrouped) {

    /** The defaults: the library path's NCCL, GPU = local rank, pipelined timing, ncclAlltoAll where it exists. */
    public static final NcclConfig DEFAULT = new NcclConfig(null, List.of(), Timing.PIPELINED, false);

    public NcclConfig {
        devices = List.copyOf(devices);
    }

    /** CUDA-event timing of the timed iterations. */
    public enum Timing {
        /** N launches, then one wait; each iteration is the average (as nccl-tests). */
        PIPELINED,
        /** Each iteration between its own events, waited for before the next launch. */
        BLOCKING,
        /** The N launches captured once into a CUDA graph, launched as one. */
        GRAPH;

        public String specName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
