package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The all-to-all-v weight matrix: weights that would give negative or absurd slices are refused by line. */
@Timeout(30)
class TrafficMatrixTest {

    @TempDir
    Path dir;

    private Path matrix(final String text) throws IOException {
        return Files.writeString(dir.resolve("m.txt"), text);
    }

    private void refused(final String text, final String... parts) throws IOException {
        final Path f = matrix(text);
        assertThatThrownBy(() -> TrafficMatrix.load(f, 2)).isInstanceOf(CctkException.class)
            .satisfies(e -> assertThat(((CctkException) e).exitCode()).isEqualTo(ExitCode.USAGE))
            .hasMessageContaining(f.toString()).hasMessageContaining(parts[0]).hasMessageContaining(parts[1]);
    }

    @Test
    void aGoodMatrixLoads() throws IOException {
        assertThat(TrafficMatrix.load(matrix("# w\n1 2\n0 1e-3\n"), 2)).isDeepEqualTo(
            new double[][] {{1, 2}, {0, 1e-3}});
    }

    @Test
    void subnormalWeightsAreRefusedByLine() throws IOException {
        refused("1e-320 1e-320\n1e-320 1e-320\n", ":1:", "1e-320");
        refused("1 1\n1 4e-310\n", ":2:", "4e-310");
    }

    @Test
    void aMatrixOfZerosIsRefused() throws IOException {
        refused("0 0\n# none\n0 0\n", "every weight is 0", "2x2");
    }

    @Test
    void weightsWhoseSumOverflowsAreRefused() throws IOException {
        refused("1e308 1e308\n1 1\n", ":1:", "sum");
        refused("1e308 1\n1e308 1\n", "column 1", "sum");
    }

    @Test
    void everyAcceptedExtremeMatrixGivesSlicesBetweenZeroAndS() throws IOException {
        for (final String m : new String[] {"1e300 1e-300\n1e-300 1e300\n", "2.3e-308 0\n0 2.3e-308\n",
            "1e307 1e307\n1e307 1e307\n", "0 1\n0 0\n"}) {
            final double[][] w = TrafficMatrix.load(matrix(m), 2);
            for (int rank = 0; rank < 2; rank++) {
                final cctk.coll.Layout l = new cctk.coll.AllToAllV().layout(1L << 20, cctk.comm.DType.FLOAT32,
                    new cctk.coll.Group(2, rank, w));
                for (final long n : l.vector().sendCounts()) {
                    assertThat(n).as("%s rank %d", m, rank).isBetween(0L, (1L << 20) / 4);
                }
                assertThat(l.sendBytes()).isBetween(0L, 1L << 20);
            }
        }
    }

    @Test
    void nonFiniteWeightsAreRefused() throws IOException {
        refused("NaN 1\n1 1\n", ":1:", "NaN");
        refused("1 1\n1 Infinity\n", ":2:", "Infinity");
    }
}
