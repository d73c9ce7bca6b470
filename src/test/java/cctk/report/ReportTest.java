package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.CsvRows;
import cctk.bench.fixture.ResultFixtures;
import cctk.cli.Main;
import cctk.results.inputs.ResultReader;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code cctk report} over real harness runs at W = 2 and W = 4: every file, and figures against the CSVs. */
@Timeout(120)
class ReportTest {

    @TempDir
    static Path tmp;
    static Path results;
    static Path report;
    static String out;
    static String err;
    static int code;

    @BeforeAll
    static void runAndReport() throws InterruptedException {
        results = tmp.resolve("results");
        ResultFixtures.run(results, 2, List.of());
        ResultFixtures.run(results, 4, List.of());
        report = tmp.resolve("rep");
        final StringWriter o = new StringWriter();
        final StringWriter e = new StringWriter();
        code = Main.run(new PrintWriter(o), new PrintWriter(e), "report", results.toString(), "-o", report.toString(),
            "--at", "64KiB");
        out = o.toString();
        err = e.toString();
    }

    @Test
    void writesEveryFileAndExitsZero() {
        assertThat(err).isEmpty();
        assertThat(code).isZero();
        assertThat(out).contains("report of 2 runs");
        for (final String f : List.of("combined.csv", "full_results.md", "summary_by_config.md", "analysis.txt",
            "report.html", "plots/all_reduce_time_vs_size.png", "plots/all_reduce_busbw_vs_size.png",
            "plots/all_gather_busbw_vs_size.png", "plots/broadcast_time_vs_size.png",
            "plots/comparison_near_64KiB.png")) {
            assertThat(report.resolve(f)).as(f).isNotEmptyFile();
        }
        // a barrier moves no data: no size plot for it
        assertThat(report.resolve("plots/barrier_time_vs_size.png")).doesNotExist();
    }

    @Test
    void combinedCsvHoldsEveryRowOfEveryRunAndReadsBack() throws IOException {
        final List<String> inputRows = new ArrayList<>();
        for (final Path csv : csvs()) {
            inputRows.addAll(Files.readAllLines(csv).subList(1, Files.readAllLines(csv).size()));
        }
        final List<String> combined = Files.readAllLines(report.resolve("combined.csv"));
        assertThat(combined.get(0)).startsWith("source,cluster,job_id,start,hosts,complete,backend,world_size");
        assertThat(combined).hasSize(inputRows.size() + 1);
        // each combined row ends with the run's own CSV row
        for (final String row : inputRows) {
            assertThat(combined).anySatisfy(c -> assertThat(c).endsWith("," + row));
        }
        assertThat(combined.get(1)).contains(",fixture,job2,").contains("node0");
        final ResultSet again = ResultReader.read(List.of(report.resolve("combined.csv")));
        assertThat(again.problems()).isEmpty();
        assertThat(again.runs()).extracting(Run::shortName).containsExactly("threads W=2", "threads W=4");
        assertThat(again.results()).hasSize(inputRows.size());
    }

    @Test
    void plateauFiguresMatchTheCsv() throws IOException {
        final String analysis = Files.readString(report.resolve("analysis.txt"));
        for (final Path csv : csvs()) {
            final int world = csv.getFileName().toString().contains("world2") ? 2 : 4;
            // all_reduce out-of-place busbw at the sizes >= 256 KiB / 16: 16, 64 and 256 KiB
            final List<Double> plateau = new ArrayList<>();
            for (final Map<String, String> c : CsvRows.of(csv)) {
                if (c.get("collective").equals("all_reduce") && c.get("in_place").equals("false")
                    && Long.parseLong(c.get("size_bytes")) >= 16384) {
                    plateau.add(Double.parseDouble(c.get("busbw_gbps")));
                }
            }
            assertThat(plateau).hasSize(3);
            final double median = plateau.stream().sorted().toList().get(1);
            final ResultSet set = ResultReader.read(List.of(csv));
            final Analysis.Plateau p = Analysis.of(set).plateaus().get(0);
            assertThat(p.series().collective()).isEqualTo("all_reduce");
            assertThat(p.busBw()).isEqualTo(median);
            assertThat(analysis).contains("all_reduce float32 sum threads W=" + world + ": " + cctk.report.Tables.num(
                median) + " GB/s over 16 KiB - 256 KiB (3 sizes)");
        }
        assertThat(analysis).contains("threads W=2: fixture: node0, job job2", "threads W=4: fixture: node0, node1",
            "Ratios of busbw", "all_reduce float32 sum: threads W=4 / threads W=2 = ", "Wrong elements: none");
    }

    @Test
    void pngsAreRealImagesOfTheDocumentedSize() throws IOException {
        try (Stream<Path> s = Files.list(report.resolve("plots"))) {
            final List<Path> pngs = s.sorted().toList();
            assertThat(pngs).hasSize(7);
            for (final Path png : pngs) {
                final BufferedImage img = ImageIO.read(png.toFile());
                assertThat(img).as(png.toString()).isNotNull();
                assertThat(img.getWidth()).isEqualTo(cctk.report.Plots.WIDTH);
                assertThat(img.getHeight()).isEqualTo(cctk.report.Plots.HEIGHT);
                // not blank: the plot draws in more than two colours
                final java.util.Set<Integer> colours = new java.util.HashSet<>();
                for (int x = 0; x < img.getWidth(); x += 7) {
                    for (int y = 0; y < img.getHeight(); y += 7) {
                        colours.add(img.getRGB(x, y));
                    }
                }
                assertThat(colours.size()).as(png.toString()).isGreaterThan(5);
            }
        }
    }

    @Test
    void htmlPageIsSelfContainedWithTablesAndEveryPlot() throws IOException {
        final String html = Files.readString(report.resolve("report.html"));
        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
        assertThat(html.split("src=\"data:image/png;base64,", -1)).hasSize(8);
        assertThat(html).doesNotContain("src=\"http", "href=\"http", "src=\"plots/");
        assertThat(html).containsPattern("<h2 id=\"table-[0-9]+\">Summary per configuration</h2>")
            .containsPattern("<h2 id=\"table-[0-9]+\">Full results</h2>").contains("<h2 id=\"table-1\">Runs</h2>",
            "Plateau bus bandwidth", "<td>threads W=4</td>");
        final long rows = html.lines().filter(l -> l.startsWith("<tr><td>threads W=")).count();
        final long measurements = ResultReader.read(List.of(results)).results().size();
        // full results + summary + runs + at-size rows
        assertThat(rows).isGreaterThan(measurements);
    }

    @Test
    void markdownTablesHaveOneRowPerMeasurementAndPerConfiguration() throws IOException {
        final List<String> full = Files.readAllLines(report.resolve("full_results.md"));
        final ResultSet set = ResultReader.read(List.of(results));
        assertThat(full.stream().filter(l -> l.startsWith("| threads W="))).hasSize(set.results().size());
        assertThat(full.get(2)).startsWith("| run | collective | dtype | op | layout | size | time (us) |");
        final String summary = Files.readString(report.resolve("summary_by_config.md"));
        assertThat(summary).contains("## Summary per configuration", "## Runs", "## Every run at the measured size nearest to 64 KiB");
        // 4 collectives x 2 runs
        assertThat(summary.lines().filter(l -> l.matches("\\| threads W=\\d \\| (all_reduce|all_gather|broadcast"
            + "|barrier) \\|.*"))).hasSize(8);
    }

    private static List<Path> csvs() throws IOException {
        try (Stream<Path> s = Files.list(results)) {
            return s.filter(p -> p.toString().endsWith(".csv")).sorted(Comparator.naturalOrder()).toList();
        }
    }
}
