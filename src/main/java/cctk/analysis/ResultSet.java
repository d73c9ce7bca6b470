package cctk.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything read from the inputs of a report or comparison: the runs, their measurements, and one problem per
 * input that could not be read (file name first). Runs are sorted by backend, world size and start, and the
 * measurements by run.
 */
public final class ResultSet {

    private final List<Run> runs;
    private final List<Result> results;
    private final List<String> problems;
    private final Map<Run, String> labels = new LinkedHashMap<>();

    ResultSet(final List<Result> results, final List<String> problems) {
        final List<Run> rs = new ArrayList<>();
        for (final Result r : results) {
            if (!rs.contains(r.run())) {
                rs.add(r.run());
            }
        }
        rs.sort(Comparator.comparing(Run::backend).thenComparingInt(Run::world)
            .thenComparing(r -> Objects.toString(r.start(), "")).thenComparing(Run::source));
        this.runs = List.copyOf(rs);
        final List<Result> ordered = new ArrayList<>(results);
        // stable: each run's measurements keep their file order
        ordered.sort(Comparator.comparingInt(r -> runs.indexOf(r.run())));
        this.results = List.copyOf(ordered);
        this.problems = List.copyOf(problems);
        for (final Run r : runs) {
            labels.put(r, label(r));
        }
    }

    public List<Run> runs() {
        return runs;
    }

    public List<Result> results() {
        return results;
    }

    /** One line per input that was skipped in whole or part, naming the file. */
    public List<String> problems() {
        return problems;
    }

    /** The measurements of one run, in file order. */
    public List<Result> of(final Run run) {
        return results.stream().filter(r -> r.run().equals(run)).toList();
    }

    /**
     * The name of a run in legends and tables: {@code tcp W=4}, with the cluster, job or start added only when
     * two runs would otherwise share a name.
     */
    public String nameOf(final Run run) {
        return labels.getOrDefault(run, run.shortName());
    }

    private String label(final Run run) {
        final List<Run> same = runs.stream().filter(r -> r.shortName().equals(run.shortName())).toList();
        if (same.size() == 1) {
            return run.shortName();
        }
        if (same.stream().map(Run::cluster).distinct().count() == same.size()) {
            return run.shortName() + " " + run.cluster();
        }
        if (same.stream().map(Run::jobId).distinct().count() == same.size()) {
            return run.shortName() + " job " + run.jobId();
        }
        if (same.stream().map(Run::start).distinct().count() == same.size()) {
            return run.shortName() + " " + run.start();
        }
        return run.shortName() + " #" + (same.indexOf(run) + 1);
    }
}
