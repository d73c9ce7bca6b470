package cctk.diagnose.probe;

import cctk.CctkException;
import cctk.comm.Communicator;
import cctk.diagnose.Keys;
import cctk.diagnose.Settings;
import cctk.diagnose.verdict.RecheckRounds;
import cctk.diagnose.verdict.Tournament;
import java.util.List;

/**
 * A node leader's part of the pairwise phase: the tournament's rounds, then the repeats rank 0 asks for. In each
 * round it opens one communicator per mode with its partner (a pair-and-mode key of its own), measures send/recv
 * both ways at once and a two-rank all-reduce, and closes it. The lower node of a pair keeps the figures, as lines
 * {@code pair <mode> <lo> <hi> <op> <busbw> <iters>}. Rounds need no global barrier: a node moves on when its
 * pair is done, and its next partner waits for it at the rendezvous.
 * <b>Note:</b> not threadsafe: one per leader.
 */
final class Pairs {

    private final GroupLinks links;
    private final Settings settings;
    private final int node;
    private final List<String> names;

    Pairs(final GroupLinks links, final Settings settings, final int node, final List<String> names) {
        this.links = links;
        this.settings = settings;
        this.node = node;
        this.names = names;
    }

    /** Every round of the tournament; the lines of the pairs this node is the lower one of. */
    String tournament() {
        final Tournament t = new Tournament(names.size());
        final StringBuilder lines = new StringBuilder();
        for (int r = 0; r < t.rounds(); r++) {
            final int partner = t.partner(node, r);
            if (partner != Tournament.BYE) {
                for (int m = 0; m < settings.modes().size(); m++) {
                    measure(false, partner, m, r == 0 && m == 0, "round " + (r + 1) + " of " + t.rounds(), lines);
                }
            }
        }
        return lines.toString();
    }

    /** The repeat rounds rank 0 planned; the lines of this node's repeats. */
    String repeats(final List<List<RecheckRounds.Item>> rounds) {
        final StringBuilder lines = new StringBuilder();
        for (int r = 0; r < rounds.size(); r++) {
            for (final RecheckRounds.Item item : rounds.get(r)) {
                if (item.a() == node || item.b() == node) {
                    for (final int m : item.modes()) {
                        measure(true, item.a() == node ? item.b() : item.a(), m, false, "repeat round " + (r + 1),
                                lines);
                    }
                }
            }
        }
        return lines.toString();
    }

    private void measure(final boolean repeat, final int partner, final int mode, final boolean first,
                         final String when, final StringBuilder lines) {
        final int lo = Math.min(node, partner);
        final int hi = Math.max(node, partner);
        final List<String> nics = settings.nicsOf(mode);
        try (Communicator comm = links.pair(Keys.pair(repeat, mode, lo, hi), node == lo ? 0 : 1, nics)) {
            final Probe probe = new Probe(comm, settings.diagnose().bytes(), settings.diagnose().warmup(),
                    settings.diagnose().iters(), settings.limitNanos(), settings.windowNanos());
            for (int op = 0; op < Probe.PAIR_OPS.length; op++) {
                if (first) {
                    // the first pair of every leader (round 1, first mode, both partners alike): until the JIT is quiet
                    probe.warmUp(Probe.PAIR_OPS[op], NodePhase.JIT_BUDGET_NANOS);
                }
                final Probe.Measured m = probe.measure(Probe.PAIR_OPS[op]);
                if (node == lo) {
                    lines.append(repeat ? "repeat " : "pair ").append(mode).append(' ').append(lo).append(' ')
                            .append(hi).append(' ').append(op).append(' ').append(m.busBw()).append(' ')
                            .append(m.iters()).append('\n');
                }
            }
        } catch (final CctkException e) {
            throw new CctkException(e.exitCode(), "diagnosis: " + names.get(node) + " with " + names.get(partner)
                    + " on " + settings.modes().get(mode) + (nics.isEmpty() ? "" : " (" + String.join(",", nics) + ")")
                    + ", " + when + ": " + e.getMessage(), e);
        }
    }
}
