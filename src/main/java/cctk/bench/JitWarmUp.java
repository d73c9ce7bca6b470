package cctk.bench;

import cctk.coll.Case;
import cctk.coll.Collective;
import cctk.coll.Group;
import cctk.coll.Layout;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Before the sweep: untimed rounds of every collective of the plan, each at the plan's smallest size and at its
 * largest up to 1 MiB, with the first type and operator, until a round passes with no JIT compilation on any rank
 * or the budget is spent. Without it a rank times its first sizes while the JIT compiles, on the same cores:
 * on 2 vCPUs at W=4, a 1 KiB all_reduce timed first took 7.4 ms, and 1.1 ms timed again after the sweep.
 * The per-size warm-up iterations of the spec still run; this only takes the compiler out of the timings.
 * The compiler's clock comes from java.management; on a runtime without that module (a jlinked one) every round
 * counts as busy, so the warm-up runs its budget or {@value #MAX_ROUNDS} rounds instead of failing the run.
 * <b>Note:</b> not threadsafe.
 */
final class JitWarmUp {

    /** How the warm-up ended: rounds run, whether the last one compiled nothing, and its wall time. */
    record Outcome(int rounds, boolean quiet, double seconds) {
        String describe() {
            return rounds == 0 ? "none" : String.format(java.util.Locale.ROOT, "%d round(s) in %.1f s, %s", rounds,
                    seconds, quiet ? "compiler quiet" : "compiler still busy, so the first sizes may read slow");
        }

        Map<String, Object> asArgs() {
            final Map<String, Object> m = new LinkedHashMap<>();
            m.put("rounds", rounds);
            m.put("quiet", quiet);
            m.put("seconds", Math.round(seconds * 10) / 10.0);
            m.put("summary", describe());
            return m;
        }
    }

    private static final long LARGEST = 1 << 20;
    private static final int CALLS = 10;
    private static final int MAX_ROUNDS = 30;

    private final Communicator comm;
    private final MeasureStep step;
    private final SweepBuffers buffers;
    private final boolean inPlace;
    private final long budgetNanos;

    /** {@code inPlace}: warm up the in-place layouts (a plan that runs only those holds no output buffer). */
    JitWarmUp(final Communicator comm, final MeasureStep step, final SweepBuffers buffers, final boolean inPlace,
              final double budgetSeconds) {
        this.comm = comm;
        this.step = step;
        this.buffers = buffers;
        this.inPlace = inPlace;
        this.budgetNanos = (long) (budgetSeconds * 1e9);
    }

    /** Runs the rounds; every rank returns after the same round (the decision to go on is collective). */
    Outcome run(final List<SweepPlan.Point> plan, final Group group) {
        final long start = System.nanoTime();
        final List<Runnable> calls = budgetNanos <= 0 ? List.of() : calls(plan, group);
        if (calls.isEmpty()) {
            return new Outcome(0, false, 0);
        }
        final LongSupplier jit = compilerClock();
        final boolean measurable = jit != null;
        int round = 0;
        while (true) {
            round++;
            final long compiled = measurable ? jit.getAsLong() : 0;
            for (final Runnable call : calls) {
                for (int i = 0; i < CALLS; i++) {
                    call.run();
                }
                comm.synchronize();
            }
            final boolean compiling = !measurable || jit.getAsLong() != compiled;
            final boolean anyCompiling = step.anyRank(compiling);
            final boolean spent = round >= MAX_ROUNDS || System.nanoTime() - start > budgetNanos;
            if (!anyCompiling || step.anyRank(spent)) {
                return new Outcome(round, !anyCompiling, (System.nanoTime() - start) / 1e9);
            }
        }
    }

    /**
     * The JIT's total compilation time in ms, or null where it cannot be read: the runtime lacks java.management
     * (touching it there is a NoClassDefFoundError) or the JVM does not monitor compilation time.
     */
    static LongSupplier compilerClock() {
        if (ModuleLayer.boot().findModule("java.management").isEmpty()) {
            return null;
        }
        try {
            return Jmx.clock();
        } catch (LinkageError e) {
            return null;
        }
    }

    /** Kept apart so that JitWarmUp itself never links against java.management. */
    private static final class Jmx {
        static LongSupplier clock() {
            final java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory
                    .getCompilationMXBean();
            return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit::getTotalCompilationTime : null;
        }
    }

    /** One call per collective and size, on the sweep's buffers; a size they do not hold is left out. */
    private List<Runnable> calls(final List<SweepPlan.Point> plan, final Group group) {
        final Map<Collective, SweepPlan.Point> first = new LinkedHashMap<>();
        final Map<Collective, List<Long>> sizes = new LinkedHashMap<>();
        for (final SweepPlan.Point p : plan) {
            if (p.size() == null) {
                continue;
            }
            first.putIfAbsent(p.coll(), p);
            if (p.type() == first.get(p.coll()).type()) {
                sizes.computeIfAbsent(p.coll(), k -> new ArrayList<>()).add(p.size().bytes(p.type()));
            }
        }
        final List<Runnable> calls = new ArrayList<>();
        for (final Map.Entry<Collective, SweepPlan.Point> e : first.entrySet()) {
            final List<Long> s = sizes.get(e.getKey());
            final long smallest = s.stream().mapToLong(Long::longValue).min().orElse(0);
            final long largest = s.stream().mapToLong(Long::longValue).filter(b -> b <= LARGEST).max()
                    .orElse(smallest);
            for (final long bytes : smallest == largest ? new long[] {smallest} : new long[] {smallest, largest}) {
                final Runnable call = call(e.getKey(), e.getValue(), bytes, group);
                if (call != null) {
                    calls.add(call);
                }
            }
        }
        return calls;
    }

    private Runnable call(final Collective coll, final SweepPlan.Point p, final long bytes, final Group group) {
        final Layout l = coll.layout(bytes, p.type(), group);
        if (l.sizeBytes() == 0 || !buffers.fits(bytes) || inPlace && !coll.hasInPlace()) {
            return null;
        }
        final CommBuffer[] bufs = buffers.slices(l, inPlace);
        final Case c = new Case(p.type(), p.op(), comm.size(), comm.rank(), 0, 0, l);
        final CommBuffer send = bufs[0];
        final CommBuffer recv = bufs[1];
        return () -> coll.run(comm, send, recv, c);
    }
}
