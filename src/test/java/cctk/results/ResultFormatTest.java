package cctk.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.Json;
import cctk.results.inputs.ResultReader;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What a run writes is what a report reads back: every field of the run and of each measurement, both formats. */
@Timeout(30)
class ResultFormatTest {

    /** Text cctk may meet in a cell: separators, quotes, spaces at the ends, non-ASCII. Printable, so kept as is. */
    private static final List<String> ODD = List.of("a,b", "say \"hi\"", "\"", ",", " lead and trail ", "",
        "all_reduce", "\u5168\u5f52\u7ea6 \u00e9\u00df", "x".repeat(300), "semi;colon|pipe\\back", "#not a comment",
        "'single'", "=SUM(A1)", "-2+3+cmd", "@SUM(1)", "+1", "-1.5", "'=quoted already", "''@twice");

    @TempDir
    Path dir;

    static Run run() {
        final Map<String, Object> args = new LinkedHashMap<>();
        args.put("iters", 20L);
        args.put("sizes", List.of("4 B", "1073741824 B"));
        args.put("nested", Map.of("spread", 4.5));
        final List<RankInfo> ranks = List.of(new RankInfo(0, "nid001", 4242, 0, 0, "cpu", "hsn0,lo (spec: hsn0)",
            "node 0 of 2: shm to rank 1 (zero-copy; 2 segments, 8 MiB in /dev/shm); tcp over hsn0 to rank 2 (leaders)"),
            new RankInfo(1, "nid002", Long.MAX_VALUE, 0, 1, "gpu 0 \"NVIDIA A100, 40GB\"", "hsn0"));
        final List<Reference> refs = List.of(new Reference("all_reduce", "tcp", "float32", 1L << 20, Long.MAX_VALUE,
            80.5, 0.9), new Reference("all_gather", null, null, 0, 1L << 30, 1e-3, 1.0));
        return new Run(null, "0.2.0", "configs/odd, \"name\".yaml", "12345.7", "perlmutter", "tcp", 16_777_216,
            "2026-11-24T16:51:00", ranks, Run.hostsOf(ranks), Map.of("NCCL_IB_HCA", "=mlx5_0:1,mlx5_1:1",
                "CCTK_X", "a\"b"), args, refs, null, null);
    }

    /** Measurements covering every column: extremes, absent values, odd text. */
    static List<Result> results(final Run run) {
        final List<Result> out = new ArrayList<>();
        out.add(new Result(run, "all_reduce", "float32", "sum", -1, Long.MAX_VALUE, Long.MAX_VALUE, false, 1e-3,
            0.000001, 123456.7, 9.87654e15, 0, Double.MIN_NORMAL, 1.7976931348623157e308, Long.MAX_VALUE, null));
        out.add(new Result(run, "broadcast", "bfloat16", null, 16_777_215, 0, 0, true, 0.1 + 0.2, 0.3, 0.30000000000000004,
            1, 2, 3, 4, 0, null));
        out.add(new Result(run, "barrier", null, null, -1, 0, 0, false, 17.25, 16, 17, 18, 1.5, Double.NaN,
            Double.NaN, -1, null));
        // how a row was obtained, every field of it: repeats, loops, spread, the first attempts, why loops were timed
        // again, the time across ranks and the machine read after its size
        out.add(new Result(run, "all_gather", "float32", null, -1, 1 << 20, 1 << 18, false, 10.25, 9, 10, 14, 3.5,
            102.3, 51.15, 0, null, new Result.Obtained(3, 400, 5, 12.5, 9.5, 10.75, 10.5, "jit 1, machine 1", "max",
            261.3)));
        for (final String odd : ODD) {
            out.add(Result.skipped(run, odd.isBlank() ? "alltoall" : odd, "int8", null, -1, 9_007_199_254_740_993L,
                9_007_199_254_740_993L, true, odd.isEmpty() ? "why" : odd));
        }
        return out;
    }

    @Test
    void aRunsFilesReadBackAsTheRunAndEveryMeasurement() throws IOException {
        final List<Path> files = write(dir);
        final ResultSet fromCsv = ResultReader.read(List.of(files.get(1)));
        assertThat(fromCsv.problems()).isEmpty();
        assertSameMeasurements(fromCsv, results(run()));
        assertSameRun(fromCsv.runs().get(0), files.get(1).toString());

        Files.delete(files.get(1));
        final ResultSet fromJson = ResultReader.read(List.of(files.get(2)));
        assertThat(fromJson.problems()).isEmpty();
        assertSameMeasurements(fromJson, results(run()));
        assertSameRun(fromJson.runs().get(0), files.get(2).toString());
    }

    @Test
    void theCombinedCsvReadsBackWithItsRunColumns() throws IOException {
        final Run r = run().at("runs/profile a,b.json").ended(Run.INCOMPLETE, "cut");
        final StringWriter text = new StringWriter();
        final CsvOut csv = ResultCsv.writer(text);
        ResultCsv.header(csv, true);
        for (final Result m : results(r)) {
            ResultCsv.row(csv, m, true);
        }
        csv.flush();
        final Path f = dir.resolve("combined.csv");
        Files.writeString(f, text.toString());
        final ResultSet back = ResultReader.read(List.of(f));
        assertThat(back.problems()).isEmpty();
        assertSameMeasurements(back, results(r));
        final Run got = back.runs().get(0);
        assertThat(got.source()).isEqualTo("runs/profile a,b.json");
        assertThat(List.of(got.cluster(), got.jobId(), got.start(), got.backend())).containsExactly("perlmutter",
            "12345.7", "2026-11-24T16:51:00", "tcp");
        assertThat(got.world()).isEqualTo(16_777_216);
        assertThat(got.hosts()).containsExactly("nid001", "nid002");
        assertThat(got.complete()).isFalse();
    }

    @Test
    void aLineBreakInACellReadsBackAsOneRowShownSafely() throws IOException {
        final Run r = run();
        final Result broken = Result.skipped(r, "all_gather", "float32", null, -1, 64, 16, false,
            "rank 1: out of memory\nat line two\r\nthird");
        final ResultFiles files = ResultFiles.create(dir, r);
        files.add(new Line("AllGather", 64, 4, List.of(broken)));
        final Path csv = files.finish(null).get(1);
        assertThat(Files.readString(csv)).contains("\"rank 1: out of memory\nat line two\r\nthird\"");
        Files.delete(csv.resolveSibling(csv.getFileName().toString().replace(".csv", ".json")));
        final ResultSet back = ResultReader.read(List.of(csv));
        assertThat(back.problems()).isEmpty();
        assertThat(back.results()).singleElement().extracting(Result::skipped)
            .isEqualTo("rank 1: out of memory?at line two??third");
    }

    @Test
    void jsonIsReadStrictlyAndWholeNumbersExactly() {
        assertThat(Json.parse("{\"a\": 9007199254740993, \"b\": 9223372036854775807, \"c\": 1.5, \"d\": -0}"))
            .isEqualTo(Map.of("a", 9_007_199_254_740_993L, "b", Long.MAX_VALUE, "c", 1.5, "d", 0L));
        for (final String bad : List.of("{\"a\": \"x\\xy\"}", "{\"a\": +1}", "{\"a\": \"x\ty\"}", "{\"a\": 01}",
            "{\"a\": NaN}", "{\"a\": 1, \"a\": 2}", "{\"a\": 1} {}", "{\"a\": 1e400}", "// c\n{}", "{'a': 1}",
            "[1,]", "{\"a\": tru}", "[".repeat(100) + "]".repeat(100), "{\"a\": 1")) {
            assertThatThrownBy(() -> Json.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("LENIENT").hasMessageNotContaining("https://");
        }
        assertThatThrownBy(() -> Json.parse("{\"a\": 1, \"a\": 2}")).hasMessageContaining("duplicate key 'a'");
    }

    @Test
    void theSchemaNamesEachColumnOnceAndTheJsonRowsUseTheSameNames() {
        final List<String> names = Column.csv(true).stream().map(Column::header).toList();
        assertThat(names).doesNotHaveDuplicates().hasSize(Column.values().length);
        assertThat(Column.csvHeader(false)).isEqualTo("backend,world_size,collective,dtype,op,root,size_bytes,"
            + "count,in_place,time_us,min_us,p50_us,p99_us,cv_pct,algbw_gbps,busbw_gbps,wrong,skipped,repeats,iters,attempts,"
            + "spread_pct,repeat_min_us,repeat_max_us,first_time_us,retimed,time_across_ranks,crosscore_us");
        final Map<String, Object> row = ResultJson.row(results(run()).get(0));
        assertThat(row.keySet()).containsExactlyElementsOf(Column.csv(false).stream()
            .filter(c -> c.scope() == Column.Scope.ROW).map(Column::header).toList());
    }

    private List<Path> write(final Path into) {
        final ResultFiles files = ResultFiles.create(into, run());
        final List<Result> rs = results(files.run());
        for (final Result m : rs) {
            files.add(new Line("X", m.sizeBytes(), 1, List.of(m)));
        }
        return files.finish("stopped: SIGTERM, \"scancel\"");
    }

    private static void assertSameMeasurements(final ResultSet set, final List<Result> want) {
        final List<Result> got = set.results();
        assertThat(got).hasSize(want.size());
        for (int i = 0; i < want.size(); i++) {
            final Result w = want.get(i);
            final Result g = got.get(i);
            assertThat(g.in(w.run())).as("row %d", i).isEqualTo(w);
        }
    }

    private static void assertSameRun(final Run got, final String source) {
        final Run want = run();
        assertThat(got.source()).isEqualTo(source);
        assertThat(List.of(got.version(), got.spec(), got.jobId(), got.cluster(), got.backend(), got.start()))
            .containsExactly(want.version(), want.spec(), want.jobId(), want.cluster(), want.backend(),
                want.start());
        assertThat(got.world()).isEqualTo(want.world());
        assertThat(got.ranks()).isEqualTo(want.ranks());
        assertThat(got.hosts()).containsExactly("nid001", "nid002");
        assertThat(got.environment()).isEqualTo(want.environment());
        assertThat(got.args()).containsAllEntriesOf(Map.of("iters", 20L, "sizes", List.of("4 B", "1073741824 B")));
        assertThat(got.args().get("nested")).isEqualTo(Map.of("spread", 4.5));
        assertThat(got.references()).isEqualTo(want.references());
        assertThat(got.status()).isEqualTo(Run.INCOMPLETE);
        assertThat(got.error()).isEqualTo("stopped: SIGTERM, \"scancel\"");
        assertThat(got.complete()).isFalse();
    }
}
