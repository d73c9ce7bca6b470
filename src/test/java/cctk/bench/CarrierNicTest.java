package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import cctk.launch.LocalLauncher;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A one-node tcp run whose spec names a real NIC: the ranks reach each other at that NIC's address, so the
 * kernel carries everything over loopback, and the header's rank lines say so instead of naming the NIC.
 */
@Timeout(120)
class CarrierNicTest {

    @TempDir
    Path dir;

    private static String someNic() throws Exception {
        for (final NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (n.isUp() && !n.isLoopback() && Collections.list(n.getInetAddresses()).stream()
                    .anyMatch(a -> a instanceof Inet4Address) && n.getName().matches("[a-z0-9]+")) {
                return n.getName();
            }
        }
        return null;
    }

    @Test
    void oneNodeTrafficIsNamedLoopbackNotTheSpecsNic() throws Exception {
        final String nic = someNic();
        assumeTrue(nic != null, "no up NIC with an IPv4 address on this machine");
        final Path spec = dir.resolve("spec.yaml");
        Files.writeString(spec, """
                job:
                  name: carrier
                  output_dir: %s
                cluster:
                  name: local
                resources:
                  nodes: 1
                  tasks_per_node: 2
                  cpus_per_task: 1
                  nics: [%s]
                benchmark:
                  backends: [tcp-flat]
                  tasks: [2]
                  collectives: [all_reduce]
                  sizes: [4KiB]
                  warmup: 1
                  iters: 2
                  jit_warmup: 0
                  timeout: 30s
                """.formatted(dir.resolve("results"), nic));
        final StringWriter err = new StringWriter();
        final int code = new LocalLauncher(new PrintWriter(new StringWriter()), new PrintWriter(err),
                Duration.ofSeconds(5)).run(2, LocalLauncher.cctkCommand(List.of("rank", "--spec", spec.toString())));
        assertThat(code).as(err.toString()).isZero();
        final Path txt;
        try (Stream<Path> s = Files.list(dir.resolve("results"))) {
            txt = s.filter(p -> p.toString().endsWith(".txt")).findFirst().orElseThrow();
        }
        final String text = Files.readString(txt);
        assertThat(text).contains("device cpu nic lo (spec: " + nic + ")").doesNotContain("nic " + nic + "\n");
    }
}
