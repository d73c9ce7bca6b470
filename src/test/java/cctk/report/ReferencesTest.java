package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.bench.fixture.ResultFixtures;
import cctk.cli.Main;
import cctk.results.Csvs;
import cctk.results.Reference;
import cctk.results.judge.ReferenceJudge;
import cctk.results.Result;
import cctk.results.inputs.ResultReader;
import cctk.results.ResultSet;
import cctk.results.judge.Verdict;
import cctk.spec.JobSpec;
import cctk.spec.SpecParser;
import cctk.spec.SpecWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** References: parsed from specs, judged on the plateau of their size range, gating report and run. */
@Timeout(60)
class ReferencesTest {

    @TempDir
    Path dir;

    static final String SPEC = "job: {name: acc}\nresources: {nodes: 1, tasks_per_node: 4}\n"
        + "benchmark: {backends: [tcp], tasks: [2]}\n";

    Path spec(final String references) throws IOException {
        return Files.writeString(dir.resolve("s.yaml"), SPEC + references);
    }

    @Test
    void specReferencesParseWithDefaultsAndRoundTrip() throws IOException {
        final JobSpec s = SpecParser.parse(spec("references:\n  - {collective: all_reduce, backend: tcp, dtype:"
            + " float32, min_size: 1GiB, max_size: 8GiB, busbw_gbps: 80, tolerance: 0.95}\n"
            + "  - {collective: all_gather, min_size: 64MiB, max_size: 64MiB, busbw_gbps: 12.5}\n"));
        assertThat(s.references()).containsExactly(
            new Reference("all_reduce", "tcp", "float32", 1L << 30, 8L << 30, 80, 0.95),
            new Reference("all_gather", null, null, 64L << 20, 64L << 20, 12.5, 0.9));
        final Path frozen = Files.writeString(dir.resolve("frozen.yaml"), SpecWriter.toYaml(s));
        assertThat(SpecParser.parse(frozen).references()).isEqualTo(s.references());
        assertThat(SpecParser.parse(spec("")).references()).isEmpty();
    }

    @Test
    void badReferencesAreNamedWithTheirPlace() throws IOException {
        final Path f = spec("references:\n  - {collective: all_reduse, min_size: 1024, max_size: 1KiB,"
            + " busbw_gbps: -3, tolerance: 1.5, backend: mpi, colour: red}\n");
        assertThatThrownBy(() -> SpecParser.parse(f)).isInstanceOf(CctkException.class)
            .hasMessageContainingAll("references[0].collective", "all_reduce", "references[0].min_size",
                "byte unit", "references[0].busbw_gbps", "references[0].tolerance", "references[0].backend",
                "references[0].colour", "unknown key");
    }

    @Test
    void judgedOnThePlateauOfTheRangeNotOnTheAverageOfAllSizes() throws IOException {
        // busbw 1, 1, 1, 1, 50, 52, 48 at 1 KiB .. 4 MiB: the average over all sizes is 22, the plateau 50
        final Path csv = Csvs.allReduce(dir, "r.csv", "tcp", 2, 1, 1, 1, 1, 50, 52, 48);
        final ResultSet set = ResultReader.read(List.of(csv));
        final Reference pass = new Reference("all_reduce", "tcp", null, 256 << 10, 4 << 20, 50, 0.9);
        final Reference fail = new Reference("all_reduce", null, null, 256 << 10, 4 << 20, 60, 0.9);
        final List<Verdict> v = ReferenceJudge.judge(List.of(pass, fail), set);
        assertThat(v).extracting(Verdict::pass).containsExactly(true, false);
        assertThat(v.get(0).busBw()).isEqualTo(50);
        assertThat(v.get(0).sizes()).isEqualTo(3);
        assertThat(v.get(0).line()).startsWith("PASS all_reduce tcp 256KiB-4MiB busbw >= 0.9 x 50.0 GB/s: tcp W=2"
            + " median busbw 50.00 GB/s over 3 sizes (needs 45.00)");
        assertThat(v.get(1).line()).startsWith("FAIL all_reduce 256KiB-4MiB");
    }

    @Test
    void nothingMeasuredInRangeOrNoRunOfTheBackendIsNotMeasuredAndFails() throws IOException {
        final ResultSet set = ResultReader.read(List.of(Csvs.allReduce(dir, "r.csv", "tcp", 2, 1, 2, 3)));
        final List<Verdict> v = ReferenceJudge.judge(List.of(
            new Reference("all_reduce", "tcp", null, 1L << 30, 8L << 30, 1, 0.9),
            new Reference("all_reduce", "nccl", null, 1, 8L << 30, 1, 0.9),
            new Reference("all_gather", "tcp", null, 1, 8L << 30, 1, 0.9)), set);
        assertThat(v).extracting(Verdict::pass).containsOnly(false);
        assertThat(v).extracting(Verdict::line).satisfiesExactly(
            l -> assertThat(l).contains("NOT MEASURED: tcp W=2 measured no size within 1 GiB - 8 GiB (its sizes:"
                + " 1 KiB - 16 KiB)"),
            l -> assertThat(l).contains("NOT MEASURED: no run of backend nccl among the results"),
            l -> assertThat(l).contains("NOT MEASURED: tcp W=2 measured no all_gather"));
        assertThat(ReferenceJudge.exitCode(v)).isEqualTo(ExitCode.FAILED);
    }

    @Test
    void reportWithSpecPrintsVerdictsAndExitsOneOnAFail() throws IOException {
        final Path csv = Csvs.allReduce(dir.resolve("res"), "r.csv", "tcp", 2, 1, 1, 10, 10);
        final Path passing = spec("references: [{collective: all_reduce, min_size: 16KiB, max_size: 64KiB,"
            + " busbw_gbps: 10}]\n");
        final StringWriter o = new StringWriter();
        assertThat(Main.run(new PrintWriter(o), new PrintWriter(new StringWriter()), "report", csv.toString(),
            "--spec", passing.toString(), "-o", dir.resolve("rep").toString())).isZero();
        assertThat(o.toString()).contains("PASS all_reduce 16KiB-64KiB");
        final Path failing = spec("references: [{collective: all_reduce, min_size: 16KiB, max_size: 64KiB,"
            + " busbw_gbps: 12}]\n");
        final StringWriter o2 = new StringWriter();
        assertThat(Main.run(new PrintWriter(o2), new PrintWriter(new StringWriter()), "report", csv.toString(),
            "--spec", failing.toString(), "-o", dir.resolve("rep2").toString())).isEqualTo(1);
        assertThat(o2.toString()).contains("FAIL all_reduce 16KiB-64KiB");
        assertThat(Files.readString(dir.resolve("rep2/summary_by_config.md"))).contains("## References", "| FAIL |");
        assertThat(Files.readString(dir.resolve("rep2/report.html"))).contains("<td class=\"FAIL\">FAIL</td>");
    }

    @Test
    void aRunRecordsItsReferencesAndJudgesThemAtTheEnd() throws IOException {
        final Reference easy = new Reference("all_reduce", "threads", null, 16 << 10, 256 << 10,
            1e-9, 0.9);
        final Reference hard = new Reference("all_gather", null, null, 16 << 10, 256 << 10, 1e6, 0.9);
        final Reference other = new Reference("all_reduce", "nccl", null, 1, 2, 1e6, 0.9);
        final List<Result> measured = ResultFixtures.run(dir, 2, List.of(easy, hard, other));
        assertThat(measured).isNotEmpty();
        final StringWriter o = new StringWriter();
        final ExitCode code = ReferenceJudge.endOfRun(List.of(easy, hard, other), List.of("threads"), measured,
            new PrintWriter(o));
        assertThat(code).isEqualTo(ExitCode.FAILED);
        // the nccl reference is not this run's business
        assertThat(o.toString().lines()).hasSize(2).satisfiesExactly(
            l -> assertThat(l).startsWith("PASS all_reduce threads"),
            l -> assertThat(l).startsWith("FAIL all_gather"));
        assertThat(ReferenceJudge.endOfRun(List.of(easy), List.of("threads"), measured, new PrintWriter(o)))
            .isEqualTo(ExitCode.OK);
        assertThat(ReferenceJudge.endOfRun(List.of(other), List.of("threads"), measured, new PrintWriter(o)))
            .as("no reference of this run's backends: nothing to judge").isEqualTo(ExitCode.OK);
        // the JSON carries them: a report without --spec judges them too
        final StringWriter r = new StringWriter();
        assertThat(Main.run(new PrintWriter(r), new PrintWriter(new StringWriter()), "report", dir.toString(), "-o",
            dir.resolve("rep").toString())).isEqualTo(1);
        assertThat(r.toString()).contains("PASS all_reduce threads", "FAIL all_gather",
            "FAIL all_reduce nccl 1B-2B", "NOT MEASURED: no run of backend nccl");
    }
}
