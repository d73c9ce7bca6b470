package cctk.diagnose.verdict;

import cctk.results.Numbers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JSON record of a diagnosis: what ran, the references of every test, the status and each suspect with its
 * evidence. {@code cctk report} reads it with the CSV files beside it.
 * <b>Note:</b> threadsafe (no state).
 */
final class DiagnosisJson {

    /** The value of {@code kind} that marks a diagnosis record. */
    static final String KIND = "cctk-diagnosis";

    private DiagnosisJson() {
    }

    static Map<String, Object> document(final DiagnosisFiles.Header h, final Figures f, final Findings found,
                                        final List<Suspect> verdict) {
        final Map<String, Object> doc = DiagnosisFiles.map();
        doc.put("kind", KIND);
        doc.put("job", h.jobName());
        doc.put("started", h.started().toString());
        doc.put("seconds", Numbers.significant(h.seconds()));
        doc.put("size_bytes", h.bytes());
        doc.put("threshold", h.threshold());
        doc.put("confirm", h.confirm());
        doc.put("nics", h.nics());
        doc.put("modes", f.modes());
        doc.put("ops", Figures.PAIR_OPS);
        doc.put("nodes", f.nodes());
        final List<Object> refs = new ArrayList<>();
        for (int t = 0; t < f.tests(); t++) {
            final Map<String, Object> r = DiagnosisFiles.map();
            r.put("test", f.testName(t));
            r.put("pair_median_gbps", Numbers.significant(found.pairReference()[t]));
            r.put("node_median_gbps", Numbers.significant(found.nodeReference()[t]));
            refs.add(r);
        }
        doc.put("references", refs);
        doc.put("intra_median_gbps", List.of(Numbers.significant(Judge.intra(f, 0, h.threshold()).median()),
                Numbers.significant(Judge.intra(f, 1, h.threshold()).median())));
        final Sensitivity sense = found.sensitivity();
        doc.put("status", sense.status(verdict));
        doc.put("sensitivity", Numbers.significant(sense.ratio()));
        doc.put("inconclusive", sense.why());
        final List<Object> suspects = new ArrayList<>();
        for (final Suspect s : verdict) {
            suspects.add(suspect(s, f));
        }
        doc.put("suspects", suspects);
        doc.put("not_repeated", found.notRepeated());
        return doc;
    }

    private static Map<String, Object> suspect(final Suspect s, final Figures f) {
        final Map<String, Object> m = DiagnosisFiles.map();
        m.put("kind", s.kind().label());
        m.put("subject", s.subject(f.nodes()));
        m.put("node", s.node() < 0 ? null : f.nodes().get(s.node()));
        m.put("peer", s.peer() < 0 ? null : f.nodes().get(s.peer()));
        m.put("rank", s.rank() < 0 ? null : s.rank());
        m.put("where", s.where());
        m.put("confirmed", s.confirmed());
        final List<Object> ev = new ArrayList<>();
        for (final Evidence e : s.evidence()) {
            final Map<String, Object> x = DiagnosisFiles.map();
            x.put("test", e.test());
            x.put("figure", Numbers.significant(e.figure()));
            x.put("peers_median", Numbers.significant(e.peers()));
            x.put("ratio", Numbers.significant(e.ratio()));
            x.put("agree", e.agree());
            x.put("of", e.of());
            x.put("repeat", Numbers.significant(e.repeat()));
            x.put("repeat_ratio", Numbers.significant(e.repeatRatio()));
            x.put("slow_again", e.held());
            ev.add(x);
        }
        m.put("evidence", ev);
        return m;
    }
}
