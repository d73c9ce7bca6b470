package cctk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class CpuListTest {

    @Test
    void readsTheKernelsListFormatAndWritesItBack() {
        final CpuList l = CpuList.parse("0-3,8,10-11\n");
        assertThat(l.cpus()).containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThat(l.size()).isEqualTo(7);
        assertThat(l.get(4)).isEqualTo(8);
        assertThat(l.text()).isEqualTo("0-3,8,10-11");
        assertThat(CpuList.parse("5").text()).isEqualTo("5");
        assertThat(CpuList.parse("3,1,2,1").text()).isEqualTo("1-3");
        assertThat(new CpuList(List.of(4, 6)).text()).isEqualTo("4,6");
    }

    @Test
    void refusesWhatIsNoListOfCpus() {
        for (final String bad : new String[] {"", " ", "a", "1,,2", "3-1", "-1", "1-", "0-999999", "1.5", "0 1",
            "1-2-3"}) {
            assertThat(CpuList.parse(bad)).as(bad).isNull();
        }
        assertThat(CpuList.parse(null)).isNull();
    }

    @Test
    void thisProcessMayRunOnTheCpusItsRuntimeCountsAndTheyAreOnline() {
        final CpuList allowed = CpuList.allowed();
        final CpuList online = CpuList.online();
        assertThat(allowed).as("Cpus_allowed_list of /proc/self/status (Linux)").isNotNull();
        assertThat(online).as("/sys/devices/system/cpu/online (Linux)").isNotNull();
        // the runtime counts the CPUs of its affinity, fewer where a cgroup's quota caps them
        assertThat(allowed.size()).isGreaterThanOrEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(online.cpus()).containsAll(allowed.cpus());
    }
}
