package cctk.report;

import java.util.List;

/**
 * Hostile nccl-tests output for the adversarial suite ({@link HostileCases}): its text log and its {@code -J} JSON
 * with control characters and paths in names, bad numbers, missing parts, huge lines and counts.
 */
final class HostileNcclTests {

    private static final String RANK = "#  Rank  0 Group  0 Pid   4242 on      node1 device  0 [0000:07:00] GPU";
    private static final String HEAD = "#       size         count      type   redop    root     time   algbw   busbw"
        + " #wrong     time   algbw   busbw #wrong";

    private HostileNcclTests() {
    }

    static String row(final String size, final String time) {
        return String.format("%12s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s", size, "256", "float",
            "sum", "-1", time, "0.05", "0.09", "0", time, "0.05", "0.09", "0");
    }

    static String log(final String... lines) {
        return String.join("\n", lines) + "\n";
    }

    static String json(final String program, final String devices, final String time) {
        return "{\"version\":3,\"start_time\":\"2026-03-02 10:15:42\",\"args\":[\"" + program + "\"],\"env\":[],"
            + "\"config\":{\"nthreads\":1,\"ngpus\":1,\"iterations\":20,\"devices\":[" + devices + "]},"
            + "\"results\":[{\"size\":1024,\"count\":256,\"type\":\"float\",\"redop\":\"sum\",\"root\":\"    -1\","
            + "\"out_of_place\":{\"time\":" + time + ",\"alg_bw\":0.1,\"bus_bw\":0.1,\"nwrong\":0.0}}]}";
    }

    static final String DEVICE = "{\"rank\":0,\"group\":0,\"pid\":1,\"hostname\":\"n1\",\"device\":0}";

    static void cases(final List<HostileCases.Case> c) {
        final HostileCases.Expect h = HostileCases.Expect.HANDLED;
        final HostileCases.Expect r = HostileCases.Expect.REFUSED;
        final HostileCases.Expect p = HostileCases.Expect.PARTIAL;
        c.add(new HostileCases.Case("nccl-tests log, ESC in host and test name", h, HostileCases.text("a.log",
            log("# Collective test starting: all\u001b[2J\u0007_perf", RANK.replace("node1", "n\u001b]0;x\u0007b"),
                HEAD, row("1024", "20.5"), row("4096", "21.5")))));
        c.add(new HostileCases.Case("nccl-tests test named ../../../../esc/TRAV_perf", h, (in, root) -> {
            java.nio.file.Files.createDirectories(root.resolve("a/b/esc"));
            HostileCases.text("a.log", log("# Collective test starting: ../../../../esc/TRAV_perf", RANK, HEAD,
                row("1024", "20.5"))).make(in, root);
        }));
        c.add(new HostileCases.Case("nccl-tests row with nan time", p, HostileCases.text("all_reduce_perf.txt",
            log(RANK, HEAD, row("4096", "nan"), row("1024", "20.5")))));
        c.add(new HostileCases.Case("nccl-tests rows of -1, 1e999, 0x10, 2^63 and cut short", p,
            HostileCases.text("all_reduce_perf.txt", log(RANK, HEAD, row("4096", "-1"), row("4096", "1e999"),
                row("0x10", "20"), row("9223372036854775807", "20"), "        4096           256     float",
                row("1024", "20.5")))));
        c.add(new HostileCases.Case("nccl-tests log without rank lines", r, HostileCases.text("all_reduce_perf.txt",
            log(HEAD, row("1024", "20.5")))));
        c.add(new HostileCases.Case("nccl-tests log naming no test", r, HostileCases.text("nccl.log",
            log(RANK, HEAD, row("1024", "20.5")))));
        c.add(new HostileCases.Case("nccl-tests of CPU time (-C 1)", r, HostileCases.text("all_reduce_perf.txt",
            log(RANK, HEAD.replace(" time ", " cputime "), row("1024", "20.5")))));
        c.add(new HostileCases.Case("nccl-tests log of 100,000 ranks", h, HostileCases.text("all_reduce_perf.txt",
            RANK.replace("Rank  0", "Rank  7").concat("\n").repeat(100_000) + log(HEAD, row("1024", "20.5")))));
        c.add(new HostileCases.Case("nccl-tests log with a 2 MiB line and CR LF", h, HostileCases.text(
            "all_reduce_perf.txt", (log(RANK, "x".repeat(2 << 20), HEAD, row("1024", "20.5"))).replace("\n",
            "\r\n"))));
        c.add(new HostileCases.Case("a binary .out file", r, HostileCases.bytes("slurm-1.out", new byte[] {0x7f, 'E',
            'L', 'F', 0, 0, 1})));
        c.add(new HostileCases.Case("a text file that is no result", r, HostileCases.text("notes.txt",
            "# size count type\nnothing here\n")));
        c.add(new HostileCases.Case("nccl-tests json with \"nan\" times", r, HostileCases.text("a.json",
            json("./all_reduce_perf", DEVICE, "\"nan\""))));
        c.add(new HostileCases.Case("nccl-tests json with a raw inf", r, HostileCases.text("a.json",
            json("./all_reduce_perf", DEVICE, "inf"))));
        c.add(new HostileCases.Case("nccl-tests json without devices", r, HostileCases.text("a.json",
            json("./all_reduce_perf", "", "20.5"))));
        c.add(new HostileCases.Case("nccl-tests json, ESC in host, test ../../x_perf", h, HostileCases.text("a.json",
            json("../../\\u001b[2Jx_perf", DEVICE.replace("n1", "n\\u001b]0;t\\u0007"), "20.5"))));
        c.add(new HostileCases.Case("nccl-tests json with a negative size", r, HostileCases.text("a.json",
            json("./all_reduce_perf", DEVICE, "20.5").replace("\"size\":1024", "\"size\":-1024"))));
    }
}
