package cctk.results;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.Json;
import cctk.results.inputs.ResultReader;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.NamedCsvRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(20)
class ResultFilesTest {

    @TempDir
    Path dir;

    static Run header() {
        final Map<String, Object> args = new LinkedHashMap<>();
        args.put("iters", 20L);
        final List<RankInfo> ranks = List.of(new RankInfo(0, "a", 1, 0, 0, "cpu", "lo"),
            new RankInfo(1, "a", 2, 1, 0, "cpu", "lo"), new RankInfo(2, "b", 3, 0, 1, "cpu", "eth0"),
            new RankInfo(3, "b", 4, 1, 1, "cpu", "eth0"));
        return new Run(null, "0.1.0", "configs/a.yaml", "4242", "perlmutter", "tcp", 4, "2026-03-01T14:05:09", ranks,
            Run.hostsOf(ranks), Map.of("NCCL_SOCKET_IFNAME", "hsn0"), args, List.of(), null, null);
    }

    static Line allReduce() {
        final Run run = header();
        final Result oop = new Result(run, "all_reduce", "float32", "sum", -1, 4 << 20, 1 << 20, false, 90.0, 85, 89,
            120, 3.5, 46.6, 69.9, 0, null);
        final Result ip = new Result(run, "all_reduce", "float32", "sum", -1, 4 << 20, 1 << 20, true, 91.0, 86, 90, 121,
            3.1, 46.1, 69.1, 0, null);
        return new Line("AllReduce", 4 << 20, 4, List.of(oop, ip));
    }

    static Line skippedGather() {
        final Run run = header();
        final Result ok = new Result(run, "all_gather", "float32", null, -1, 4 << 20, 1 << 18, false, 179.0, 170,
            178, 200, 1.0, 23.4, 17.6, 2, null);
        return new Line("AllGather", 4 << 20, 4, List.of(ok, Result.skipped(run, "all_gather", "float32", null, -1,
            4 << 20, 1 << 18, true, "rank 3: out of memory, \"device\"")));
    }

    @Test
    void writesTheSameRowsAsProfileCsvAndJson() throws IOException {
        final ResultFiles files = ResultFiles.create(dir.resolve("out"), header());
        files.add(allReduce());
        files.add(skippedGather());
        final List<Path> paths = files.finish(null);
        assertThat(paths).extracting(p -> p.getFileName().toString()).containsExactly(
            "profile_tcp_world4_20260301-140509.txt", "profile_tcp_world4_20260301-140509.csv",
            "profile_tcp_world4_20260301-140509.json");
        try (var s = Files.list(dir.resolve("out"))) {
            assertThat(s.filter(p -> p.toString().endsWith(".part"))).isEmpty();
        }
        final String text = Files.readString(paths.get(0));
        assertThat(text).contains("Configuration: World Size=4", "Backend: tcp", "# Rank 2 rank 2 host b pid 3 local 0 node 1 device cpu nic eth0",
            "# env NCCL_SOCKET_IFNAME=hsn0", "Tensor Size: 1,048,576 elements (4 MiB) float32",
            "  AllReduce(sum):           90.00 us | AlgBW:   46.60 GB/s | BusBW:   69.90 GB/s | #wrong: 0 || "
                + "in-place:     91.00 us",
            "in-place: skipped: rank 3: out of memory", "# Out of bounds values : 2 FAILED");
        assertThat(text.indexOf("Tensor Size")).isEqualTo(text.lastIndexOf("Tensor Size"));

        assertThat(Files.readAllLines(paths.get(1)).get(0)).isEqualTo(Column.csvHeader(false));
        final List<Map<String, String>> csv;
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(paths.get(1))) {
            csv = r.stream().map(NamedCsvRecord::getFieldsAsMap).toList();
        }
        assertThat(csv).hasSize(4).allSatisfy(row -> assertThat(row).hasSize(Column.csv(false).size()));
        assertThat(csv.get(0)).containsEntry("backend", "tcp").containsEntry("collective", "all_reduce")
            .containsEntry("dtype", "float32").containsEntry("op", "sum").containsEntry("size_bytes", "4194304")
            .containsEntry("in_place", "false").containsEntry("time_us", "90").containsEntry("busbw_gbps", "69.9");
        assertThat(csv.get(3)).containsEntry("collective", "all_gather").containsEntry("in_place", "true")
            .containsEntry("time_us", "").containsEntry("busbw_gbps", "")
            .containsEntry("skipped", "rank 3: out of memory, \"device\"");

        final Map<String, Object> doc = object(Json.parse(Files.readString(paths.get(2))));
        assertThat(doc).containsEntry("world_size", 4L).containsEntry("status", "FAILED").containsEntry("wrong", 2L)
            .containsEntry("environment", Map.of("NCCL_SOCKET_IFNAME", "hsn0"));
        assertThat(object(doc.get("args"))).containsEntry("iters", 20L);
        final List<?> rows = (List<?>) doc.get("rows");
        assertThat(rows).hasSize(4).allSatisfy(row -> assertThat(object(row).keySet()).containsExactlyElementsOf(
            Column.csv(false).stream().filter(c -> c.scope() == Column.Scope.ROW).map(Column::header).toList()));
        assertThat(object(rows.get(0))).containsEntry("collective", "all_reduce").containsEntry("busbw_gbps", 69.9)
            .containsEntry("in_place", false);
        assertThat(object(rows.get(3))).containsEntry("in_place", true).containsEntry("time_us", null)
            .containsEntry("skipped", "rank 3: out of memory, \"device\"");
    }

    @Test
    void theProfileTextPrintsEachSizeAsItWasAsked() throws IOException {
        // old: "Tensor Size: 100,000,000 elements (381.47 MiB)" and "# sizes in binary units" for a 400 MB run
        final ResultFiles files = ResultFiles.create(dir.resolve("out"), header());
        final Run run = files.run();
        for (final long bytes : new long[] {4_000_000, 400_000_000, 4 << 20}) {
            files.add(new Line("AllReduce", bytes, 4, List.of(new Result(run, "all_reduce", "float32", "sum", -1,
                bytes, bytes / 4, false, 90.0, 85, 89, 120, 3.5, 46.6, 69.9, 0, null))));
        }
        final String text = Files.readString(files.finish(null).get(0));
        assertThat(text).contains("# sizes as asked, in binary units (1 MiB = 2^20 bytes) or decimal ones (1 MB = 10^6"
            + " bytes)", "Tensor Size: 1,000,000 elements (4 MB) float32",
            "Tensor Size: 100,000,000 elements (400 MB) float32", "Tensor Size: 1,048,576 elements (4 MiB) float32")
            .doesNotContain("381.47", "3.81 MiB", "4.19", "sizes in binary units");
    }

    @Test
    void resultFilesAndTheirNewDirectoryAreOwnerOnly() throws IOException {
        final Path out = dir.resolve("new/out");
        final ResultFiles files = ResultFiles.create(out, header());
        files.add(allReduce());
        for (final Path part : files.partPaths()) {
            assertThat(Files.getPosixFilePermissions(part)).as("%s", part)
                    .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        }
        for (final Path done : files.finish(null)) {
            assertThat(Files.getPosixFilePermissions(done)).as("%s", done)
                    .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        }
        assertThat(Files.getPosixFilePermissions(out)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(Files.getPosixFilePermissions(out.getParent()))
                .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    }

    @Test
    void aCrashLeavesFlushedPartFiles() throws IOException {
        final ResultFiles files = ResultFiles.create(dir, header());
        files.add(allReduce());
        final List<Path> parts = files.partPaths();
        // no finish: what a killed process leaves behind, flushed row by row
        assertThat(parts).allSatisfy(p -> assertThat(p).exists());
        assertThat(Files.readString(parts.get(0))).contains("AllReduce(sum):");
        assertThat(Files.readAllLines(parts.get(1))).hasSize(3);
        assertThat(Files.readString(parts.get(2))).contains("\"rows\": [", "all_reduce").endsWith("}\n");
        files.close();
        final ResultFiles second = ResultFiles.create(dir, header());
        assertThat(second.partPaths().get(0).getFileName().toString()).contains("140509-1");
        second.close();
    }

    @Test
    void theJsonPartParsesAfterEveryRowWithTheRowsSoFar() throws IOException {
        final ResultFiles files = ResultFiles.create(dir, header());
        final Path json = files.partPaths().get(2);
        assertThat(ResultReader.read(List.of(json)).results()).isEmpty();
        for (int lines = 1; lines <= 25; lines++) {
            files.add(lines % 5 == 0 ? skippedGather() : allReduce());
            final ResultSet back = ResultReader.read(List.of(json));
            assertThat(back.problems()).as("after line %d", lines).isEmpty();
            assertThat(back.results()).as("after line %d", lines).hasSize(2 * lines)
                .allSatisfy(r -> assertThat(r.run().complete()).isFalse());
            assertThat(back.results().get(2 * lines - 1).collective())
                .isEqualTo(lines % 5 == 0 ? "all_gather" : "all_reduce");
        }
        files.close();
    }

    @Test
    void eachRowWritesItsOwnBytesOnlyNotTheWholeFileAgain() throws IOException {
        final ResultFiles files = ResultFiles.create(dir, header());
        final Path json = files.partPaths().get(2);
        final Line one = new Line("AllReduce", 4 << 20, 4, allReduce().results().subList(0, 1));
        final int rows = 200;
        final long[] size = new long[rows + 1];
        final long[] written = new long[rows + 1];
        size[0] = Files.size(json);
        for (int i = 1; i <= rows; i++) {
            final long before = bytesThisThreadWrote();
            files.add(one);
            written[i] = bytesThisThreadWrote() - before;
            size[i] = Files.size(json);
        }
        files.close();
        final long row = size[2] - size[1];
        assertThat(row).as("one row's JSON (its comma and closing kept)").isBetween(300L, 2000L);
        assertThat(size[rows]).as("the header, then %d rows of %d bytes", rows, row)
            .isEqualTo(size[1] + (rows - 1) * row);
        // all three files, one row each (the JSON row and its closing): the 200th add writes what the 2nd wrote;
        // rewriting the whole JSON each time would write some 200 rows' worth at the end
        assertThat(written[rows]).as("bytes written by add #%d vs add #2", rows).isEqualTo(written[2]);
        assertThat(written[2]).as("bytes written by one add").isBetween(row, 4 * row);
        assertThat(LongStream.of(written).sum()).as("bytes written by %d adds", rows)
            .isLessThan(4L * rows * row);
    }

    @Test
    void aCrashLeavesAJsonPartThatReadsBackWithEveryRow() throws IOException {
        final ResultFiles files = ResultFiles.create(dir, header());
        files.add(allReduce());
        files.add(skippedGather());
        files.close(); // no finish: what a killed process leaves behind
        final Path json = files.partPaths().get(2);
        final ResultSet back = ResultReader.read(List.of(json));
        assertThat(back.problems()).isEmpty();
        assertThat(back.results()).extracting(Result::collective)
            .containsExactly("all_reduce", "all_reduce", "all_gather", "all_gather");
        assertThat(back.results().get(0).run().status()).isEqualTo(Run.INCOMPLETE);
        assertThat(Files.readString(json)).endsWith("}\n  ]\n}\n");
        try (var s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).as("no temporary files")
                .allMatch(n -> n.endsWith(".txt.part") || n.endsWith(".csv.part") || n.endsWith(".json.part"));
        }
    }

    @Test
    void theFinalJsonIsWhatTheOneEncoderWritesOfItWhole() throws IOException {
        final ResultFiles files = ResultFiles.create(dir.resolve("rows"), header());
        files.add(allReduce());
        files.add(skippedGather());
        files.fillCheck(1 << 20, 0.5);
        files.jitDuringSweep(Map.of("summary", "quiet", "points_retimed", 0L));
        final String json = Files.readString(files.finish("stopped: SIGTERM").get(2));
        assertThat(json).isEqualTo(Json.write(Json.parse(json)) + "\n");
        assertThat(keys(json)).containsExactly("cctk_version", "start_time", "spec",
            "job_id", "backend", "world_size", "units", "args", "environment", "ranks", "rows", "wrong",
            "average_bus_bandwidth", "status", "error", "summary");
        final ResultFiles none = ResultFiles.create(dir.resolve("none"), header());
        final String empty = Files.readString(none.finish(null).get(2));
        assertThat(empty).isEqualTo(Json.write(Json.parse(empty)) + "\n").contains("\"rows\": [],");
        assertThat(keys(empty)).doesNotContain("summary").contains("status");
    }

    /** A JSON object as {@link Json#parse} returns it: a map of names to values. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(final Object parsed) {
        assertThat(parsed).isInstanceOf(Map.class);
        return (Map<String, Object>) parsed;
    }

    private static List<String> keys(final String json) {
        return ((Map<?, ?>) Json.parse(json)).keySet().stream().map(String::valueOf).toList();
    }

    /** What this thread passed to write calls so far ({@code wchar} of Linux's per-thread I/O accounting). */
    private static long bytesThisThreadWrote() throws IOException {
        for (final String line : Files.readAllLines(Path.of("/proc/thread-self/io"))) {
            if (line.startsWith("wchar:")) {
                return Long.parseLong(line.substring("wchar:".length()).trim());
            }
        }
        throw new IllegalStateException("no wchar in /proc/thread-self/io");
    }

}
