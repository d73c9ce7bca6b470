package cctk.rank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(10)
class HostlistTest {

    /** Hostlist expressions as Slurm 22.05's {@code scontrol show hostnames} expands them. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "nid[001-004,007]|nid001 nid002 nid003 nid004 nid007",
        "gpu-[01-02]x[1-2]|gpu-01x1 gpu-01x2 gpu-02x1 gpu-02x2",
        "rack[1-2]-node[01-03]|rack1-node01 rack1-node02 rack1-node03 rack2-node01 rack2-node02 rack2-node03",
        "lrdn[0001-0003],lrdn1234|lrdn0001 lrdn0002 lrdn0003 lrdn1234",
        "nid[001049,001052]|nid001049 nid001052",
        "nid[8-11]|nid8 nid9 nid10 nid11",
        "nid[1-010]|nid1 nid2 nid3 nid4 nid5 nid6 nid7 nid8 nid9 nid10",
        "n[09-11]|n09 n10 n11",
        "n[01-3]|n01 n02 n03",
        "nid[3,1,3]|nid3 nid1 nid3",
        "'a b,c'|a b c",
        "n[1-2][3-4]|n13 n14 n23 n24",
        "a[1-2]b[1-2]c[1-2]|a1b1c1 a1b1c2 a2b1c1 a2b1c2 a1b2c1 a1b2c2 a2b2c1 a2b2c2",
        "a[1-2]b[1-2]c[1-2]d[1]|a1b1c1d1 a2b1c1d1 a1b2c1d1 a2b2c1d1 a1b1c2d1 a2b1c2d1 a1b2c2d1 a2b2c2d1",
        "nid001.local|nid001.local",
        "n[1-2],n[2-3]|n1 n2 n2 n3",
        "'a,,b'|a b",
        "[1-2]|1 2",
        "node[1-2]-ib|node1-ib node2-ib",
    })
    void expandsLikeScontrol(final String expression, final String expected) {
        assertThat(Hostlist.expand(expression)).containsExactlyElementsOf(Arrays.asList(expected.split(" ")));
    }

    @Test
    void paddingComesFromTheLowBoundAndLongerValuesPrintWhole() {
        final List<String> hosts = Hostlist.expand("n[001-1000]");
        assertThat(hosts).hasSize(1000);
        assertThat(hosts.get(0)).isEqualTo("n001");
        assertThat(hosts.get(998)).isEqualTo("n999");
        assertThat(hosts.get(999)).isEqualTo("n1000");
    }

    @ParameterizedTest
    @ValueSource(strings = {"nid[5-3]", "n[]", "n[-1]", "n[1x2]", "n[1-2", "n1]", "n[1-2]]", "", " , ", "n[a-b]",
        "n[1-2[3]]", "n[0-70000]"})
    void rejectsWhatSlurmRejects(final String expression) {
        assertThatThrownBy(() -> Hostlist.expand(expression))
                .isInstanceOf(CctkException.class)
                .hasMessageContaining("invalid Slurm hostlist");
    }

    @Test
    void errorNamesTheBadRange() {
        assertThatThrownBy(() -> Hostlist.expand("nid[5-3]")).hasMessageContaining("'5-3'");
    }
}
