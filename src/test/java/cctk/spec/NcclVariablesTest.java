package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The table against NCCL's documented variables (NCCL user guide, "Environment Variables"): what NCCL would
 * silently misread must be refused. */
@Timeout(10)
class NcclVariablesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "NCCL_NET_GDR_LEVEL|PHB", "NCCL_NET_GDR_LEVEL|3", "NCCL_P2P_LEVEL|NVL", "NCCL_P2P_LEVEL|SYS",
        "NCCL_IB_HCA|^=mlx5_1,mlx5_4", "NCCL_IB_HCA|=mlx5_0:1", "NCCL_IB_HCA|=mlx5_0:1,mlx5_1:1", "NCCL_IB_HCA|mlx5",
        "NCCL_SOCKET_IFNAME|hsn", "NCCL_SOCKET_IFNAME|=eth0,eth1", "NCCL_SOCKET_IFNAME|^docker",
        "NCCL_SOCKET_IFNAME|^=docker0", "NCCL_BUFFSIZE|8388608", "NCCL_CROSS_NIC|0", "NCCL_IB_DISABLE|1",
        "NCCL_DEBUG|info", "NCCL_DEBUG|WARN", "NCCL_DEBUG_SUBSYS|INIT,NET", "NCCL_DEBUG_SUBSYS|^init,coll",
        "NCCL_ALGO|Ring,Tree", "NCCL_ALGO|^tree", "NCCL_ALGO|ring,collnetdirect;allreduce:tree,collnetdirect;broadcast:ring",
        "NCCL_ALGO|allreduce:^tree", "NCCL_PROTO|LL,LL128,Simple", "NCCL_PROTO|^LL128", "NCCL_NET|AWS Libfabric",
        "NCCL_NET|ib", "NCCL_SOCKET_FAMILY|AF_INET6", "NCCL_COMM_ID|10.0.0.1:29500", "NCCL_COMM_ID|[fe80::1]:29500",
        "NCCL_DEBUG_FILE|/tmp/nccl.%h.%p.log", "NCCL_IB_GID_INDEX|-1", "NCCL_IB_TIMEOUT|22", "NCCL_NET_PLUGIN|none"})
    void accepts(final String name, final String value) {
        assertThat(NcclVariables.check(name, value)).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "NCCL_NET_GDR_LEVEL|PBH|PHB, SYS", "NCCL_NET_GDR_LEVEL|phb|upper case", "NCCL_P2P_LEVEL|nvl|upper case",
        "NCCL_BUFFSIZE|08388608|no leading zeros", "NCCL_BUFFSIZE|0x100|no hex", "NCCL_BUFFSIZE|4M|decimal",
        "NCCL_SOCKET_IFNAME|eth0:1|no :port", "NCCL_SOCKET_IFNAME|eth0,^eth1|^=", "NCCL_IB_HCA|mlx5_0,^mlx5_1|^=",
        "NCCL_IB_HCA|=mlx5_0:x|:port", "NCCL_IB_HCA|=|1 to 32", "NCCL_SOCKET_IFNAME|' eth0'|interface names",
        "NCCL_SOCKET_IFNAME|averyveryverylongname|interface names", "NCCL_CROSS_NIC|3|from 0 to 2",
        "NCCL_IB_DISABLE|true|0 or 1", "NCCL_IB_DISABLE|2|0 or 1", "NCCL_DEBUG|LOUD|VERSION",
        "NCCL_DEBUG_SUBSYS|INIT,NETT|did you mean 'NET'?", "NCCL_ALGO|rign|did you mean 'Ring'?",
        "NCCL_ALGO|allredcue:tree|function name", "NCCL_PROTO|LL64|LL128", "NCCL_NET|Infiniband|IB, Socket",
        "NCCL_SOCKET_FAMILY|af_inet|AF_INET", "NCCL_COMM_ID|node1|host:port", "NCCL_COMM_ID|node1:99999|host:port",
        "NCCL_DEBUG_FILE|~/nccl.log|without ~", "NCCL_SOCKET_NTHREADS|17|from 1 to 16"})
    void rejects(final String name, final String value, final String fragment) {
        assertThat(NcclVariables.check(name, value)).contains(fragment).contains("found '" + value + "'");
    }

    @Test
    void pbhNamesTheAllowedLevels() {
        assertThat(NcclVariables.check("NCCL_NET_GDR_LEVEL", "PBH"))
                .startsWith("expected one of LOC, NVL, NVB, C2C, PIX, PXB, P2C, PXN, PHB, SYS");
    }

    @Test
    void unknownNamesGetASuggestion() {
        assertThat(NcclVariables.isKnown("NCCL_FOO")).isFalse();
        assertThat(NcclVariables.unknownMessage("NCCL_FOO")).contains("unknown NCCL variable; did you mean '");
        assertThat(NcclVariables.unknownMessage("NCCL_SOCKET_IFNAM")).contains("did you mean 'NCCL_SOCKET_IFNAME'?");
        assertThat(NcclVariables.unknownMessage("NCCL_IB_GDR_LEVEL")).contains("NCCL_NET_GDR_LEVEL");
    }

    @Test
    void socketThreadProductIsLimited() {
        assertThat(NcclVariables.checkTogether(java.util.Map.of("NCCL_SOCKET_NTHREADS", "4",
                "NCCL_NSOCKS_PERTHREAD", "16"))).isNull();
        assertThat(NcclVariables.checkTogether(java.util.Map.of("NCCL_SOCKET_NTHREADS", "8",
                "NCCL_NSOCKS_PERTHREAD", "16"))).contains("<= 64");
    }

    @Test
    void yamlIntegersBecomeTheirText(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir)
            throws Exception {
        final JobSpec s = SpecParser.parse(SpecFiles.write(dir, "n.yaml", "resources: {nodes: 1, tasks_per_node: 1}\n"
                + "nccl_env: {NCCL_BUFFSIZE: 33554432, NCCL_CROSS_NIC: 1, NCCL_NET: \"AWS Libfabric\"}\n"));
        assertThat(s.ncclEnv()).containsExactly(java.util.Map.entry("NCCL_BUFFSIZE", "33554432"),
                java.util.Map.entry("NCCL_CROSS_NIC", "1"), java.util.Map.entry("NCCL_NET", "AWS Libfabric"));
    }
}
