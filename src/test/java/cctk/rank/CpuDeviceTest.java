package cctk.rank;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.CpuList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class CpuDeviceTest {

    @Test
    void aRankOnFewerCpusThanAreOnlineNamesThem() {
        final CpuList online = CpuList.parse("0-3");
        assertThat(RankMain.cpuDevice(CpuList.parse("0-3"), online)).isEqualTo("cpu");
        assertThat(RankMain.cpuDevice(CpuList.parse("1"), online)).isEqualTo("cpu (bound to CPU 1)");
        assertThat(RankMain.cpuDevice(CpuList.parse("0,2"), online)).isEqualTo("cpu (bound to CPUs 0,2)");
        assertThat(RankMain.cpuDevice(null, online)).isEqualTo("cpu");
        assertThat(RankMain.cpuDevice(CpuList.parse("1"), null)).isEqualTo("cpu");
    }
}
