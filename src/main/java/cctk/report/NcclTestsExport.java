package cctk.report;

import cctk.OwnerFiles;
import cctk.results.nccltests.NcclTestsWriter;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code cctk report --nccl-tests}: every run of the report in nccl-tests' text layout ({@link NcclTestsWriter}), one
 * file per run and collective in {@value #DIRECTORY}/, as each nccl-tests binary writes one table, named after the
 * run's result file and the binary ({@code profile_tcp_world4_20261124-173430_all_reduce_perf.txt}) through
 * {@link FileNames}, so that parsers of nccl-tests logs read cctk's results and {@code cctk report} reads them back.
 * <b>Note:</b> threadsafe (no state).
 */
final class NcclTestsExport {

    /** The directory in the report that holds the tables. */
    static final String DIRECTORY = cctk.results.inputs.ResultReader.EXPORT;

    private NcclTestsExport() {
    }

    /** Writes one file per run and collective into {@code dir}; returns them. */
    static List<Path> write(final ResultSet set, final Path dir) throws IOException {
        final FileNames names = new FileNames();
        final List<Path> out = new ArrayList<>();
        for (final Run run : set.runs()) {
            for (final Map.Entry<String, List<Result>> e : NcclTestsWriter.byCollective(set.of(run)).entrySet()) {
                final Path file = dir.resolve(names.name(stem(run) + "_" + NcclTestsWriter.program(e.getKey()),
                    ".txt"));
                try (Writer w = OwnerFiles.text(file)) {
                    NcclTestsWriter.write(run, e.getKey(), e.getValue(), w);
                } catch (final IOException x) {
                    throw ReportWriter.named(file, x);
                }
                out.add(file);
            }
        }
        return out;
    }

    /** The run's result file name without its suffixes, or {@code <backend>_world<N>}. */
    private static String stem(final Run run) {
        if (run.source() == null) {
            return run.backend() + "_world" + run.world();
        }
        String name = Path.of(run.source().replace('\u0000', '_')).getFileName().toString();
        for (final String suffix : List.of(".part", ".csv", ".json", ".txt", ".log", ".out")) {
            if (name.endsWith(suffix)) {
                name = name.substring(0, name.length() - suffix.length());
            }
        }
        return name.isEmpty() ? run.backend() + "_world" + run.world() : name;
    }
}
