package cctk.bench;

import cctk.results.Numbers;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where rank 0's time went, for the footer and the JSON's {@code summary.time}: from its process's start to the sweep's
 * set-up (the JVM, the rendezvous, the communicator), the set-up (buffers, the JIT warm-up, the header), the sweep, and
 * inside the sweep the timed loops (every one run, re-timed ones included) against the rest (fill, warm-up iterations,
 * waits for idle compilers, checks, votes, writing rows), per point.
 * <b>Note:</b> threadsafe (no state).
 */
final class SweepCosts {

    private SweepCosts() {
    }

    /**
     * Rank 0's time inside the sweep (ns): in its timed loops (and how many ran), in the points' warm-up calls, asleep
     * for its compilers before points, and filling, poisoning and checking buffers.
     */
    record Inside(long loopNanos, long loops, long warmUpNanos, long waitNanos, long dataNanos) {
    }

    /**
     * The figures, from System.nanoTime stamps: set-up began, the sweep began and ended; the warm-up's seconds, what
     * the sweep's time went to, and the points of the plan. The sweep's time outside its timed loops is split per point
     * into warm-up calls, waits for compilers, fill and check, and the rest (votes, reductions over the ranks, rows).
     */
    static Map<String, Object> of(final long began, final long sweeping, final long ended, final double warmUpSeconds,
                                  final Inside in, final int points) {
        final double start = ProcessAge.now().toNanos() / 1e9 - (System.nanoTime() - began) / 1e9;
        final double setup = (sweeping - began) / 1e9;
        final double sweep = (ended - sweeping) / 1e9;
        final double timed = in.loopNanos() / 1e9;
        final int n = Math.max(1, points);
        final double perPoint = points == 0 ? 0 : (sweep - timed) / points;
        final double warm = in.warmUpNanos() / 1e6 / n;
        final double wait = in.waitNanos() / 1e6 / n;
        final double data = in.dataNanos() / 1e6 / n;
        final double rest = perPoint * 1e3 - warm - wait - data;
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("start_s", Numbers.significant(Math.max(0, start)));
        m.put("setup_s", Numbers.significant(setup));
        m.put("jit_warmup_s", Numbers.significant(warmUpSeconds));
        m.put("sweep_s", Numbers.significant(sweep));
        m.put("timed_loops_s", Numbers.significant(timed));
        m.put("timed_loops", in.loops());
        m.put("overhead_per_point_ms", Numbers.significant(perPoint * 1e3));
        final Map<String, Object> split = new LinkedHashMap<>();
        split.put("warm_up_calls", Numbers.significant(warm));
        split.put("compiler_waits", Numbers.significant(wait));
        split.put("fill_check", Numbers.significant(data));
        split.put("rest", Numbers.significant(rest));
        m.put("overhead_per_point_split_ms", split);
        m.put("summary", String.format(Locale.ROOT, "rank 0 started in %.2f s, set up in %.2f s (JIT warm-up %.2f s);"
            + " sweep %.2f s, of which %d timed loops %.2f s (%.0f%%), other work %.1f ms per point (warm-up calls"
            + " %.1f, waits for compilers %.1f, fill and check %.1f, the rest %.1f)", Math.max(0, start), setup,
            warmUpSeconds, sweep, in.loops(), timed, sweep > 0 ? 100 * timed / sweep : 0, perPoint * 1e3, warm, wait,
            data, rest));
        return m;
    }
}
