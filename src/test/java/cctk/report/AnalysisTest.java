package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The analysis compares like with like, says over which sizes, names types and operators, and concludes. */
@Timeout(60)
class AnalysisTest {

    private static List<String> text(final ResultSet set) {
        return AnalysisText.lines(set, Analysis.of(set), List.of(), Analysis.DEFAULT_CV_LIMIT);
    }

    @Test
    void aRatioUsesOnlyTheSizesBothRunsMeasuredAndSaysWhich() {
        // W=2 measured 1 .. 16 MiB (busbw 1, 2, 4, 8, 8), W=4 only 1 .. 4 MiB (busbw 1, 2, 4): over 1 .. 4 MiB the
        // two are equal; their own plateaus (8 against 2) would say 4x
        final Run w2 = PlotsTest.run("tcp", 2, "2026-11-24T17:34:02");
        final Run w4 = PlotsTest.run("tcp", 4, "2026-11-24T17:34:04");
        final List<Result> rs = new ArrayList<>();
        final double[] bw = {1, 2, 4, 8, 8};
        for (int i = 0; i < 5; i++) {
            rs.add(PlotsTest.at(w2, "all_reduce", "float32", "sum", (1L << 20) << (i), bw[i], false));
            if (i < 3) {
                rs.add(PlotsTest.at(w4, "all_reduce", "float32", "sum", (1L << 20) << (i), bw[i], false));
            }
        }
        final ResultSet set = new ResultSet(rs, List.of());
        final Analysis a = Analysis.of(set);
        assertThat(a.ratios()).singleElement().satisfies(r -> {
            assertThat(r.ratio()).isEqualTo(1.0);
            assertThat(List.of(r.fromBytes(), r.toBytes(), (long) r.sizes())).containsExactly(1L << 20, 4L << 20, 3L);
        });
        assertThat(text(set)).contains("  all_reduce float32 sum: tcp W=4 / tcp W=2 = 1.00x over 1 MiB - 4 MiB"
            + " (3 sizes)");
    }

    @Test
    void sizesRoundedToWholeElementsPerRankStillMeetTheirNominalSize() {
        final ResultSet set = PlotsTest.seeds("all_gather");
        final Analysis a = Analysis.of(set);
        assertThat(a.ratios()).hasSize(3).allSatisfy(r -> assertThat(r.sizes()).isEqualTo(2));
        assertThat(String.join("\n", text(set))).contains("all_gather float32: tcp W=3 / tcp W=2 = ",
            "x over 10 MB - 100 MB (2 sizes)", "all_gather float32: fastest by busbw is tcp W=4");
    }

    @Test
    void outliersNameTheirTypeAndOperatorAndTheConclusionSaysWhatIsFastestSaturatesAndLooksWrong() {
        final Run a = PlotsTest.run("tcp", 2, "2026-11-24T17:34:02");
        final Run b = PlotsTest.run("tcp", 4, "2026-11-24T17:34:04");
        final List<Result> rs = new ArrayList<>();
        final double[] fast = {1, 3, 3.9, 4, 4};
        final double[] slow = {0.5, 1, 1.5, 2, 2.5};
        for (int i = 0; i < 5; i++) {
            final long size = (1L << 20) << (2 * i);
            rs.add(PlotsTest.at(a, "all_reduce", "bfloat16", "max", size, fast[i], false));
            rs.add(PlotsTest.at(b, "all_reduce", "bfloat16", "max", size, slow[i], false));
        }
        final Result noisy = rs.get(0);
        rs.set(0, new Result(noisy.run(), noisy.collective(), noisy.dtype(), noisy.op(), -1, noisy.sizeBytes(),
            noisy.count(), false, noisy.timeUs(), noisy.minUs(), noisy.p50Us(), noisy.p99Us(), 85, noisy.algBw(),
            noisy.busBw(), 3, null));
        final List<String> lines = text(new ResultSet(rs, List.of()));
        final String all = String.join("\n", lines);
        assertThat(all).contains("  tcp W=2 all_reduce bfloat16 max 1 MiB out-of-place: cv 85.00 %");
        final List<String> end = lines.subList(lines.indexOf("Conclusion:"), lines.size());
        assertThat(String.join("\n", end)).contains(
            "all_reduce bfloat16 max: fastest by busbw is tcp W=2 at 4.00 GB/s busbw (median over 16 MiB - 256 MiB (3 sizes)",
            "then tcp W=4 2.00",
            "tcp W=2: saturates from 16 MiB at 4.00 GB/s (the median over 16 MiB - 256 MiB (3 sizes)",
            "tcp W=4: busbw still rises at the largest size measured (256 MiB, 2.50 GB/s): not saturated",
            "What looks wrong:", "3 wrong elements", "noisy measurements: 1 vary by more than 20.00 %");
    }

    @Test
    void aCleanRunConcludesThatNothingLooksWrong() {
        final Run a = PlotsTest.run("tcp", 2, "2026-11-24T17:34:02");
        final List<Result> rs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            rs.add(PlotsTest.at(a, "broadcast", "float32", null, (1L << 20) << i, 1 + i, false));
        }
        final List<String> lines = text(new ResultSet(rs, List.of()));
        assertThat(lines.get(lines.size() - 2)).contains("broadcast float32: one run, tcp W=2");
        assertThat(lines.get(lines.size() - 1)).startsWith("  Nothing looks wrong: no wrong elements");
    }
}
