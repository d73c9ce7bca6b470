package cctk.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The human-readable profile: a header, then per type and size a "Tensor Size" block with one line per
 * collective (the layout of the original micro-profiling script), then a footer like nccl-tests'.
 * Sizes: 1 MB = 2^20 bytes (sizes are binary); bandwidth: 1 GB/s = 1e9 B/s (as nccl-tests).
 */
final class ProfileText {

    private static final String RULE = "=".repeat(80);
    private static final int NAME_WIDTH = 21;

    private String group;

    static List<String> header(final RunHeader h) {
        final List<String> lines = new ArrayList<>();
        lines.add(RULE);
        lines.add("cctk " + h.version() + " | spec: " + h.specFile() + " | job: " + h.jobId());
        lines.add("Configuration: World Size=" + h.world());
        lines.add("Backend: " + h.backend());
        lines.add("Started: " + h.start());
        lines.add(RULE);
        for (int r = 0; r < h.rankLines().size(); r++) {
            lines.add("# Rank " + r + " " + h.rankLines().get(r));
        }
        for (final Map.Entry<String, String> e : h.environment().entrySet()) {
            lines.add("# env " + e.getKey() + "=" + e.getValue());
        }
        if (h.args().get("jit_warmup") instanceof Map<?, ?> jit) {
            lines.add("# jit warm-up before timing: " + jit.get("summary"));
        }
        lines.add("# time: mean per rank, max over ranks | AlgBW = S/time | BusBW = AlgBW x factor (nccl-tests)");
        return lines;
    }

    /** The lines for one row: a "Tensor Size" heading first when type or size changed. */
    List<String> row(final Row r) {
        final List<String> lines = new ArrayList<>();
        final String key = r.dtype() + "/" + r.requestedBytes();
        if (!key.equals(group)) {
            group = key;
            lines.add("");
            lines.add(heading(r));
        }
        final StringBuilder sb = new StringBuilder("  ");
        final String name = r.title() + (r.op() == null ? "" : "(" + r.op() + ")") + ":";
        sb.append(name).append(" ".repeat(Math.max(1, NAME_WIDTH - name.length())));
        for (int i = 0; i < r.measurements().size(); i++) {
            if (i > 0) {
                sb.append(" || ");
            }
            appendMeasurement(sb, r.measurements().get(i), r.dtype() != null);
        }
        lines.add(sb.toString());
        return lines;
    }

    private static String heading(final Row r) {
        if (r.dtype() == null) {
            return "No data (synchronisation only)";
        }
        final long elements = r.requestedBytes() / bytesPer(r);
        return "Tensor Size: " + Numbers.grouped(elements) + " elements ("
            + Numbers.fixed(r.requestedBytes() / 1048576.0, 2) + " MB) " + r.dtype();
    }

    private static long bytesPer(final Row r) {
        final cctk.comm.DType t = cctk.comm.DType.bySpecName(r.dtype());
        return t == null ? 1 : t.bytes();
    }

    private static void appendMeasurement(final StringBuilder sb, final Measurement m, final boolean data) {
        if (m.inPlace()) {
            sb.append("in-place:");
        }
        if (!m.measured()) {
            sb.append(m.inPlace() ? " skipped: " : "skipped: ").append(m.skipped());
            return;
        }
        sb.append(Numbers.fit(m.timeUs() / 1000.0, 8, 3)).append(" ms");
        if (data) {
            sb.append(" | AlgBW: ").append(Numbers.fit(m.algBw(), 7)).append(" GB/s");
            sb.append(" | BusBW: ").append(Numbers.fit(m.busBw(), 7)).append(" GB/s");
            sb.append(" | #wrong: ").append(m.wrong() < 0 ? "N/A" : Long.toString(m.wrong()));
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
