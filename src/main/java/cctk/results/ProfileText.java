package cctk.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The human-readable profile: a header, then per type and size a "Tensor Size" block with one line per
 * collective, then a footer like nccl-tests'.
 * Sizes as they were asked ({@link Numbers#size}): binary (1 MiB = 2^20 bytes) or decimal (1 MB = 10^6 bytes);
 * bandwidth: 1 GB/s = 1e9 B/s (as nccl-tests).
 * <b>Note:</b> not threadsafe; one per result file.
 */
final class ProfileText {

    private static final String RULE = "=".repeat(80);
    private static final int NAME_WIDTH = 21;

    private String group;

    static List<String> header(final Run run) {
        final List<String> lines = new ArrayList<>();
        lines.add(RULE);
        lines.add("cctk " + run.version() + " | spec: " + run.spec() + " | job: " + run.jobId());
        lines.add("Configuration: World Size=" + run.world());
        lines.add("Backend: " + run.backend());
        lines.add("Started: " + run.start());
        lines.add(RULE);
        for (final RankInfo r : run.ranks()) {
            lines.add("# Rank " + r.rank() + " " + r.line());
        }
        for (final Map.Entry<String, String> e : run.environment().entrySet()) {
            lines.add("# env " + e.getKey() + "=" + e.getValue());
        }
        if (run.args().get("jvm") instanceof Map<?, ?> jvm && jvm.get("options") instanceof List<?> options) {
            lines.add("# jvm " + jvm.get("runtime") + ": " + String.join(" ", options.stream().map(String::valueOf)
                .toList()));
        }
        final Object machine = run.args().get(CrossCoreReadings.ARG);
        if (machine != null) {
            lines.add("# machine: a 1 MiB round trip between two cores (two threads of rank 0) "
                + CrossCoreReadings.took(machine) + " before the warm-up (the footer has the reading after the sweep)");
        }
        if (run.args().get("jit_warmup") instanceof Map<?, ?> jit) {
            lines.add("# jit warm-up before timing: " + jit.get("summary"));
        }
        lines.add("# " + how(run.args()));
        lines.add("# time: us per call, " + run.timeAcrossRanks() + ", median of the repeats | AlgBW = S/time | BusBW"
            + " = AlgBW x factor (nccl-tests) | spread: (slowest - fastest repeat) / time | loops: timed loops run");
        lines.add("# sizes as asked, in binary units (1 MiB = 2^20 bytes) or decimal ones (1 MB = 10^6 bytes);"
            + " bandwidths in GB/s (1 GB/s = 10^9 bytes/s)");
        return lines;
    }

    /** How every row was measured: warm-up, iterations, repeats and re-timing, from the run's arguments. */
    static String how(final Map<String, Object> args) {
        final Object repeats = args.get("repeats");
        final boolean retime = !Boolean.FALSE.equals(args.get("retime"));
        final Object window = args.get("window_ms");
        return "each row: up to " + args.get("warmup_iters") + " warm-up (as many as fit in 10% of the timed loop) + "
            + args.get("iters") + " timed iterations" + (window instanceof Number w && w.longValue() > 0 ? " (more"
            + " where the loop would last less than " + w + " ms, up to 20x)" : "") + ", "
            + (repeats == null ? "1 timed loop" : repeats + " timed loop(s) interleaved with the other points of its"
            + " size, the median reported") + "; " + (retime ? "a loop during which a JIT compile or a collection ran"
            + " on some rank is timed again, up to 3 times" : "raw: no loop timed again (retime: false)");
    }

    /** The lines for one point: a "Tensor Size" heading first when type or size changed. */
    List<String> line(final Line l) {
        final List<String> lines = new ArrayList<>();
        final String key = l.dtype() + "/" + l.requestedBytes();
        if (!key.equals(group)) {
            group = key;
            lines.add("");
            lines.add(heading(l));
        }
        final StringBuilder sb = new StringBuilder("  ");
        final String name = l.title() + (l.op() == null ? "" : "(" + l.op() + ")") + ":";
        sb.append(name).append(" ".repeat(Math.max(1, NAME_WIDTH - name.length())));
        for (int i = 0; i < l.results().size(); i++) {
            if (i > 0) {
                sb.append(" || ");
            }
            appendMeasurement(sb, l.results().get(i), l.dtype() != null);
        }
        lines.add(sb.toString());
        return lines;
    }

    /**
     * {@code Tensor Size: 100,000,000 elements (400 MB) float32}: the size as it was asked, 400 MB rather than
     * 381.47 MiB, 4 MiB rather than 4.19 MB; and where the rows carry it, the machine's cross-core reading taken right
     * after the size was measured ({@code | machine: 1 MiB cross-core round trip 52 µs}).
     */
    private static String heading(final Line l) {
        if (l.dtype() == null) {
            return "No data (synchronisation only)";
        }
        final long elements = l.requestedBytes() / Math.max(1, l.elementBytes());
        final double machine = l.results().stream().mapToDouble(r -> r.how().crossCoreUs()).filter(Double::isFinite)
            .findFirst().orElse(Double.NaN);
        return "Tensor Size: " + Numbers.grouped(elements) + " elements (" + Numbers.size(l.requestedBytes()) + ") "
            + l.dtype() + (Double.isFinite(machine) ? " | machine: 1 MiB cross-core round trip "
            + Numbers.fixed(machine, 0) + " µs" : "");
    }

    private static void appendMeasurement(final StringBuilder sb, final Result m, final boolean data) {
        if (m.inPlace()) {
            sb.append("in-place:");
        }
        if (!m.measured()) {
            sb.append(m.inPlace() ? " skipped: " : "skipped: ").append(m.skipped());
            return;
        }
        sb.append(Numbers.fit(m.timeUs(), 10)).append(" us");
        if (data) {
            sb.append(" | AlgBW: ").append(Numbers.fit(m.algBw(), 7)).append(" GB/s");
            sb.append(" | BusBW: ").append(Numbers.fit(m.busBw(), 7)).append(" GB/s");
            sb.append(" | #wrong: ").append(m.wrong() < 0 ? "N/A" : Long.toString(m.wrong()));
        }
        if (m.how().known()) {
            sb.append(" | spread: ").append(Double.isFinite(m.how().spreadPct()) ? Numbers.fixed(m.how().spreadPct(), 1)
                + "%" : "-").append(" | loops: ").append(m.how().attempts()).append('/').append(m.how().repeats());
            if (m.how().iters() > 0) {
                sb.append(" x ").append(m.how().iters()).append(" iters");
            }
            if (m.how().retimed() != null) {
                sb.append(" (").append(m.how().retimed()).append(')');
            }
        }
    }

    static List<String> footer(final long wrong, final double avgBusBw, final boolean checked, final String error) {
        final List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add(RULE);
        lines.add("# Out of bounds values : " + (checked ? wrong + (wrong == 0 ? " OK" : " FAILED") : "N/A"));
        lines.add("# Avg bus bandwidth    : " + Numbers.fit(avgBusBw, 9));
        if (error != null) {
            lines.add("# Incomplete: " + error);
        }
        return lines;
    }
}
