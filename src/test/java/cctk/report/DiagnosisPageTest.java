package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.diagnose.verdict.DiagnosisFiles;
import cctk.diagnose.verdict.Figures;
import cctk.diagnose.verdict.Findings;
import cctk.diagnose.verdict.Judge;
import cctk.diagnose.verdict.Recheck;
import cctk.diagnose.verdict.Suspect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The diagnosis page of cctk report, from the files a diagnosis writes: verdict, suspects, heat maps, bars. */
@Timeout(60)
class DiagnosisPageTest {

    @TempDir
    Path dir;

    /** A diagnosis of 5 nodes on eth0, eth1 (+ striped) in which node3's eth1 is slow, written as rank 0 does. */
    private Path diagnosis() {
        final List<String> nodes = List.of("n1", "n2", "n3", "n4", "n5");
        final Figures f = new Figures(nodes, Figures.modesOf(List.of("eth0", "eth1")));
        for (int t = 0; t < f.tests(); t++) {
            final String mode = f.modes().get(Figures.modeOf(t));
            for (int a = 0; a < 5; a++) {
                for (int b = a + 1; b < 5; b++) {
                    final boolean slow = (a == 2 || b == 2) && !mode.equals("eth0");
                    f.pair(t, a, b, (slow ? 0.02 : 1.0) + 0.01 * (a + b));
                }
            }
        }
        for (int i = 0; i < 5; i++) {
            f.intra(0, i, 2.0);
            f.intra(1, i, 2.1);
        }
        final Findings found = Judge.tentative(f, 0.8);
        for (final Recheck r : found.allRechecks()) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                f.repeat(Figures.test(r.mode(), op), r.a(), r.b(), 0.02);
            }
        }
        final List<Suspect> verdict = Judge.ordered(Judge.confirm(found, f, 0.8, true));
        final List<Path> files = DiagnosisFiles.write(dir.resolve("results"), new DiagnosisFiles.Header("unit",
                LocalDateTime.of(2026, 1, 2, 3, 4, 5), 1 << 20, 0.8, true, 12.5, List.of("eth0", "eth1")), f, found,
                verdict);
        return files.get(files.size() - 1);
    }

    @Test
    void cctkReportOfTheResultsDirectoryShowsTheDiagnosis() throws IOException {
        final Path json = diagnosis();
        final java.io.StringWriter out = new java.io.StringWriter();
        final java.io.StringWriter err = new java.io.StringWriter();
        final int code = cctk.cli.Main.run(new java.io.PrintWriter(out), new java.io.PrintWriter(err), "report",
            json.getParent().toString(), "-o", dir.resolve("rep").toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).as("a diagnosis is no broken result file").isEmpty();
        assertThat(out.toString()).contains("cctk: diagnosis " + json.getFileName() + " in " + dir.resolve("rep"));
        assertThat(dir.resolve("rep/diagnosis/diagnosis.html")).exists();
        assertThat(dir.resolve("rep/diagnosis/diagnosis_heatmap_eth1.png")).exists();
    }

    @Test
    void thePageShowsTheVerdictAHeatMapPerModeAndTheNodes() throws IOException {
        final Path json = diagnosis();
        assertThat(DiagnosisRecord.named(json)).isTrue();
        final DiagnosisRecord r = DiagnosisRecord.read(json);
        assertThat(r.nodes()).containsExactly("n1", "n2", "n3", "n4", "n5");
        assertThat(r.pairs().get("eth1")[2][4]).isEqualTo(0.02 + 0.06, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.pairs().get("eth1")[4][2]).isEqualTo(r.pairs().get("eth1")[2][4]);
        assertThat(r.pairs().get("eth0")[2][2]).isNaN();
        assertThat(r.nodeTests()).containsKeys("eth1 sendrecv", "intra-node all_reduce pass 1");

        final List<Path> out = DiagnosisPage.write(r, dir.resolve("report"));
        assertThat(out).extracting(p -> p.getFileName().toString()).containsExactly("diagnosis.html",
                "diagnosis_heatmap_eth0.png", "diagnosis_heatmap_eth1.png", "diagnosis_heatmap_striped.png",
                "diagnosis_nodes.png");
        for (final Path p : out.subList(1, out.size())) {
            final byte[] png = Files.readAllBytes(p);
            assertThat(png).startsWith(0x89, 'P', 'N', 'G');
        }
        for (final Path p : out) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p))).isEqualTo("rw-------");
        }
        final String html = Files.readString(out.get(0));
        assertThat(html).contains("verdict: 1 suspect(s): node+NIC n3 eth1", "<td class=\"SUSPECT\">n3 eth1</td>",
                "data:image/png;base64,").doesNotContain("<script");
    }

    @Test
    void heatMapColoursAreRelativeToTheHealthyMedianNotToTheRunsOwnRange() throws IOException {
        final DiagnosisRecord r = DiagnosisRecord.read(diagnosis());
        // eth0 is clean: pairs 1.01-1.07 GB/s, median 1.04; from min to max its +-3 % would span the whole scale
        final org.knowm.xchart.HeatMapChart clean = DiagnosisPage.heatMap(r, "eth0", r.pairs().get("eth0"), 5);
        assertThat(clean.getStyler().getMin()).isZero();
        assertThat(clean.getStyler().getMax()).isEqualTo(2 * 1.04, org.assertj.core.data.Offset.offset(1e-9));
        // eth1: n3's pairs at ~0.05 GB/s; the median stays the healthy pairs' figure, so they show pale, n3 red
        final org.knowm.xchart.HeatMapChart slow = DiagnosisPage.heatMap(r, "eth1", r.pairs().get("eth1"), 5);
        assertThat(slow.getStyler().getMax()).isGreaterThan(2 * 1.0);
    }

    @Test
    void aRecordThatNamesAPathBesideItIsRefused() throws IOException {
        final Path json = diagnosis();
        final String doc = Files.readString(json).replaceFirst("\"pairs\": \"[^\"]+\"", "\"pairs\": \"../../etc/passwd\"");
        final Path bad = json.resolveSibling("diagnose_20260102-030406.json");
        Files.writeString(bad, doc);
        assertThatThrownBy(() -> DiagnosisRecord.read(bad)).isInstanceOf(IOException.class)
                .hasMessageContaining("no plain file name");
        final List<String> lines = new ArrayList<>(List.of("{\"kind\": \"something else\"}"));
        Files.write(json.resolveSibling("diagnose_1.json"), lines);
        assertThatThrownBy(() -> DiagnosisRecord.read(json.resolveSibling("diagnose_1.json")))
                .hasMessageContaining("not a cctk diagnosis record");
    }
}
