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
        // one name, one figure: "peers' median" is what a node is held against (the median over nodes of each
        // node's median pair), "pairs' median" what a pair is held against (the median pair touching no slow node)
        final StringBuilder refs = new StringBuilder("# peers' median busbw (GB/s), what a node is held against:");
        for (int t = 0; t < f.tests(); t++) {
            refs.append(t == 0 ? " " : " | ").append(f.testName(t)).append(' ').append(gbps(found.nodeReference()[t]));
        }
        final double intra = Judge.intra(f, 0, h.threshold()).median();
        if (Double.isFinite(intra)) {
            refs.append(" | intra-node all_reduce ").append(gbps(intra)).append(f.oneKernel() ? " (not judged: the"
                    + " nodes share one kernel)" : "");
        }
        out.add(refs.toString());
        if (verdict.stream().anyMatch(s -> s.kind() == Suspect.Kind.PAIR)) {
            final StringBuilder pairs = new StringBuilder("# pairs' median busbw (GB/s), what a pair is held against:");
            for (int t = 0; t < f.tests(); t++) {
                pairs.append(t == 0 ? " " : " | ").append(f.testName(t)).append(' ')
                        .append(gbps(found.pairReference()[t]));
            }
            out.add(pairs.toString());
        }
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
            final int starved = Starved.starvedLeader(s, verdict, f);
            if (s.confirmed()) {
                out.add("    next: " + next(s, f.nodes()));
            } else if (starved >= 0) {
                out.add("    left to rank " + starved + "'s CPU: it drives these links, and a rank starved of CPU slows"
                        + " every link it drives; judge them again once its CPU is fixed");
            } else if (s.evidence().stream().anyMatch(e -> e.held() && !Double.isNaN(e.repeat()))) {
                out.add("    not confirmed because on no mode was every operation slow again");
            }
        }
        if (found.notRepeated() > 0) {
            out.add("# " + found.notRepeated() + " suspect(s) were not measured again: more than a diagnosis repeats");
        }
        final Sensitivity sense = found.sensitivity();
        out.add(confirmed > 0 ? "verdict: " + confirmed + " suspect(s): " + String.join("; ", names)
                : !sense.conclusive() ? "verdict: no suspect, but inconclusive: " + sense.why()
                : "verdict: no suspect: healthy within this run's sensitivity (a node at "
                + Numbers.fit(sense.ratio(), 6, 2).trim() + "x its peers' median or below on a NIC would be named)");
        return out;
    }

    /** What a person on call does next about a confirmed suspect. */
    static String next(final Suspect s, final List<String> nodes) {
        final String node = nodes.get(s.node());
        return switch (s.kind()) {
            case NODE -> Judge.INTRA.equals(s.where())
                    ? "drain " + node + " and check its CPUs and memory (slow among its own ranks, no NIC involved:"
                    + " throttling, a busy core, another job)"
                    : "drain " + node + " and check its host side (PCIe, NUMA placement, CPU frequency, the driver):"
                    + " it is slow on every NIC";
            case NODE_NIC -> "check the cable, the switch port and the link speed of " + s.where() + " on " + node
                    + " (e.g. ethtool " + s.where() + ", ibstat), then rerun cctk diagnose";
            case PAIR -> "check the route between " + node + " and " + nodes.get(s.peer()) + " on " + s.where()
                    + " (the switch ports and the path between them): each node is healthy with its other peers";
            case RANK -> Starved.CPU.equals(s.where())
                    ? "look at rank " + s.rank() + "'s process on " + node + " (the CPU quota of its cgroup or Slurm"
                    + " step, its CPU binding, what else runs on its cores, the cores' frequency): it computes far"
                    + " slower than its peers, so no NIC of " + node + " is to blame"
                    : "look at rank " + s.rank() + "'s process on " + node + " (its CPU binding and what else runs"
                    + " on its cores): it arrives late at its node's collectives";
        };
    }

    /** One piece of evidence: {@code eth1 sendrecv 0.03 GB/s, peers' median 1.21 GB/s (0.02x), 3 of 3 pairs slow}. */
    static String evidence(final Suspect s, final Evidence e) {
        if (s.kind() == Suspect.Kind.RANK && Starved.CPU.equals(s.where())) {
            return e.test() + " " + rate(e.figure()) + " rounds/s, peers' median " + rate(e.peers()) + " ("
                    + ratio(e.ratio()) + ")" + (Double.isNaN(e.repeat()) ? "" : "; second pass " + rate(e.repeat())
                    + " (" + ratio(e.repeatRatio()) + (e.held() ? ", slow again)" : ", not slow)"));
        }
        if (s.kind() == Suspect.Kind.RANK) {
            return e.test() + ": " + us(e.figure()) + " late in the median iteration of " + us(e.peers())
                    + " (" + ratio(e.ratio()) + "), last in " + e.agree() + " of " + e.of() + " iterations"
                    + (Double.isNaN(e.repeat()) ? "" : "; second pass " + us(e.repeat()) + " late");
        }
        final String what = s.kind() == Suspect.Kind.PAIR ? " operations slow"
                : Judge.INTRA.equals(s.where()) ? " pass" : " pairs slow";
        return e.test() + " " + gbps(e.figure()) + " GB/s, " + (s.kind() == Suspect.Kind.PAIR ? "pairs'" : "peers'")
                + " median " + gbps(e.peers()) + " GB/s ("
                + ratio(e.ratio()) + "), " + e.agree() + " of " + e.of() + what
                + (Double.isNaN(e.repeat()) ? "" : "; again " + gbps(e.repeat()) + " GB/s (" + ratio(e.repeatRatio())
                + (e.held() ? ", slow again)" : ", not slow)"));
    }

    private static String rate(final double v) {
        return String.format(java.util.Locale.ROOT, "%.0f", v);
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
