package cctk.diagnose.verdict;

import cctk.results.Numbers;
import java.util.ArrayList;
import java.util.List;

/**
 * The verdict for people, as rank 0 prints it and the {@code .txt} file keeps it: what ran, the peers' medians,
 * one line per suspect with its worst evidence (and the others indented below), then the verdict line.
 * <b>Note:</b> threadsafe (no state).
 */
public final class VerdictText {

    private VerdictText() {
    }

    /** The lines, without line ends. */
    public static List<String> lines(final DiagnosisFiles.Header h, final Figures f, final Findings found,
                                     final List<Suspect> verdict) {
        final List<String> out = new ArrayList<>();
        out.add("# cctk diagnose " + h.jobName() + ": " + f.nodes().size() + " node(s); modes "
                + String.join(", ", f.modes()) + "; message " + Numbers.size(h.bytes()) + "; suspect below "
                + h.threshold() + " x the peers' median" + (h.confirm() ? ", confirmed by a repeat" : "") + "; took "
                + Numbers.fit(h.seconds(), 8, 1).trim() + " s");
        final StringBuilder refs = new StringBuilder("# peers' median busbw (GB/s):");
        for (int t = 0; t < f.tests(); t++) {
            refs.append(t == 0 ? " " : " | ").append(f.testName(t)).append(' ').append(gbps(found.pairReference()[t]));
        }
        final double intra = Judge.intra(f, 0, h.threshold()).median();
        if (Double.isFinite(intra)) {
            refs.append(" | intra-node all_reduce ").append(gbps(intra));
        }
        out.add(refs.toString());
        int confirmed = 0;
        final List<String> names = new ArrayList<>();
        for (final Suspect s : verdict) {
            if (s.confirmed()) {
                confirmed++;
                names.add(s.kind().label() + " " + s.subject(f.nodes()));
            }
            out.add((s.confirmed() ? "SUSPECT " : "not confirmed: ") + s.kind().label() + " " + s.subject(f.nodes())
                    + ": " + evidence(s, s.evidence().get(0)));
            for (final Evidence e : s.evidence().subList(1, s.evidence().size())) {
                out.add("    also " + evidence(s, e));
            }
        }
        if (found.notRepeated() > 0) {
            out.add("# " + found.notRepeated() + " suspect(s) were not measured again: more than a diagnosis repeats");
        }
        out.add(confirmed == 0 ? "verdict: no suspect" : "verdict: " + confirmed + " suspect(s): "
                + String.join("; ", names));
        return out;
    }

    /** One piece of evidence: {@code eth1 sendrecv 0.03 GB/s, peers' median 1.21 GB/s (0.02x), 3 of 3 pairs slow}. */
    static String evidence(final Suspect s, final Evidence e) {
        if (s.kind() == Suspect.Kind.RANK) {
            return e.test() + ": " + us(e.figure()) + " late in the median iteration of " + us(e.peers())
                    + " (" + ratio(e.ratio()) + "), last in " + e.agree() + " of " + e.of() + " iterations"
                    + (Double.isNaN(e.repeat()) ? "" : "; second pass " + us(e.repeat()) + " late");
        }
        final String what = s.kind() == Suspect.Kind.PAIR ? " operations slow"
                : Judge.INTRA.equals(s.where()) ? " pass" : " pairs slow";
        return e.test() + " " + gbps(e.figure()) + " GB/s, peers' median " + gbps(e.peers()) + " GB/s ("
                + ratio(e.ratio()) + "), " + e.agree() + " of " + e.of() + what
                + (Double.isNaN(e.repeat()) ? "" : "; again " + gbps(e.repeat()) + " GB/s (" + ratio(e.repeatRatio())
                + (e.held() ? ", slow again)" : ", not slow)"));
    }

    static String gbps(final double v) {
        return Numbers.fit(v, 10, Math.abs(v) < 0.1 ? 4 : 2).trim();
    }

    static String ratio(final double v) {
        return Numbers.fit(v, 8, 2).trim() + "x";
    }

    private static String us(final double v) {
        return Numbers.fit(v, 10, 1).trim() + " us";
    }
}
