package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** NCCL INFO logs (the line shapes of NCCL 2.18-2.27) summarised into the transport a rank used. */
@Timeout(30)
class TransportSummaryTest {

    @Test
    void gpuDirectRdmaAndNvlinkAreCountedPerKind() {
        final List<String> log = List.of(
                "nid001:1234:1234 [0] NCCL INFO NCCL version 2.27.3+cuda12.9",
                "nid001:1234:1250 [0] NCCL INFO Using network IB",
                "nid001:1234:1250 [0] NCCL INFO NVLS multicast support is available on dev 0 (NVLS_NCHANNELS 16)",
                "nid001:1234:1260 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
                "nid001:1234:1260 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
                "nid001:1234:1261 [0] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [send] via NET/IB/0/GDRDMA",
                "nid001:1234:1261 [0] NCCL INFO Channel 00/0 : 7[3] -> 0[0] [receive] via NET/IB/0/GDRDMA",
                "nid001:1234:1261 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 1");
        assertThat(TransportSummary.of(log)).isEqualTo("net IB; NET/IB GDRDMA x2, P2P/CUMEM x2, NVLS");
    }

    @Test
    void aFallbackToSocketsShowsAtAGlance() {
        final List<String> log = List.of(
                "h1:9:9 [0] NCCL INFO NET/IB : No device found.",
                "h1:9:9 [0] NCCL INFO Using network Socket",
                "h1:9:20 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0",
                "h1:9:20 [0] NCCL INFO Channel 01/0 : 1[0] -> 0[0] [receive] via NET/Socket/1",
                "h1:9:20 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct",
                "h1:9:20 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer",
                "h1:9:20 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC");
        assertThat(TransportSummary.of(log))
                .isEqualTo("net Socket; NET/Socket x2, P2P/IPC x1, P2P/direct pointer x1, SHM x1");
    }

    /** The AWS OFI plugin (Perlmutter's Slingshot): its network's name has a space, GPUDirect RDMA must survive it. */
    @Test
    void aNetworkPluginNameWithASpaceKeepsItsGdrdma() {
        final List<String> log = List.of(
                "nid200001:81234:81234 [0] NCCL INFO NET/Plugin: Loaded net plugin AWS Libfabric (v6)",
                "nid200001:81234:81250 [0] NCCL INFO Using network AWS Libfabric",
                "nid200001:81234:81260 [0] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [send] via NET/AWS Libfabric/0/GDRDMA",
                "nid200001:81234:81260 [0] NCCL INFO Channel 01/0 : 7[3] -> 0[0] [receive]"
                        + " via NET/AWS Libfabric/1/GDRDMA",
                "nid200001:81234:81261 [0] NCCL INFO Channel 02/0 : 3[3] -> 4[0] [send] via NET/AWS Libfabric/2\r",
                "nid200001:81234:81261 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read");
        assertThat(TransportSummary.of(log))
                .isEqualTo("net AWS Libfabric; NET/AWS Libfabric x1, NET/AWS Libfabric GDRDMA x2, P2P/CUMEM x1");
    }

    @Test
    void ibWithoutGdrAndQuietLogs() {
        assertThat(TransportSummary.of(List.of("a [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/1")))
                .isEqualTo("NET/IB no-GDRDMA x1");
        assertThat(TransportSummary.of(List.of("a NCCL WARN something", "plain text via NET/IB"))).isEqualTo("none");
        assertThat(TransportSummary.kind("NET/AWS Libfabric/0/GDRDMA")).isEqualTo("NET/AWS Libfabric GDRDMA");
        assertThat(TransportSummary.kind("COLLNET/x")).isEqualTo("CollNet");
    }

    @Test
    void theDebugFileIsFoundByHostAndPid(@TempDir final Path dir) throws Exception {
        Files.writeString(dir.resolve("nid7.42.log"), "x [0] NCCL INFO Using network IB\n");
        final String pattern = dir + "/%h.%p.log";
        assertThat(TransportSummary.debugFile(pattern, "nid7.cluster.org", 42)).isEqualTo(dir + "/nid7.42.log");
        assertThat(TransportSummary.ofFile(pattern, "nid7.cluster.org", 42)).isEqualTo("net IB");
        assertThat(TransportSummary.ofFile(pattern, "nid8", 42)).startsWith("unknown (").endsWith("unreadable)");
        assertThat(TransportSummary.ofFile(null, "nid7", 42)).contains("nccl.debug: true");
    }

    /** The host name is gethostname(2)'s, as the hostname command prints it (it calls gethostname). */
    @Test
    void theHostIsTheKernelsAsGethostnameGivesIt() throws Exception {
        final Process p = new ProcessBuilder("hostname").redirectErrorStream(true).start();
        final String kernel = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(TransportSummary.hostName()).isEqualTo(kernel).isNotBlank();
    }

    /**
     * NCCL fills %h from gethostname(2), cut at the first dot: in a UTS namespace whose host is nid7.cluster.org
     * and where Slurm calls the node nid9, the file read is nid7's. Needs root (unshare --uts); skipped loudly
     * otherwise.
     */
    @Test
    void theDebugFileIsTheKernelHostsNotSlurms(@TempDir final Path dir) throws Exception {
        Files.writeString(dir.resolve("nid7.log"), "x [0] NCCL INFO Using network IB\n");
        Files.writeString(dir.resolve("nid9.log"), "x [0] NCCL INFO Using network Socket\n");
        final Process probe = new ProcessBuilder("unshare", "--uts", "true").redirectErrorStream(true).start();
        final String refused = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!probe.waitFor(20, TimeUnit.SECONDS) || probe.exitValue() != 0) {
            final String why = "TransportSummaryTest needs a UTS namespace of its own (root, unshare --uts): "
                    + refused;
            final String bar = "!".repeat(100);
            System.out.println(bar + "\n!! SKIPPED, NOT PASSED: " + why + "\n" + bar);
            org.junit.jupiter.api.Assumptions.abort("SKIPPED, NOT PASSED: " + why);
        }
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final ProcessBuilder pb = new ProcessBuilder("unshare", "--uts", "sh", "-c", "hostname nid7.cluster.org"
                + " && exec \"$0\" -cp \"$1\" \"$2\" \"$3\"", java, System.getProperty("java.class.path"),
                HostMain.class.getName(), dir + "/%h.log").redirectErrorStream(true);
        pb.environment().put("SLURMD_NODENAME", "nid9");
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("host nid7.cluster.org\n", "summary net IB\n");
    }

    /** The child of {@link #theDebugFileIsTheKernelHostsNotSlurms}: its host name and the summary it finds. */
    public static final class HostMain {
        public static void main(final String[] args) {
            System.out.println("host " + TransportSummary.hostName());
            System.out.println("summary " + TransportSummary.ofFile(args[0], ProcessHandle.current().pid()));
        }
    }
}
