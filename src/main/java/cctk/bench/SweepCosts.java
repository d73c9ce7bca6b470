package cctk.bench;

import cctk.results.Numbers;
import java.time.Duration;
import java.time.Instant;
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
     * The figures, from System.nanoTime stamps: set-up began, the sweep began and ended; the warm-up's seconds, the
     * timed loops' total nanoseconds and count, and the points of the plan.
     */
    static Map<String, Object> of(final long began, final long sweeping, final long ended, final double warmUpSeconds,
                                  final long loopNanos, final long loops, final int points) {
        final double start = processAge().toNanos() / 1e9 - (System.nanoTime() - began) / 1e9;
        final double setup = (sweeping - began) / 1e9;
        final double sweep = (ended - sweeping) / 1e9;
        final double timed = loopNanos / 1e9;
        final double perPoint = points == 0 ? 0 : (sweep - timed) / points;
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("start_s", Numbers.significant(Math.max(0, start)));
        m.put("setup_s", Numbers.significant(setup));
        m.put("jit_warmup_s", Numbers.significant(warmUpSeconds));
        m.put("sweep_s", Numbers.significant(sweep));
        m.put("timed_loops_s", Numbers.significant(timed));
        m.put("timed_loops", loops);
        m.put("overhead_per_point_ms", Numbers.significant(perPoint * 1e3));
        m.put("summary", String.format(Locale.ROOT, "rank 0 started in %.2f s, set up in %.2f s (JIT warm-up %.2f s);"
            + " sweep %.2f s, of which %d timed loops %.2f s (%.0f%%), other work %.1f ms per point", Math.max(0,
            start), setup, warmUpSeconds, sweep, loops, timed, sweep > 0 ? 100 * timed / sweep : 0, perPoint * 1e3));
        return m;
    }

    /** How long this process has run (0 where its start cannot be read). */
    private static Duration processAge() {
        return ProcessHandle.current().info().startInstant().map(s -> Duration.between(s, Instant.now()))
            .orElse(Duration.ZERO);
    }
}
