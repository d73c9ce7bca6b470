package cctk.render;

import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.spec.Benchmark;
import cctk.spec.Cluster;
import cctk.spec.Job;
import cctk.spec.JobSpec;
import cctk.spec.MessageSize;
import cctk.spec.Resources;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The specs the golden files are rendered from, built in code until the parser lands. Switching a case to its
 * configs/*.yaml file is one line in {@link #specFor}.
 */
final class JobSpecs {

    static final List<String> GOLDEN = List.of("perlmutter-1x4", "leonardo-2x4", "cpu-2node-2nic", "local");

    private JobSpecs() {
    }

    static JobSpec specFor(final String name) {
        return switch (name) {
            case "perlmutter-1x4" -> perlmutter();
            case "leonardo-2x4" -> leonardo();
            case "cpu-2node-2nic" -> cpuTwoNic();
            case "local" -> local();
            default -> throw new IllegalArgumentException("no spec named " + name);
        };
    }

    static Benchmark benchmark(final List<String> backends, final List<Integer> tasks) {
        return new Benchmark(backends, tasks, List.of(CollectiveType.ALL_REDUCE, CollectiveType.ALL_GATHER),
                List.of(new MessageSize(1024, false), new MessageSize(1 << 20, false)), List.of(DType.FLOAT32),
                List.of(ReduceOp.SUM), 5, 20, 1, Benchmark.InPlace.BOTH, 0, new Benchmark.Imbalance(1.0, null), 60,
                10);
    }

    static Map<String, String> map(final String... kv) {
        final Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static JobSpec perlmutter() {
        return new JobSpec(Path.of("configs/perlmutter-1x4.yaml"),
                new Job("perlmutter-1x4", "results/perlmutter-1x4", "00:10:00"),
                new Cluster("perlmutter", null, "m1234_g", "regular", "gpu", null, List.of(),
                        List.of("cudatoolkit", "nccl"), null, "java", "cctk.jar"),
                new Resources(1, 4, 4, 32, "none", "block", List.of()),
                map("NCCL_NET", "AWS Libfabric", "NCCL_SOCKET_IFNAME", "hsn", "NCCL_CROSS_NIC", "1",
                        "NCCL_NET_GDR_LEVEL", "PHB"),
                map("FI_CXI_DISABLE_HOST_REGISTER", "1", "MPICH_GPU_SUPPORT_ENABLED", "0"),
                benchmark(List.of("nccl"), List.of(2, 4)), List.of());
    }

    private static JobSpec leonardo() {
        return new JobSpec(Path.of("configs/leonardo-2x4.yaml"),
                new Job("leonardo-2x4", "results/leonardo-2x4", "00:30:00"),
                new Cluster("leonardo", "boost_usr_prod", "EUHPC_TD02_030", "boost_qos_dbg", null, null,
                        List.of("--exclusive", "--mem=0"), List.of("cuda/12.2", "nccl/2.19.3-1--gcc--12.2.0-cuda-12.1"),
                        "env/leonardo.sh", "jdk-17/bin/java", "cctk.jar"),
                new Resources(2, 4, 4, 8, "none", "block", List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3")),
                map("NCCL_IB_HCA", "=mlx5_0,mlx5_1,mlx5_2,mlx5_3", "NCCL_NET", "IB"),
                map(),
                benchmark(List.of("nccl"), List.of(4, 8)), List.of());
    }

    private static JobSpec cpuTwoNic() {
        return new JobSpec(Path.of("configs/cpu-2node-2nic.yaml"),
                new Job("cpu-2node-2nic", "results/cpu-2node-2nic", "00:05:00"),
                new Cluster("netns", "debug", null, null, null, null, List.of(), List.of(), null, "java",
                        "target/cctk.jar"),
                new Resources(2, 2, 0, 1, "none", "block", List.of("eth0", "eth1")),
                map(),
                map("CCTK_LOG", "info"),
                benchmark(List.of("tcp"), List.of(2, 3, 4)), List.of());
    }

    private static JobSpec local() {
        return new JobSpec(Path.of("configs/local.yaml"),
                new Job("local", "results/local", "00:05:00"),
                new Cluster("local", null, null, null, null, null, List.of(), List.of(), null, "java",
                        "target/cctk.jar"),
                new Resources(1, 4, 0, 1, "none", "block", List.of()),
                map(), map(),
                benchmark(List.of("tcp"), List.of(2, 4)), List.of());
    }
}
