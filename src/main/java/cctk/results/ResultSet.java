package cctk.results;

import cctk.Printable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Everything read from the inputs of a report or comparison: the runs, their measurements, and one problem per
 * input that could not be read (file name first, safe to print). Runs are sorted by backend, world size and
 * start, and the measurements by run. Built in time linear in the measurements (plus sorting the runs). A run is
 * told apart by identity: the readers make one {@link Run} per file or group, and the harness one per run.
 * <b>Note:</b> threadsafe once built.
 */
public final class ResultSet {

    private final List<Run> runs;
    private final List<Result> results;
    private final List<String> problems;
    private final Map<Run, List<Result>> byRun = new IdentityHashMap<>();
    private final Map<Run, String> labels = new IdentityHashMap<>();
    private final Map<Object, Object> derived = new HashMap<>();

    /** The measurements of one or more runs; {@code problems} name what could not be read. */
    public ResultSet(final List<Result> results, final List<String> problems) {
        final Map<Run, List<Result>> grouped = new IdentityHashMap<>();
        final List<Run> rs = new ArrayList<>();
        for (final Result r : results) {
            grouped.computeIfAbsent(r.run(), k -> {
                rs.add(k);
                return new ArrayList<>();
            }).add(r);
        }
        rs.sort(Comparator.comparing(Run::backend).thenComparingInt(Run::world)
            .thenComparing(r -> Objects.toString(r.start(), "")).thenComparing(r -> Objects.toString(r.source(), "")));
        this.runs = List.copyOf(rs);
        final List<Result> ordered = new ArrayList<>(results.size());
        for (final Run run : runs) {
            // each run's measurements keep their file order
            final List<Result> mine = List.copyOf(grouped.get(run));
            ordered.addAll(mine);
            byRun.put(run, mine);
        }
        this.results = List.copyOf(ordered);
        this.problems = problems.stream().map(Printable::of).toList();
        final boolean clusters = runs.stream().map(Run::cluster).filter(Objects::nonNull).distinct().count() > 1;
        final Map<String, List<Run>> byName = new LinkedHashMap<>();
        for (final Run r : runs) {
            byName.computeIfAbsent(prefix(r, clusters) + r.shortName(), k -> new ArrayList<>()).add(r);
        }
        byName.forEach(this::label);
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
        return byRun.getOrDefault(run, List.of());
    }

    /**
     * A view of this set built once, on first use, then shared (the report's series, shared by its analysis, tables
     * and plots): {@code make} runs once per {@code key}.
     */
    @SuppressWarnings("unchecked")
    public synchronized <T> T derived(final Object key, final Function<ResultSet, T> make) {
        return (T) derived.computeIfAbsent(key, k -> make.apply(this));
    }

    /**
     * The name of a run in legends, tables and the analysis, the same everywhere: {@code tcp W=4}; with the cluster
     * in front when the runs come from more than one ({@code perlmutter nccl W=8}), and the start (to the minute, to
     * the second when needed) when runs would otherwise share a name ({@code tcp W=4 2026-11-24 17:34}); the job id,
     * then a number, only when even that does not tell them apart.
     */
    public String nameOf(final Run run) {
        return labels.getOrDefault(run, run.shortName());
    }

    private static String prefix(final Run r, final boolean clusters) {
        return clusters && r.cluster() != null ? r.cluster() + " " : "";
    }

    /**
     * Names the runs that share a name by the first of these that tells them apart (decided once per group): the
     * start to the minute, to the second, the hosts, the job id, the file; a number only when none does.
     */
    private void label(final String name, final List<Run> same) {
        final int n = same.size();
        final List<java.util.function.Function<Run, String>> ways = List.of(r -> start(r, 16), r -> start(r, 19),
            r -> r.hosts().isEmpty() ? null : r.hosts().get(0) + (r.hosts().size() > 1 ? "+" + (r.hosts().size()
            - 1) : ""), r -> r.jobId() == null ? null
            : "job " + r.jobId(), r -> r.source() == null ? null : java.nio.file.Path.of(r.source().replace('\0',
            '_')).getFileName().toString());
        java.util.function.Function<Run, String> by = null;
        for (final java.util.function.Function<Run, String> way : ways) {
            if (n > 1 && by == null && same.stream().map(way).filter(Objects::nonNull).distinct().count() == n) {
                by = way;
            }
        }
        for (int i = 0; i < n; i++) {
            final Run run = same.get(i);
            labels.put(run, n == 1 ? name : by != null ? name + " " + by.apply(run) : name + " #" + (i + 1));
        }
    }

    /** The start as {@code 2026-11-24 17:34} ({@code chars} 16) or with seconds (19); null when unknown. */
    private static String start(final Run r, final int chars) {
        final String s = r.start();
        return s == null ? null : s.replace('T', ' ').substring(0, Math.min(chars, s.length()));
    }
}
