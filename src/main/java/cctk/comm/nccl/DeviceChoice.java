package cctk.comm.nccl;

import cctk.CctkException;
import java.util.List;

/**
 * Which GPU a rank drives: the spec's device map indexed by local rank when there is one, else the local rank
 * modulo the GPUs this process sees (every GPU of the node stays visible with --gpu-bind=none, so NCCL can use
 * NVLink; with per-task binding each rank sees one GPU and takes device 0).
 */
public final class DeviceChoice {

    private DeviceChoice() {
    }

    /**
     * @param localRank rank on this node (SLURM_LOCALID)
     * @param visible   cudaGetDeviceCount
     * @param map       nccl.devices (local rank → device), empty for the default
     * @param visibleDevices CUDA_VISIBLE_DEVICES as set (null when unset), named when no GPU is visible
     */
    public static int pick(final int localRank, final int visible, final List<Integer> map,
                           final String visibleDevices) {
        if (visible < 1) {
            throw CctkException.environment("local rank " + localRank + " sees no GPU (CUDA_VISIBLE_DEVICES="
                    + visibleDevices + "); request GPUs for the step (resources.gpus_per_node)"
                    + " and check resources.gpu_bind.");
        }
        if (map == null || map.isEmpty()) {
            return localRank % visible;
        }
        if (localRank >= map.size()) {
            throw CctkException.usage("nccl.devices maps " + map.size() + " local ranks, but this is local rank "
                    + localRank + "; give one device per task of a node.");
        }
        final int device = map.get(localRank);
        if (device < 0 || device >= visible) {
            throw CctkException.usage("nccl.devices gives local rank " + localRank + " device " + device + ", but"
                    + " this process sees " + visible + " GPU(s) (0-" + (visible - 1) + ").");
        }
        return device;
    }
}
