package cctk.spec;

import java.util.List;

/**
 * @param nodes        nodes to allocate
 * @param tasksPerNode ranks per node
 * @param gpusPerNode  GPUs per node (0 for a CPU-only job)
 * @param cpusPerTask  CPUs per rank
 * @param gpuBind      srun --gpu-bind value; {@code none} keeps every GPU of the node visible
 * @param distribution srun -m value; {@code block} puts rank 0 on the first node
 * @param nics         the NICs of a node by name, e.g. {@code [hsn0, hsn1]}; empty = let the backend choose
 */
public record Resources(int nodes, int tasksPerNode, int gpusPerNode, int cpusPerTask, String gpuBind,
                        String distribution, List<String> nics) {

    /** Ranks in the whole allocation. */
    public int totalTasks() {
        return nodes * tasksPerNode;
    }
}
