package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The parts of the nccl backend that need no GPU: enum values, versions, device choice, the unique id. */
@Timeout(60)
class NcclPartsTest {

    @Test
    void typesAndOperatorsHaveNcclsEnumValues() {
        assertThat(Arrays.stream(DType.values()).map(NcclTypes::dataType).toList())
                .containsExactly(7, 8, 6, 9, 0, 1, 2, 4);
        assertThat(Arrays.stream(ReduceOp.values()).map(NcclTypes::redOp).toList()).containsExactly(0, 1, 3, 2, 4);
        assertThat(NcclTypes.minimumVersion(DType.BFLOAT16)).isEqualTo(21_000);
        assertThat(NcclTypes.minimumVersion(ReduceOp.AVG)).isEqualTo(21_000);
        assertThat(NcclTypes.minimumVersion(ReduceOp.MAX)).isEqualTo(20_000);
    }

    @Test
    void versionCodesOfBothSchemesReadTheSame() {
        assertThat(NcclTypes.versionText(22_703)).isEqualTo("2.27.3");
        assertThat(NcclTypes.versionText(2804)).isEqualTo("2.8.4");
        assertThat(NcclTypes.normalised(2708)).isEqualTo(20_708).isGreaterThanOrEqualTo(NcclLibraries.MIN_NCCL);
        assertThat(NcclTypes.normalised(2604)).isLessThan(NcclLibraries.MIN_NCCL);
        assertThat(Cuda.versionText(12_040)).isEqualTo("12.4");
        assertThat(Cuda.versionText(13_030)).isEqualTo("13.3");
    }

    @Test
    void localRankPicksTheDeviceOrTheMapDoes() {
        assertThat(DeviceChoice.pick(0, 4, List.of(), null)).isZero();
        assertThat(DeviceChoice.pick(6, 4, List.of(), null)).isEqualTo(2);
        assertThat(DeviceChoice.pick(3, 1, List.of(), null)).isZero();
        assertThat(DeviceChoice.pick(1, 4, List.of(3, 2, 1, 0), null)).isEqualTo(2);
        assertThatThrownBy(() -> DeviceChoice.pick(2, 4, List.of(0, 1), null)).isInstanceOf(CctkException.class)
                .hasMessageContaining("maps 2 local ranks").hasMessageContaining("local rank 2");
        assertThatThrownBy(() -> DeviceChoice.pick(0, 2, List.of(5), null)).hasMessageContaining("device 5")
                .hasMessageContaining("sees 2 GPU(s) (0-1)");
        assertThatThrownBy(() -> DeviceChoice.pick(0, 0, List.of(), null)).isInstanceOf(CctkException.class)
                .hasMessageContaining("sees no GPU");
    }

    @Test
    void rankZerosUniqueIdReachesEveryRankByteForByte() throws Exception {
        final int world = 4;
        final MemoryStore store = new MemoryStore(world, java.time.Duration.ofSeconds(10));
        final byte[] id = new byte[UniqueIdExchange.ID_BYTES];
        for (int i = 0; i < id.length; i++) {
            id[i] = (byte) (i * 37 + 11);
        }
        final Set<Integer> creators = new HashSet<>();
        final ExecutorService pool = Executors.newFixedThreadPool(world);
        try {
            final List<Future<byte[]>> got = new ArrayList<>();
            for (int r = 0; r < world; r++) {
                final int rank = r;
                got.add(pool.submit(() -> UniqueIdExchange.share(store, "nccl/nccl/w4/nccl-unique-id", rank, () -> {
                    synchronized (creators) {
                        creators.add(rank);
                    }
                    return id.clone();
                })));
            }
            for (final Future<byte[]> f : got) {
                assertThat(f.get()).isEqualTo(id);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(creators).containsExactly(0);
    }

    @Test
    void anIdOfTheWrongSizeIsRefused() {
        final MemoryStore store = new MemoryStore(2, java.time.Duration.ofSeconds(1));
        store.set("k", new byte[64]);
        assertThatThrownBy(() -> UniqueIdExchange.share(store, "k", 1, () -> null))
                .isInstanceOfSatisfying(CctkException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.INTERNAL))
                .hasMessageContaining("has 64 bytes, expected 128");
    }

    @Test
    void theDriverMayBeAnOlderMinorOfTheRuntimesMajorButNotAnOlderMajor() {
        // CUDA's minor-version compatibility: cudart 12.8 on an R535 driver (12.2), 13.3 on R580 (13.0)
        assertThat(NcclSetup.driverProblem(12020, 12080, "n1")).isNull();
        assertThat(NcclSetup.driverProblem(13000, 13030, "n1")).isNull();
        assertThat(NcclSetup.driverProblem(13000, 12060, "n1")).isNull();
        assertThat(NcclSetup.driverProblem(12090, 13000, "n1")).contains("n1", "supports CUDA 12.9", "older major",
                "CUDA 13.0 runtime", "-Pcuda12");
        assertThat(NcclSetup.driverProblem(0, 13000, "n1")).contains("no CUDA support", "GPU node");
    }

    @Test
    void ncclOlderThanCctkNeedsIsExplained() {
        assertThat(NcclSetup.ncclProblem(2604)).contains("2.6.4", "2.7.0 or newer");
        assertThat(NcclSetup.ncclProblem(23007)).isNull();
    }

    @Test
    void inPlaceAllToAllAndSendRecvHaveNoFormOnNcclAndSayWhy() {
        for (final CollectiveType c : List.of(CollectiveType.ALLTOALL, CollectiveType.ALLTOALLV,
                CollectiveType.SENDRECV)) {
            assertThat(NcclTypes.unsupported(c, DType.FLOAT32, null, true, 23007)).startsWith(
                    "no in-place form on nccl").contains("concurrently from the same memory");
            assertThat(NcclTypes.unsupported(c, DType.FLOAT32, null, false, 23007)).isNull();
        }
        assertThat(NcclTypes.unsupported(CollectiveType.ALL_REDUCE, DType.FLOAT32, ReduceOp.SUM, true, 23007)).isNull();
    }

    @Test
    void bfloat16AndAvgOnAnNcclBefore210AreSkippedWithTheReason() {
        assertThat(NcclTypes.unsupported(CollectiveType.ALL_REDUCE, DType.BFLOAT16, ReduceOp.SUM, false, 2804))
                .isEqualTo("bfloat16 needs NCCL 2.10.0 or newer; this node's is 2.8.4");
        assertThat(NcclTypes.unsupported(CollectiveType.ALL_REDUCE, DType.FLOAT32, ReduceOp.AVG, false, 20903))
                .isEqualTo("avg needs NCCL 2.10.0 or newer; this node's is 2.9.3");
        assertThat(NcclTypes.unsupported(CollectiveType.ALL_REDUCE, DType.BFLOAT16, ReduceOp.AVG, false, 21003))
                .isNull();
    }
}
