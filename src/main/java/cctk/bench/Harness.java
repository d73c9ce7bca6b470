package cctk.bench;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.coll.Case;
import cctk.coll.Collective;
import cctk.coll.Collectives;
import cctk.coll.Group;
import cctk.coll.Layout;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Store;
import cctk.report.Measurement;
import cctk.report.ResultFiles;
import cctk.report.Row;
import cctk.spec.Benchmark;
import cctk.spec.JobSpec;
import cctk.spec.MessageSize;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The sweep: first the JIT warm-up ({@link JitWarmUp}); then for every type × size × collective × operator,
 * out-of-place and in-place, it allocates, warms up, times each iteration (call + synchronize), then runs
 * separate check iterations that verify every element. Rank 0 gathers per-rank results through the store,
 * writes them via {@link ResultFiles} as they come, and prints progress. All ranks return the same exit code:
 * FAILED if any element was wrong.
 * Collectives that carry no data (barrier) run once, after the sweep.
 * <b>Note:</b> not threadsafe: one thread per rank drives it.
 */
public final class Harness {

    /**
     * TEST-ONLY fault switch, named in {@code cctk.rank.RankConfiguration}: {@code CCTK_FAULT_KILL=R:N} makes rank R
     * halt (exit code 137, no clean-up, like a SIGKILL) once it has measured N sizes, so that tests on a real
     * cluster can watch the other ranks and Slurm deal with a rank dying mid-sweep. Read from the run context's
     * environment, only here. Never set it for a real measurement.
     */
    public static final String FAULT_KILL = "CCTK_FAULT_KILL";

    private final Communicator comm;
    private final Store store;
    private final JobSpec spec;
    private final RunContext ctx;
    private final PrintWriter progress;
    private final RankExchange exchange;
    private final BufferData data = new BufferData();
    private final MeasureStep step;
    private int variantIndex;

    /** A harness that prints progress on rank 0's standard error. */
    public Harness(final Communicator comm, final Store store, final JobSpec spec, final RunContext ctx) {
        this(comm, store, spec, ctx, new PrintWriter(System.err, true));
    }

    /** A harness that prints progress (rank 0 only) to {@code progress}. */
    public Harness(final Communicator comm, final Store store, final JobSpec spec, final RunContext ctx,
                   final PrintWriter progress) {
        this.comm = comm;
        this.store = store;
        this.spec = spec;
        this.ctx = ctx;
        this.progress = progress;
        this.exchange = new RankExchange(store, "bench/" + ctx.jobId() + "/" + comm.backend() + "/w" + comm.size()
            + "/", comm.rank(), comm.size());
        this.step = new MeasureStep(comm, spec.benchmark(), data);
    }

    /** Runs the whole sweep; returns OK, or FAILED when any check found a wrong element. */
    public ExitCode run() {
        final List<Point> plan = plan();
        final Group group = new Group(comm.size(), comm.rank(), weights());
        final JitWarmUp.Outcome jit = new JitWarmUp(comm, step, spec.benchmark().jitWarmupSeconds()).run(plan, group);
        final List<String> rankLines = exchange.gatherText("rank", ctx.rankLine());
        ResultFiles files = null;
        if (comm.rank() == 0) {
            progress.println("cctk: JIT warm-up: " + jit.describe());
            files = ResultFiles.create(ctx.outputDir(), RunHeaders.of(spec, ctx, comm, rankLines, jit));
        }
        String error = null;
        try {
            int done = 0;
            for (final Point p : plan) {
                haltIfFaultSwitchSaysSo(p);
                final Row row = measureRow(p, group);
                done++;
                if (files != null) {
                    files.add(row);
                    progress.println("cctk: " + p.describe() + " (" + done + "/" + plan.size() + ")");
                    progress.flush();
                }
            }
        } catch (RuntimeException | Error e) {
            error = e.getMessage() == null ? e.toString() : e.getMessage();
            throw e;
        } finally {
            if (files != null) {
                files.finish(error);
            }
        }
        final boolean failed = files != null && files.wrong() > 0;
        final String status = exchange.fromRankZero("status", failed ? "FAILED" : "OK");
        return "FAILED".equals(status) ? ExitCode.FAILED : ExitCode.OK;
    }

    private void haltIfFaultSwitchSaysSo(final Point p) {
        final String v = ctx.environment().get(FAULT_KILL);
        if (v == null || p.size() == null || !v.matches("[0-9]+:[0-9]+")) {
            return;
        }
        final String[] rankAndSizes = v.split(":");
        final int sizesDone = spec.benchmark().sizes().indexOf(p.size());
        if (Integer.parseInt(rankAndSizes[0]) == comm.rank() && sizesDone >= Integer.parseInt(rankAndSizes[1])) {
            System.err.println("cctk: rank " + comm.rank() + " halts at " + java.time.Instant.now()
                + " after measuring " + sizesDone + " size(s): " + FAULT_KILL + "=" + v + " (test-only fault)");
            System.err.flush();
            Runtime.getRuntime().halt(137);
        }
    }

    /** One point of the sweep: a collective with its type, operator and size (null when it carries no data). */
    record Point(Collective coll, DType type, ReduceOp op, MessageSize size) {
        String describe() {
            final StringBuilder sb = new StringBuilder(coll.type().specName());
            if (type != null) {
                sb.append(' ').append(type.specName());
            }
            if (op != null) {
                sb.append(' ').append(op.specName());
            }
            if (size != null) {
                sb.append(' ').append(size.bytes(type)).append(" B");
            }
            return sb.toString();
        }
    }

    private List<Point> plan() {
        final Benchmark b = spec.benchmark();
        final List<Point> plan = new ArrayList<>();
        for (final DType type : b.dtypes()) {
            for (final MessageSize size : b.sizes()) {
                for (final var ct : b.collectives()) {
                    final Collective coll = Collectives.of(ct);
                    if (!coll.carriesData()) {
                        continue;
                    }
                    if (ct.reduces()) {
                        for (final ReduceOp op : b.ops()) {
                            plan.add(new Point(coll, type, op, size));
                        }
                    } else {
                        plan.add(new Point(coll, type, null, size));
                    }
                }
            }
        }
        for (final var ct : b.collectives()) {
            final Collective coll = Collectives.of(ct);
            if (!coll.carriesData()) {
                plan.add(new Point(coll, null, null, null));
            }
        }
        return plan;
    }

    private double[][] weights() {
        final Benchmark.Imbalance im = spec.benchmark().alltoallv();
        if (im != null && im.matrixFile() != null) {
            java.nio.file.Path file = java.nio.file.Path.of(im.matrixFile());
            if (!file.isAbsolute() && spec.source() != null && spec.source().getParent() != null) {
                file = spec.source().getParent().resolve(file);
            }
            return TrafficMatrix.load(file, comm.size());
        }
        return cctk.coll.AllToAllV.spreadWeights(comm.size(), im == null ? 1.0 : Math.max(1.0, im.spread()));
    }

    private Row measureRow(final Point p, final Group group) {
        final Benchmark b = spec.benchmark();
        final Collective coll = p.coll();
        final long requested = p.size() == null ? 0 : p.size().bytes(p.type());
        final Layout layout = coll.carriesData() ? coll.layout(requested, p.type(), group)
            : Layout.of(0, 0, 0, 0, 0, 0);
        final int root = coll.rooted() ? b.root() : -1;
        final Case c = new Case(p.type(), p.op(), comm.size(), comm.rank(), Math.max(root, 0), 0, layout);
        final List<Measurement> ms = new ArrayList<>();
        if (!coll.carriesData() || b.inPlace().runsOutOfPlace()) {
            ms.add(measure(coll, c, false));
        }
        if (coll.carriesData() && b.inPlace().runsInPlace()) {
            ms.add(coll.hasInPlace() ? measure(coll, c, true)
                : Measurement.skipped(true, coll.type().specName() + " has no in-place form"));
        }
        return new Row(coll.type().specName(), coll.type().title(), p.type() == null ? null : p.type().specName(),
            p.op() == null ? null : p.op().specName(), root, requested, layout.sizeBytes(), layout.count(), ms);
    }

    private Measurement measure(final Collective coll, final Case c, final boolean inPlace) {
        final int index = variantIndex++;
        final Layout l = c.layout();
        final String unsupported = comm.unsupported(coll.type().specName(), c.type(), c.op(), inPlace);
        if (unsupported != null) {
            return Measurement.skipped(inPlace, unsupported);
        }
        if (coll.carriesData() && l.sizeBytes() == 0) {
            return Measurement.skipped(inPlace, "the size rounds down to 0 bytes per rank for " + c.world()
                + " ranks");
        }
        CommBuffer[] bufs = null;
        String reason = null;
        if (coll.carriesData()) {
            try {
                bufs = step.allocate(l, inPlace);
            } catch (OutOfMemoryError e) {
                reason = "out of memory allocating " + (inPlace ? l.inPlaceBytes() : l.sendBytes() + l.recvBytes())
                    + " bytes";
            } catch (CctkException e) {
                reason = e.getMessage();
            }
            final int failedRank = step.firstFailingRank(reason != null);
            if (failedRank >= 0) {
                final String why = exchange.fromRank(failedRank, "skip/" + index, reason);
                return Measurement.skipped(inPlace, "rank " + failedRank + ": " + why);
            }
        }
        final MeasureStep.Result mine = step.run(coll, c, bufs);
        final List<MeasureStep.Result> all = exchange.gatherResults("stats/" + index, mine);
        if (all == null) {
            return Measurement.skipped(inPlace, "reported by rank 0");
        }
        final IterationStats s = IterationStats.of(all.stream().map(MeasureStep.Result::timesUs).toList());
        long wrong = 0;
        for (final MeasureStep.Result r : all) {
            wrong += Math.max(0, r.wrong());
        }
        if (all.stream().anyMatch(r -> r.wrong() < 0)) {
            wrong = -1;
        }
        final double algBw = l.sizeBytes() / s.timeUs() / 1e3;
        final double busBw = algBw * coll.busBwFactor(c.world());
        return new Measurement(inPlace, s.timeUs(), s.minUs(), s.p50Us(), s.p99Us(), s.cvPct(), algBw, busBw,
            wrong, null);
    }

}
