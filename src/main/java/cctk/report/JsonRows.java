package cctk.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON form of a run: header fields, {@code args}, {@code environment}, {@code ranks}, {@code rows}. */
final class JsonRows {

    private JsonRows() {
    }

    static Map<String, Object> document(final RunHeader h, final List<Object> rows, final Map<String, Object> end) {
        final Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("cctk_version", h.version());
        doc.put("start_time", h.start().toString());
        doc.put("spec", h.specFile());
        doc.put("job_id", h.jobId());
        doc.put("backend", h.backend());
        doc.put("world_size", h.world());
        doc.put("units", Map.of("time", "us", "bandwidth", "GB/s (1e9 B/s)", "size", "bytes"));
        doc.put("args", h.args());
        doc.put("environment", new LinkedHashMap<>(h.environment()));
        doc.put("ranks", h.rankLines());
        doc.put("rows", rows);
        if (end != null) {
            doc.putAll(end);
        }
        return doc;
    }

    static Map<String, Object> measurement(final Row r, final Measurement m) {
        final Map<String, Object> o = new LinkedHashMap<>();
        o.put("collective", r.collective());
        o.put("dtype", r.dtype());
        o.put("op", r.op());
        o.put("root", r.root() < 0 ? null : r.root());
        o.put("size_bytes", r.sizeBytes());
        o.put("count", r.count());
        o.put("in_place", m.inPlace());
        o.put("time_us", m.timeUs());
        o.put("min_us", m.minUs());
        o.put("p50_us", m.p50Us());
        o.put("p99_us", m.p99Us());
        o.put("cv_pct", m.cvPct());
        o.put("algbw_gbps", m.algBw());
        o.put("busbw_gbps", m.busBw());
        o.put("wrong", m.wrong() < 0 ? null : m.wrong());
        o.put("skipped", m.skipped());
        return o;
    }
}
