package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The device memory kept free: 1 GiB per 16 GiB installed (at most 4 GiB) plus 1 GiB, as nccl-tests keeps. */
@Timeout(30)
class DeviceMemoryTest {

    private static final long GIB = 1L << 30;

    @Test
    void theHeadroomGrowsWithTheGpuUpToFiveGib() {
        assertThat(DeviceMemory.headroom(16 * GIB)).isEqualTo(2 * GIB);
        assertThat(DeviceMemory.headroom(16 * GIB + 1)).isEqualTo(3 * GIB);
        assertThat(DeviceMemory.headroom(24 * GIB)).isEqualTo(3 * GIB);
        // an H100 reports about 79.1 GiB: 5 sixteenths rounded up, capped at 4, plus 1
        assertThat(DeviceMemory.headroom(85_031_714_816L)).isEqualTo(5 * GIB);
        assertThat(DeviceMemory.headroom(141 * GIB)).isEqualTo(5 * GIB);
    }

    @Test
    void aSizeIntoTheHeadroomIsSkippedWithTheArithmetic() {
        final long total = 80 * GIB;
        assertThat(DeviceMemory.refusal(75 * GIB, 0, total, 0)).isNull();
        assertThat(DeviceMemory.refusal(40 * GIB, 35 * GIB, total, 0)).isNull();
        final String text = DeviceMemory.refusal(75 * GIB + 1, 0, total, 3);
        assertThat(text).isEqualTo((75 * GIB + 1) + " bytes do not fit on GPU 3 beside the " + 5 * GIB + " bytes kept"
                + " free (" + total + " bytes in all, " + 75 * GIB + " usable: 1 GiB per 16 GiB, at most 4 GiB, plus"
                + " 1 GiB, as nccl-tests keeps; 0 held by cctk); size skipped.");
        assertThat(DeviceMemory.refusal(40 * GIB, 35 * GIB + 1, total, 0)).contains("held by cctk", "size skipped");
        assertThat(DeviceMemory.refusal(1, 0, GIB, 0)).contains("0 usable");
    }
}
