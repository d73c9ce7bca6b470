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
 * Before the sweep: untimed rounds of every collective of the plan, each at a small size ({@value #SMALL} bytes or the
 * plan's smallest) many times a round, and at the plan's smallest and its largest up to 1 MiB once, with the first
 * type and operator; after each round every rank sleeps until its JIT compilers are idle
 * ({@link CompilerThreads}), and the rounds end once every small call has run {@value #MIN_SMALL_CALLS} times (the
 * code all collectives share runs several times a call, and passes HotSpot's 5,000 invocations before a method is
 * compiled with C2; what runs once a call may be compiled later, in the sweep, where {@link MeasureStep} times a
 * disturbed point again) and two rounds in a row compiled nothing on any rank, or when the budget is spent.
 * Without it a rank times its first sizes while the JIT compiles, on the same cores: on 2 vCPUs at W=4, a 1 KiB
 * all_reduce timed first took 7.4 ms, and 1.1 ms timed again after the sweep; and with a few calls a round, ranks
 * that spin starve the compilers, so a round looked quiet while the compiles waited for a core and took it during
 * timing. The per-size warm-up iterations of the spec still run, and
 * {@link MeasureStep} again waits for idle compilers before it times each point.
 * The compiler's clock ({@link JitClock}) comes from java.management; on a runtime without that module (a jlinked
 * one) the rounds count as quiet only when the compiler threads were idle throughout, and as busy where those
 * cannot be seen either, so the warm-up runs its budget or {@value #MAX_ROUNDS} rounds instead of failing the run.
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
    /** Bytes of the small calls, the many cheap ones that take the shared code paths past the JIT's thresholds. */
    static final long SMALL = 4 << 10;
    /** Small calls per collective before the rounds may end. */
    static final int MIN_SMALL_CALLS = 2000;
    private static final int FIRST_SMALL_REPEATS = 200;
    private static final int MAX_SMALL_REPEATS = 2000;
    private static final int CHECK_SMALL_REPEATS = 100;
    private static final int QUIET_ROUNDS = 2;
    private static final int WATCH_CALLS = 100;
    private static final int MAX_ROUNDS = 40;
    private static final long MAX_IDLE_WAIT_NANOS = 2_000_000_000L;

    /** One warm-up call and whether it is a small one (run many times a round). */
    private record Call(Runnable run, boolean small) {
    }

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
        final List<Call> calls = budgetNanos <= 0 ? List.of() : calls(plan, group);
        if (calls.isEmpty()) {
            return new Outcome(0, false, 0);
        }
        final LongSupplier jit = JitClock.compiler();
        final CompilerThreads compilers = step.compilers();
        final boolean visible = jit != null || compilers.visible();
        int round = 0;
        int smallCalls = 0;
        int quiet = 0;
        int repeats = FIRST_SMALL_REPEATS;
        while (true) {
            round++;
            final long compiled = jit != null ? jit.getAsLong() : 0;
            for (final Call call : calls) {
                for (int i = 0, n = call.small() ? repeats : 1; i < n; i++) {
                    call.run().run();
                }
                comm.synchronize();
            }
            for (int i = 0; i < WATCH_CALLS; i++) {
                // the watch MeasureStep keeps on the compilers runs around every timed loop: compiled now, not then
                compilers.cpuNanos();
                compilers.busy();
            }
            smallCalls += repeats;
            // doubling up to the minimum; past it, short rounds that only show whether anything still compiles
            repeats = smallCalls >= MIN_SMALL_CALLS ? CHECK_SMALL_REPEATS
                    : Math.min(MIN_SMALL_CALLS - smallCalls, Math.min(MAX_SMALL_REPEATS, repeats * 2));
            // asleep here, a rank leaves the cores to its compilers: what the round queued is compiled now
            final long left = budgetNanos - (System.nanoTime() - start);
            final boolean waited = compilers.awaitIdle(Math.max(0, Math.min(MAX_IDLE_WAIT_NANOS, left))) > 0;
            final boolean compiling = !visible || waited || jit != null && jit.getAsLong() != compiled;
            quiet = step.anyRank(compiling) ? 0 : quiet + 1;
            final boolean done = quiet >= QUIET_ROUNDS && smallCalls >= MIN_SMALL_CALLS;
            final boolean spent = round >= MAX_ROUNDS || System.nanoTime() - start > budgetNanos;
            if (done || step.anyRank(spent)) {
                return new Outcome(round, quiet > 0, (System.nanoTime() - start) / 1e9);
            }
        }
    }

    /**
     * Per collective: a small call ({@value #SMALL} bytes, or the plan's smallest if smaller), and one call each at
     * the plan's smallest and its largest up to 1 MiB; on the sweep's buffers, and a size they do not hold is left out.
     */
    private List<Call> calls(final List<SweepPlan.Point> plan, final Group group) {
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
        final List<Call> calls = new ArrayList<>();
        for (final Map.Entry<Collective, SweepPlan.Point> e : first.entrySet()) {
            final List<Long> s = sizes.get(e.getKey());
            final long smallest = s.stream().mapToLong(Long::longValue).min().orElse(0);
            final long largest = s.stream().mapToLong(Long::longValue).filter(b -> b <= LARGEST).max()
                    .orElse(smallest);
            final long small = Math.min(SMALL, smallest);
            final Runnable many = call(e.getKey(), e.getValue(), small, group);
            if (many != null) {
                calls.add(new Call(many, true));
            }
            for (final long bytes : smallest == largest ? new long[] {smallest} : new long[] {smallest, largest}) {
                final Runnable once = bytes == small ? null : call(e.getKey(), e.getValue(), bytes, group);
                if (once != null) {
                    calls.add(new Call(once, false));
                }
            }
        }
        return calls;
    }

    private Runnable call(final Collective coll, final SweepPlan.Point p, final long bytes, final Group group) {
        final Layout l = coll.layout(bytes, p.type(), group);
        // what the sweep refuses (Communicator.unsupported) is not run here either: on nccl it may be invalid
        if (l.sizeBytes() == 0 || !buffers.fits(bytes) || inPlace && !coll.hasInPlace()
                || comm.unsupported(coll.type(), p.type(), p.op(), inPlace) != null) {
            return null;
        }
        final CommBuffer[] bufs = buffers.slices(l, inPlace);
        final Case c = new Case(p.type(), p.op(), comm.size(), comm.rank(), 0, 0, l);
        final CommBuffer send = bufs[0];
        final CommBuffer recv = bufs[1];
        return () -> coll.run(comm, send, recv, c);
    }
}
