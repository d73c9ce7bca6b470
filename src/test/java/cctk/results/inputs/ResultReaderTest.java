package cctk.results.inputs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.bench.fixture.ResultFixtures;
import cctk.results.Csvs;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Reading results back: one run per CSV+JSON pair, part files, earlier reports left out, JSON-only runs. */
@Timeout(60)
class ResultReaderTest {

    @TempDir
    Path dir;

    @Test
    void aRunsCsvAndJsonCountOnceAndTheJsonSaysWhereItRan() throws IOException {
        ResultFixtures.run(dir, 2, List.of());
        final ResultSet set = ResultReader.read(List.of(dir, dir));
        assertThat(set.problems()).isEmpty();
        assertThat(set.runs()).singleElement().satisfies(r -> {
            assertThat(r.source()).endsWith(".csv");
            assertThat(r.hosts()).containsExactly("node0");
            assertThat(r.cluster()).isEqualTo("fixture");
            assertThat(r.jobId()).isEqualTo("job2");
            assertThat(r.complete()).isTrue();
        });
        final long csvRows;
        try (var s = Files.list(dir)) {
            final Path csv = s.filter(p -> p.toString().endsWith(".csv")).findFirst().orElseThrow();
            csvRows = Files.readAllLines(csv).size() - 1;
            // the JSON alone gives the same measurements
            final Path json = Path.of(csv.toString().replaceFirst("\\.csv$", ".json"));
            final ResultSet fromJson = ResultReader.read(List.of(json));
            assertThat(fromJson.results()).hasSize((int) csvRows);
            for (int i = 0; i < csvRows; i++) {
                final Result a = set.results().get(i);
                final Result b = fromJson.results().get(i);
                assertThat(b.collective()).isEqualTo(a.collective());
                assertThat(b.sizeBytes()).isEqualTo(a.sizeBytes());
                assertThat(b.busBw()).isCloseTo(a.busBw(), org.assertj.core.data.Percentage.withPercentage(0.01));
            }
        }
        assertThat(set.results()).hasSize((int) csvRows);
    }

    @Test
    void partFilesAreIncompleteRunsAndEarlierReportsAreLeftOut() throws IOException {
        Csvs.allReduce(dir, "profile_tcp_world2_x.csv.part", "tcp", 2, 1, 2);
        final Path old = Csvs.allReduce(dir.resolve("old-report"), "combined.csv", "tcp", 8, 1, 2);
        Files.writeString(old.resolveSibling("report.html"), "<html></html>");
        final ResultSet set = ResultReader.read(List.of(dir));
        assertThat(set.runs()).singleElement().satisfies(r -> {
            assertThat(r.world()).isEqualTo(2);
            assertThat(r.complete()).isFalse();
        });
        // named directly, an earlier report is read
        assertThat(ResultReader.read(List.of(old.getParent())).runs()).extracting(Run::world).containsExactly(8);
    }

    @Test
    void twoRunsWithTheSameBackendAndWorldGetDistinctNames() throws IOException {
        final Path a = Files.writeString(dir.resolve("a.csv"), "source,cluster," + Csvs.HEADER_BEFORE_REPEATS + "\n"
            + "x,perlmutter,tcp,2,all_reduce,float32,sum,,1024,256,false,10,9,10,11,1,0.1,0.1,0,\n"
            + "y,leonardo,tcp,2,all_reduce,float32,sum,,1024,256,false,20,19,20,21,1,0.05,0.05,0,\n");
        final ResultSet set = ResultReader.read(List.of(a));
        assertThat(set.runs()).extracting(set::nameOf).containsExactlyInAnyOrder("perlmutter tcp W=2",
            "leonardo tcp W=2");
    }

    @Test
    void runsOfOneNameAreToldApartByTheirStartNeverByAnOpaqueIdFirst() throws IOException {
        final String head = "source,cluster,job_id,start," + Csvs.HEADER_BEFORE_REPEATS + "\n";
        final String row = ",tcp,2,all_reduce,float32,sum,,1024,256,false,10,9,10,11,1,0.1,0.1,0,\n";
        final ResultSet minutes = ResultReader.read(List.of(Files.writeString(dir.resolve("m.csv"), head
            + "x,local,job-81234," + "2026-11-24T17:34:07" + row + "y,local,job-81299,2026-11-24T18:02:41" + row)));
        assertThat(minutes.runs()).extracting(minutes::nameOf).containsExactly("tcp W=2 2026-11-24 17:34",
            "tcp W=2 2026-11-24 18:02");
        final ResultSet seconds = ResultReader.read(List.of(Files.writeString(dir.resolve("s.csv"), head
            + "x,local,j1,2026-11-24T17:34:07" + row + "y,local,j2,2026-11-24T17:34:41" + row)));
        assertThat(seconds.runs()).extracting(seconds::nameOf).containsExactly("tcp W=2 2026-11-24 17:34:07",
            "tcp W=2 2026-11-24 17:34:41");
        final ResultSet jobs = ResultReader.read(List.of(Files.writeString(dir.resolve("j.csv"), head
            + "x,local,j1," + row + "y,local,j2," + row)));
        assertThat(jobs.runs()).extracting(jobs::nameOf).containsExactlyInAnyOrder("tcp W=2 job j1",
            "tcp W=2 job j2");
    }

    @Test
    void jsonTextReadsWhatJsonWritesAndNamesWhereItBreaks() {
        final Object v = cctk.Json.parse(cctk.Json.write(Map.of("a", List.of(1.5, "x\"y\n", true),
            "b", Map.of())));
        assertThat(v).isEqualTo(Map.of("a", List.of(1.5, "x\"y\n", true), "b", Map.of()));
        assertThat(cctk.Json.parse("{\"n\": null, \"u\": \"\\u00e9\"}")).isEqualTo(new java.util.HashMap<>() {
            {
                put("n", null);
                put("u", "\u00e9");
            }
        });
        assertThatThrownBy(() -> cctk.Json.parse("{\"a\": [1, 2")).hasMessageContaining("line 1 column 12")
            .hasMessageContaining("truncated");
        assertThatThrownBy(() -> cctk.Json.parse("{} x")).hasMessageContaining("not valid JSON")
            .hasMessageContaining("line 1 column 5");
        assertThatThrownBy(() -> cctk.Json.parse("[".repeat(100))).hasMessageContaining("Nesting limit 64");
    }
}
