package cctk.diagnose.verdict;

import java.util.ArrayList;
import java.util.List;

/**
 * The part of {@link Judge} that tells a rank starved of CPU from a slow NIC. A rank whose compute rate
 * ({@link CpuRate}) is slow against every rank's ({@link Spread}, as any figure) in the first per-node pass is a
 * {@link Suspect.Kind#RANK} suspect "CPU", confirmed when the second pass is slow again. A rank starved of CPU slows
 * every link it drives: when it leads its node, the node's own slow pairs (node, node+NIC and pair suspects touching
 * it) are left to its CPU, unconfirmed, so that a CPU quota is never reported as a bad NIC; its next step names the
 * process, not a cable.
 * <b>Note:</b> threadsafe (no state).
 */
final class Starved {

    /** Where a rank suspect slow at computing is. */
    static final String CPU = "CPU";
    /** The evidence's test name. */
    static final String TEST = "compute rate";

    private Starved() {
    }

    /** Every rank's compute rate of pass {@code pass}, as peers. */
    static Spread spread(final Figures f, final int pass, final double threshold) {
        final List<CpuRate[]> all = new ArrayList<>(f.cpus().values());
        final double[] rates = new double[all.size()];
        for (int i = 0; i < rates.length; i++) {
            rates[i] = all.get(i)[pass] == null ? Double.NaN : all.get(i)[pass].rate();
        }
        return Spread.of(rates, threshold);
    }

    /** The first look: a rank suspect for each rank slow at computing in the first pass. */
    static void suspects(final Figures f, final double threshold, final List<Suspect> out) {
        if (f.cpus().size() < 2) {
            return;
        }
        final Spread first = spread(f, 0, threshold);
        for (final CpuRate[] passes : f.cpus().values()) {
            final CpuRate c = passes[0];
            if (c != null && first.slow(c.rate())) {
                out.add(new Suspect(Suspect.Kind.RANK, c.node(), -1, c.rank(), CPU, List.of(new Evidence(TEST,
                        c.rate(), first.median(), first.limit(), 1, 1)), false));
            }
        }
    }

    /** {@code e} of a CPU suspect with the second pass. */
    static Evidence repeated(final Suspect s, final Evidence e, final Figures f, final double threshold) {
        final CpuRate[] passes = f.cpus().get(s.rank());
        final CpuRate second = passes == null ? null : passes[1];
        if (second == null) {
            return e.repeated(Double.NaN, Double.NaN, false);
        }
        final Spread again = spread(f, 1, threshold);
        return e.repeated(second.rate(), again.median(), again.slow(second.rate()));
    }

    /**
     * The verdict with the node, node+NIC and pair suspects of every node whose leader is a confirmed CPU suspect
     * left unconfirmed: its links are slow because the rank that drives them is.
     */
    static List<Suspect> leaveToCpu(final List<Suspect> verdict, final Figures f) {
        final List<Suspect> out = new ArrayList<>(verdict.size());
        for (final Suspect s : verdict) {
            out.add(s.confirmed() && starvedLeader(s, verdict, f) >= 0 ? s.withRepeat(s.evidence(), false) : s);
        }
        return out;
    }

    /**
     * The rank whose CPU explains {@code s} (a node, node+NIC or pair suspect touching a node whose leader is a
     * confirmed CPU suspect of {@code verdict}), or -1.
     */
    static int starvedLeader(final Suspect s, final List<Suspect> verdict, final Figures f) {
        if (s.kind() == Suspect.Kind.RANK) {
            return -1;
        }
        for (final Suspect c : verdict) {
            if (c.kind() == Suspect.Kind.RANK && CPU.equals(c.where()) && c.confirmed() && leads(c.rank(), f)
                    && (c.node() == s.node() || c.node() == s.peer())) {
                return c.rank();
            }
        }
        return -1;
    }

    private static boolean leads(final int rank, final Figures f) {
        final CpuRate[] passes = f.cpus().get(rank);
        return passes != null && (passes[0] != null && passes[0].leader() || passes[1] != null && passes[1].leader());
    }
}
