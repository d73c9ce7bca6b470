package cctk.bench;

import cctk.comm.PeerFault;
import cctk.comm.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;

/**
 * Names the party that ended a sweep early, from the diagnoses the ranks posted (rank 0 gathers them): a rank
 * that others waited on or lost and that said nothing itself stalled or died; a NIC that is down on a host is
 * named as such; ranks that all waited on each other name the NICs between them. It judges values
 * ({@link Diagnosis}: the {@link cctk.comm.PeerFault}s each rank's communicator raised, and the rank its rendezvous
 * store lost without a goodbye), never words.
 */
final class Blame {

    /** What a rank says when a signal, not a fault, stopped it. */
    static final String STOPPED = "stopped: ";

    /**
     * How long a rank stopped by a signal waits for the store's notice of a crash that caused it. Slurm ends the step
     * of a task killed with -9 within milliseconds, and on a loaded node rank 0's store can take longer than that to
     * read the dead rank's end of the socket: 300 ms was too short there (the two-node fault test, twice in about
     * ten runs on 2 vCPUs). A plain scancel waits this long before the files are finished, far inside Slurm's
     * KillWait (30 s by default).
     */
    static final long NOTICE_WAIT_NANOS = 1_500_000_000L;
    private static final long NOTICE_POLL_NANOS = 5_000_000L;

    private Blame() {
    }

    /**
     * The Incomplete line's cause.
     *
     * @param world     ranks in the world
     * @param said      rank to its diagnosis (rank 0's own included); ranks that said nothing are missing
     * @param point     what was being measured ("all_reduce float32 4194304 B"), or null
     * @param fallback  the cause when nobody named anybody (rank 0's own error or a signal's cause)
     */
    static String of(final int world, final Map<Integer, Diagnosis> said, final String point, final String fallback) {
        final String during = point == null ? "" : " during " + point;
        final Set<String> down = new LinkedHashSet<>();
        final Map<Integer, Set<Integer>> waiters = new LinkedHashMap<>();
        final Set<Integer> lost = new TreeSet<>();
        final Set<String> nics = new LinkedHashSet<>();
        final Set<Integer> waiting = new TreeSet<>();
        final Map<Integer, Set<String>> nicsOf = new LinkedHashMap<>();
        final Map<Integer, String> secondsOf = new TreeMap<>();
        final Set<Integer> left = crashed(said);
        boolean signalled = false; // diagnoses in rank order: the same line whatever order they came in
        for (final Map.Entry<Integer, Diagnosis> e : new TreeMap<>(said).entrySet()) {
            final Diagnosis d = e.getValue();
            signalled |= d.stopped();
            boolean sawDeath = false;
            for (final PeerFault f : d.faults()) {
                waiting.add(e.getKey());
                if (f.kind().waitedOn()) {
                    waiters.computeIfAbsent(f.peer(), k -> new TreeSet<>()).add(e.getKey());
                } else if (!sawDeath && (left.isEmpty() || left.contains(f.peer()))) {
                    sawDeath = true; // the first death a rank saw; the others followed from it
                    lost.add(f.peer());
                } else {
                    continue;
                }
                addNic(nics, down, f.nic(), f.downOn());
                addNic(nicsOf.computeIfAbsent(f.peer(), k -> new LinkedHashSet<>()), down, f.nic(), null);
            }
            if (Double.isFinite(d.waitedSeconds())) {
                secondsOf.put(e.getKey(), Double.toString(d.waitedSeconds()));
            }
        }
        lost.addAll(left);
        final String over = nics.isEmpty() ? "" : " over " + String.join(",", nics);
        if (!down.isEmpty()) {
            return "NIC " + String.join(", ", down) + " went down" + during + "; " + waitList(waiters) + over;
        }
        // the rank others waited on (or lost) that itself waited on nobody: silent, stopped by a signal, or
        // reporting something else; the others only waited on it, directly or through each other
        final List<Integer> culprits = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            if ((lost.contains(r) || waiters.containsKey(r)) && !waiting.contains(r)) {
                culprits.add(r);
            }
        }
        if (culprits.isEmpty() && !waiting.isEmpty()) {
            for (int r = 0; r < world; r++) {
                if (!said.containsKey(r)) {
                    culprits.add(r);
                }
            }
        }
        if (culprits.isEmpty() && mostWaitedOn(waiters) != null) {
            // everyone waited on someone (a frozen rank woken by SIGCONT waits on its peers in turn): stalled first
            culprits.add(mostWaitedOn(waiters));
        }
        if (!culprits.isEmpty()) {
            final List<String> parts = new ArrayList<>();
            for (final int r : culprits) {
                if (lost.contains(r)) {
                    parts.add("rank " + r + " died (its connections closed)");
                } else if (waiters.containsKey(r)) {
                    // how long its first waiter waited for it (a rank woken later may have waited longer on others)
                    final String seconds = secondsOf.get(waiters.get(r).iterator().next());
                    parts.add("rank " + r + " stalled (" + ranks(waitedOn(r, waiters)) + " waited "
                        + (seconds == null ? "" : seconds + " s ") + "for it)");
                } else {
                    parts.add("rank " + r + " stopped answering");
                }
            }
            final Set<String> theirs = new LinkedHashSet<>();
            culprits.forEach(r -> theirs.addAll(nicsOf.getOrDefault(r, Set.of())));
            return String.join("; ", parts) + during + (theirs.isEmpty() ? over : " over " + String.join(",", theirs));
        }
        if (!waiters.isEmpty()) {
            return "no progress" + during + over + ": " + waitList(waiters);
        }
        if (!lost.isEmpty()) {
            return "lost " + ranks(lost) + during + over;
        }
        final List<String> silent = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            if (!said.containsKey(r)) {
                silent.add(Integer.toString(r));
            }
        }
        final String base = (signalled && fallback == null ? "stopped by a signal" : fallback) + during;
        return silent.isEmpty() ? base : base + "; rank" + (silent.size() == 1 ? " " : "s ") + String.join(", ", silent)
            + " said nothing (died or stalled)";
    }

    /**
     * The ranks that waited on {@code r}, directly or through each other (rank 1 waits on rank 0, which waits on the
     * stalled rank 2, while rank 1 is a step ahead: in the point's reduction, rank 0 still in its collective).
     */
    private static Set<Integer> waitedOn(final int r, final Map<Integer, Set<Integer>> waiters) {
        final Set<Integer> all = new TreeSet<>();
        final java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>(List.of(r));
        while (!todo.isEmpty()) {
            for (final int w : waiters.getOrDefault(todo.pop(), Set.of())) {
                if (w != r && all.add(w)) {
                    todo.push(w);
                }
            }
        }
        return all;
    }

    /** The one rank that more ranks waited on than on any other, by at least two waiters; null if none. */
    private static Integer mostWaitedOn(final Map<Integer, Set<Integer>> waiters) {
        Integer best = null;
        int top = 0;
        int second = 0;
        for (final Map.Entry<Integer, Set<Integer>> e : waiters.entrySet()) {
            final int n = e.getValue().size();
            if (n > top) {
                second = top;
                top = n;
                best = e.getKey();
            } else if (n > second) {
                second = n;
            }
        }
        return top >= 2 && top > second ? best : null;
    }

    /**
     * The ranks the store's notice names: their connection to it broke without a goodbye, so they crashed or were
     * killed (ranks that end on a signal say goodbye first). A rank whose links closed on another only because it
     * ended after the crash (a node's leader, whose node mate died) is then not the one that died.
     */
    private static Set<Integer> crashed(final Map<Integer, Diagnosis> said) {
        final Set<Integer> left = new TreeSet<>();
        said.values().forEach(d -> {
            if (d.departed() >= 0) {
                left.add(d.departed());
            }
        });
        return left;
    }

    /**
     * A rank's error led by what its rendezvous store knew first: the rank that left the store without a goodbye
     * ({@code departed}, -1: none) died before this rank's own fault, unless this rank saw that very rank die itself
     * ({@code faults}). So a rank that lost a peer which only ended because another crashed (the other node's
     * leader; the ring neighbour of a killed rank 0) names the crashed one first, in its cause file too, after its
     * own name ({@code rank 2: rank 0 died first: ...}, so a line still starts with the rank that wrote it). The
     * store's {@code notice} is kept after the error.
     */
    static String withStoreNotice(final int me, final String error, final List<PeerFault> faults, final String notice,
                                  final int departed) {
        if (notice == null || error.contains(notice)) {
            return error;
        }
        if (departed < 0) {
            return error + " The rendezvous store reported before: " + notice;
        }
        if (faults.stream().anyMatch(f -> !f.kind().waitedOn() && f.peer() == departed)) {
            return error; // it saw that rank die itself
        }
        return "rank " + me + ": rank " + departed + " died first: it left the rendezvous store without a goodbye."
            + " After it, " + error + " The rendezvous store reported before: " + notice;
    }

    private static void addNic(final Set<String> nics, final Set<String> down, final String nic, final String host) {
        if (nic != null) {
            nics.add(nic);
            if (host != null) {
                down.add(nic + " on host " + host);
            }
        }
    }

    private static String waitList(final Map<Integer, Set<Integer>> waiters) {
        final List<String> parts = new ArrayList<>();
        waiters.forEach((peer, who) -> parts.add(ranks(who) + " waited for rank " + peer));
        return String.join(", ", parts);
    }

    private static String ranks(final Set<Integer> rs) {
        final List<String> s = new ArrayList<>();
        rs.forEach(r -> s.add(Integer.toString(r)));
        return (rs.size() == 1 ? "rank " : "ranks ") + String.join(", ", s);
    }

    /**
     * The store's notice of a failure, waiting up to {@code nanos} for one on its way: rank 0 pushes it to every rank
     * when a rank's connection drops, and Slurm's signal to end the step can overtake it (in a two-node test a rank
     * stopped by the signal named no one, while its neighbour, a few ms later, named the crashed rank). Null when
     * none came: the signal was not caused by a crash the store saw.
     */
    static String noticeWithin(final Store store, final long nanos) {
        final long until = System.nanoTime() + nanos;
        String notice = store.failure();
        while (notice == null && System.nanoTime() - until < 0) {
            LockSupport.parkNanos(NOTICE_POLL_NANOS);
            notice = store.failure();
        }
        return notice;
    }
}
