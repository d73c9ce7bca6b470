package cctk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvironmentTest {

    @Test
    void theHeaderShowsNcclCctkAndTheAllocatorSettingsButNeitherTheSecretNorAnythingElse() {
        final Environment env = Environment.of(Map.of(
            "NCCL_IB_HCA", "mlx5_0", "CCTK_SHM_DIR", "/dev/shm", "CCTK_SECRET", "s3cret",
            "GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", "MALLOC_ARENA_MAX", "1",
            "HOME", "/root", "LD_LIBRARY_PATH", "/opt/lib", "MY_GLIBC_TUNABLES", "x"));

        assertEquals(Map.of("CCTK_SHM_DIR", "/dev/shm", "GLIBC_TUNABLES", "glibc.malloc.hugetlb=1",
            "MALLOC_ARENA_MAX", "1", "NCCL_IB_HCA", "mlx5_0"), env.shown());
        assertEquals(java.util.List.of("CCTK_SHM_DIR", "GLIBC_TUNABLES", "MALLOC_ARENA_MAX", "NCCL_IB_HCA"),
            java.util.List.copyOf(env.shown().keySet()), "sorted");
    }

    @Test
    void glibcsAllocatorIsSetByGlibcTunablesOrAnyMallocVariableOnly() {
        org.junit.jupiter.api.Assertions.assertTrue(Environment.of(Map.of("GLIBC_TUNABLES", "")).setsAllocator());
        org.junit.jupiter.api.Assertions.assertTrue(Environment.of(Map.of("MALLOC_ARENA_MAX", "2")).setsAllocator());
        org.junit.jupiter.api.Assertions.assertFalse(Environment.of(Map.of("MY_MALLOC_X", "1", "HOME", "/root"))
            .setsAllocator());
        org.junit.jupiter.api.Assertions.assertFalse(Environment.empty().setsAllocator());
    }
}
