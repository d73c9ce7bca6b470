package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class CompilerThreadsTest {

    @Test
    void theStateIsTheFieldAfterTheLastParenthesisWhateverTheThreadIsCalled() {
        assertThat(CompilerThreads.state(bytes("4242 (C2 CompilerThre) S 1 4242 0"))).isEqualTo('S');
        assertThat(CompilerThreads.state(bytes("77 (a) b) (c) R 1 2"))).isEqualTo('R');
        assertThat(CompilerThreads.state(bytes("77 (cut"))).isEqualTo('?');
        assertThat(CompilerThreads.state(bytes("77 (x)"))).isEqualTo('?');
    }

    @Test
    void theRunTimeIsTheFirstNumberOfSchedstat() {
        assertThat(CompilerThreads.firstNumber(bytes("1234567890123 4567 89\n")))
            .isEqualTo(1234567890123L);
        assertThat(CompilerThreads.firstNumber(bytes("\n"))).isZero();
    }

    @Test
    void onlyHotSpotsCompilerThreadsCount() {
        assertThat(CompilerThreads.isCompiler("C2 CompilerThre\n")).isTrue();
        assertThat(CompilerThreads.isCompiler("C1 CompilerThre\n")).isTrue();
        assertThat(CompilerThreads.isCompiler("java\n")).isFalse();
        assertThat(CompilerThreads.isCompiler("VM Thread\n")).isFalse();
    }

    @Test
    void thisJvmsCompilersAreSeenAndTheirTimeGrowsWhenTheyCompile() throws Exception {
        // ranks run on Linux; without /proc CompilerThreads sees nothing by design, and this test says so by failing
        assertThat(Path.of("/proc/self/task")).as("Linux's /proc, which CompilerThreads reads").isDirectory();
        try (CompilerThreads c = CompilerThreads.open()) {
            assertThat(c.visible()).as("a HotSpot test JVM with its JIT on has compiler threads").isTrue();
            final long before = c.cpuNanos();
            assertThat(before).isPositive();
            // new code made hot: the JIT compiles it, on its own threads
            long sink = 0;
            for (int round = 0; round < 50 && c.cpuNanos() == before; round++) {
                sink += Hot.spin(200_000 + round);
                c.awaitIdle(200_000_000L);
            }
            assertThat(c.cpuNanos()).as("compiler time after %d", sink).isGreaterThan(before);
        }
    }

    private static java.nio.ByteBuffer bytes(final String line) {
        return java.nio.ByteBuffer.wrap(line.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** Code nothing else runs, so that making it hot queues compiles. */
    private static final class Hot {
        static long spin(final int n) {
            long x = n;
            for (int i = 0; i < n; i++) {
                x = x * 6364136223846793005L + i;
                x ^= x >>> 17;
            }
            return x;
        }
    }
}
