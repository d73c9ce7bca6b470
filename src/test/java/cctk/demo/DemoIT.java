package cctk.demo;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The demos as a user runs them: cctk demo NAME --nproc N launches real rank processes over loopback. */
@Tag("slow")
@Timeout(120)
class DemoIT {

    private record Run(int code, String out, String err) {
    }

    private static Run cctk(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void broadcastTurnsEveryRankInto42s() {
        final Run r = cctk("demo", "broadcast", "--nproc", "3");
        assertThat(r.code()).as(r.err()).isZero();
        final String after = r.out().substring(r.out().indexOf("After broadcast:"));
        assertThat(after).contains("Rank 0  | 42 | 42 | 42 | 42 |", "Rank 2  | 42 | 42 | 42 | 42 |");
        assertThat(r.out().substring(0, r.out().indexOf("After broadcast:"))).contains("Rank 1  | 0  | 0  |");
    }

    @Test
    void allReduceSumsOnesToTheWorldSize() {
        final Run r = cctk("demo", "allreduce", "--nproc", "4");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().substring(r.out().indexOf("After reduce:"))).contains("Rank 3  | 4  | 4  | 4  | 4  |");
    }

    @Test
    void helloAndAllToAllCheckEveryRank() {
        final Run hello = cctk("demo", "hello", "--nproc", "2");
        assertThat(hello.code()).as(hello.err()).isZero();
        assertThat(hello.out()).contains("Rank 1/2 using device:", "All 2 ranks met.");
        final Run a2a = cctk("demo", "alltoall", "--nproc", "2", "--msg-bytes", "64KiB");
        assertThat(a2a.code()).as(a2a.err()).isZero();
        assertThat(a2a.out()).contains("16384 elems/msg", "all_to_all completed in", "wrong=0");
    }

    @Test
    void unknownDemoIsAUsageError() {
        final Run r = cctk("demo", "scatter");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("unknown demo 'scatter'");
    }
}
