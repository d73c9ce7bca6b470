package cctk.bench;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.coll.Group;
import cctk.comm.Communicator;
import cctk.comm.Store;
import cctk.lifecycle.EarlyEnd;
import cctk.results.ConsoleTable;
import cctk.results.Line;
import cctk.results.RankInfo;
import cctk.results.ResultFiles;
import cctk.results.Run;
import cctk.spec.Benchmark;
import cctk.spec.JobSpec;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The sweep: first its buffers, once, at the largest layout of the plan ({@link SweepBuffers}), then the JIT
 * warm-up ({@link JitWarmUp}); then for every type × size × collective × operator, out-of-place and in-place, on
 * slices of those buffers, it warms up, times each iteration (call + synchronize), then runs separate check
 * iterations that verify every element. Each point's figures are combined over the ranks by one O(log W) reduction
 * over the job's own communicator ({@link PointStats}); rank 0 writes them via {@link ResultFiles} as they come and
 * prints progress, and the store sees no per-point traffic. All ranks return the same exit code: FAILED if any
 * element was wrong; rank 0 also returns every measurement, for the run to be judged in memory. Collectives that
 * carry no data (barrier) run once, after the sweep.
 * <b>Note:</b> not threadsafe: one thread per rank drives it.
 */
public final class Harness {

    /**
     * How long a rank waits to post its diagnosis, and rank 0 for the others', after a fault; a signal allows a
     * second. Slurm's SIGKILL follows its SIGTERM after KillWait (often 30 s, 5 s on the test cluster).
     */
    static final long DIAGNOSIS_MILLIS = 2000;
    private static final long SIGNAL_MILLIS = 1000;
    private static final String FAULT_KEY = "fault";
    /** The share of a step's time the JIT warm-up may take, and the waits for idle compilers together. */
    static final double FIXED_COST_SHARE = 0.05;

    private final Communicator comm;
    private final Store store;
    private final JobSpec spec;
    private final RunContext ctx;
    private final PrintWriter progress;
    private final RankExchange exchange;
    private final BufferData data = new BufferData();
    private final MeasureStep step;
    private Function<CompilerThreads, CrossCore.Reading> probe = CrossCore::quick;
    private MachineWatch watch;
    /** The sizes' repeats and their tallies; null until the buffers are there. */
    private BlockRepeats blocks;
    private final Object ending = new Object();
    private SweepBuffers buffers;
    private RankReduction reduction;
    private ResultFiles files;
    private Run run;
    private volatile SweepPlan.Point current;
    private boolean ended;
    private ExitCode endCode = ExitCode.OK;
    /** The final JSON rank 0 writes, known on every rank (for the cause file); null until known, or none. */
    private java.nio.file.Path resultJson;
    /** Rank 0's own result files failed (a full disk): the cause is its own, no other rank's. */
    private boolean ownFault;
    /** Why the larger rows were skipped when the buffers did not fit on some rank; null when all fit. */
    private String roomless;

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
        return sweep().code();
    }

    /** Runs the whole sweep: its exit code and, on rank 0, its measurements. */
    public SweepResult sweep() {
        final Benchmark b = spec.benchmark();
        final Group group = new Group(comm.size(), comm.rank(), TrafficMatrix.weights(spec, comm.size()));
        final SweepPlan plan = SweepPlan.of(b, group);
        final long began = System.nanoTime();
        final double share = fixedCostSeconds();
        step.waitBudget((long) (share * 1e9));
        try {
            buffers = SweepBuffers.allocate(comm, plan, step, exchange);
            final double[] figures = new double[PointStats.SLOTS + b.maxLoopIters()];
            reduction = new RankReduction(comm, figures.length);
            // the machine before anything is timed, with every rank's compilers idle and the other ranks waiting on
            // the store (off the CPUs)
            step.compilers().awaitIdle(CrossCore.QUIET_NANOS);
            final CrossCore.Reading machine = comm.rank() == 0 ? CrossCore.measure(step.compilers()) : null;
            // rank 0 names its host: the ranks there wait on the store (off its CPUs) while it reads the machine
            final String host0 = exchange.fromZero("machine", comm.rank() == 0 ? ctx.rank().host() : null);
            watch = new MachineWatch(comm, exchange, step, MachineWatch.watches(comm.backend()),
                host0.equals(ctx.rank().host()), probe);
            blocks = new BlockRepeats(comm, b, step, buffers, reduction, figures, watch,
                (long) Math.min(Long.MAX_VALUE / 2, share * 1e9), p -> current = p);
            final JitWarmUp.Outcome jit = new JitWarmUp(comm, step, buffers, !b.inPlace().runsOutOfPlace(),
                Math.min(b.jitWarmupSeconds(), share)).run(plan.points(), group);
            final List<String> ranks = exchange.gatherText("rank", rankInfo().encode());
            run = RunHeaders.of(spec, ctx, comm, ranks == null ? List.of() : ranks.stream().map(RankInfo::decode)
                .toList(), jit, machine);
            roomless = buffers.reason();
            if (comm.rank() == 0) {
                progress.println("cctk: JIT warm-up: " + jit.describe());
                try {
                    files = ResultFiles.create(ctx.outputDir(), run);
                } finally {
                    exchange.fromZero("files", files == null ? "" : files.run().source());
                }
                run = files.run();
                if (ctx.console() != null) {
                    ConsoleTable.header(run).forEach(ctx.console()::println);
                    ctx.console().flush();
                }
            } else {
                final String json = exchange.fromZero("files", null);
                resultJson = json.isEmpty() ? null : java.nio.file.Path.of(json);
            }
            final long sweeping = System.nanoTime();
            measureAll(plan.points(), group);
            final long swept = System.nanoTime();
            // the machine after the sweep, before the code of its end runs (and compiles), with every rank's compilers
            // idle and the other ranks waiting on the store
            step.compilers().awaitIdle(CrossCore.QUIET_NANOS);
            final CrossCore.Reading machineAfter = comm.rank() == 0 ? CrossCore.measure(step.compilers()) : null;
            exchange.fromZero("machine-after", comm.rank() == 0 ? "" : null);
            if (files != null) {
                files.machine(machineAfter.asJson());
                files.costs(SweepCosts.of(began, sweeping, swept, jit.seconds(), new SweepCosts.Inside(
                    blocks.loopNanos(), blocks.loops(), step.warmUpNanos(), step.compilerWaitNanos(),
                    blocks.myDataNanos()),
                    plan.points().size()));
                final Map<String, Object> jitRun = step.jitDuringSweep();
                if (watch.sizesAgain() > 0) {
                    jitRun.put("sizes_measured_again_machine", watch.sizesAgain());
                    jitRun.put("summary", jitRun.get("summary") + "; " + watch.sizesAgain() + " size(s) measured"
                        + " again, as the machine's cross-core reading moved more than 2x while they were measured");
                }
                files.jitDuringSweep(jitRun);
                final PrintWriter after = ctx.console() != null ? ctx.console() : progress; // the rows' stream
                ConsoleTable.end(after == progress ? List.of() : files.results(), jitRun.get("summary")).forEach(
                    after::println);
                after.flush();
            }
        } finally {
            release();
        }
        if (files != null) {
            files.fillCheck(blocks.dataBytes() / comm.size(), blocks.dataNanos() / comm.size() / 1e9);
        }
        finish(null, ExitCode.OK);
        exchange.dropAll();
        if (roomless != null) {
            if (comm.rank() == 0) {
                progress.println("cctk: " + comm.backend() + " at " + comm.size() + " ranks: rows were skipped because"
                    + " their buffers did not fit (" + roomless + "); the rows measured are kept. Free memory (or"
                    + " /dev/shm, for shared memory), or lower benchmark.sizes; exit code 3.");
                progress.flush();
            }
            return new SweepResult(ExitCode.ENVIRONMENT, files == null ? List.of() : files.results());
        }
        return new SweepResult(blocks != null && blocks.anyWrong() ? ExitCode.FAILED : ExitCode.OK,
            files == null ? List.of() : files.results());
    }

    private void measureAll(final List<SweepPlan.Point> plan, final Group group) {
        EarlyEnd.stopper(this::stopBySignal);
        try {
            watch.start();
            int from = 0;
            while (from < plan.size()) {
                int to = from + 1;
                while (to < plan.size() && sameSize(plan.get(from), plan.get(to))) {
                    to++;
                }
                measureBlock(plan.subList(from, to), group, from, plan.size());
                from = to;
            }
            current = null;
        } catch (RuntimeException | Error e) {
            final SweepPlan.Point at = current;
            // the store's notice (taken now, when the fault is seen) names a rank that crashed before: the peer this
            // rank lost may only have ended after it
            final int departed = store.departed();
            final Diagnosis mine = Diagnosis.of(e, departed, e.getMessage() == null ? e.toString() : e.getMessage());
            final String error = Blame.withStoreNotice(comm.rank(), mine.text(), mine.faults(), store.failure(),
                departed);
            endByFault(Diagnosis.of(e, departed, error), at, e instanceof CctkException ce ? ce.exitCode()
                : ExitCode.INTERNAL);
            if (e instanceof CctkException ce && at != null) {
                throw new CctkException(ce.exitCode(), error + " (cctk was measuring " + at.describe() + ")", ce);
            }
            throw e;
        } finally {
            EarlyEnd.stopper(null);
        }
    }

    private static boolean sameSize(final SweepPlan.Point a, final SweepPlan.Point b) {
        return a.type() == b.type() && java.util.Objects.equals(a.size(), b.size());
    }

    /**
     * The points of one type and size, measured together ({@link BlockRepeats}: interleaved repeats, disturbed ones
     * replaced, measured again where the machine moved); their rows are written once the block is measured.
     */
    private void measureBlock(final List<SweepPlan.Point> block, final Group group, final int done, final int total) {
        final List<PointRows.Row> rows = new ArrayList<>();
        for (final SweepPlan.Point p : block) {
            current = p;
            ctx.hook().beforePoint(comm.rank(), p.size() == null ? -1 : spec.benchmark().sizes().indexOf(p.size()));
            rows.addAll(PointRows.of(p, group, Math.max(1, spec.benchmark().repeats()), spec.benchmark(), comm,
                buffers, run));
        }
        blocks.measure(rows);
        int n = done;
        for (final SweepPlan.Point p : block) {
            final Line line = PointRows.line(p, rows, run);
            n++;
            if (files != null) {
                try {
                    files.add(line);
                } catch (CctkException e) {
                    ownFault = true;
                    throw e;
                }
                if (ctx.console() != null) {
                    ctx.console().println(ConsoleTable.row(line));
                    ctx.console().flush();
                } else {
                    progress.println("cctk: " + p.describe() + " (" + n + "/" + total + ")");
                    progress.flush();
                }
            }
        }
    }

    /**
     * The most a fixed cost may take, in seconds: the JIT warm-up, and all the waits for idle compilers before points
     * together, each at most {@value #FIXED_COST_SHARE} of this step's share of the job's time limit (the limit over
     * its world sizes and backends), so a short job still measures its rows; unbounded without a limit.
     */
    private double fixedCostSeconds() {
        final long limit = spec.job() == null ? 0 : spec.job().timeLimitSeconds();
        if (limit <= 0) {
            return Double.POSITIVE_INFINITY; // a cast to nanoseconds saturates at Long.MAX_VALUE
        }
        final int steps = Math.max(1, spec.benchmark().taskCounts().size() * spec.benchmark().backends().size());
        return FIXED_COST_SHARE * limit / steps;
    }

    /** Takes the machine's readings after each size with {@code reading} instead of {@link CrossCore#quick} (tests). */
    Harness machineProbe(final Function<CompilerThreads, CrossCore.Reading> reading) {
        this.probe = reading;
        return this;
    }

    /** Gives the sweep's memory back (buffers, the reduction's and the votes'), whatever happened. */
    private void release() {
        if (reduction != null) {
            reduction.close();
            reduction = null;
        }
        if (buffers != null) {
            buffers.close();
            buffers = null;
        }
        step.close();
    }

    /**
     * This rank for the header, after the warm-up has connected what the sweep uses: its transports as the communicator
     * names them, and the NICs that really carry its links in place of the spec's list where they differ.
     */
    private RankInfo rankInfo() {
        final RankInfo me = ctx.rank().withTransports(comm.transports());
        final String carriers = comm.carriers();
        if (carriers == null || carriers.equals(me.nics())) {
            return me;
        }
        return me.withNics(carriers + " (spec: " + me.nics() + ")");
    }

    /**
     * A fault ended the sweep here: other ranks post their diagnosis for rank 0 (deadline-bounded); rank 0
     * gathers theirs and writes the final files with the party Blame names.
     */
    private void endByFault(final Diagnosis mine, final SweepPlan.Point at, final ExitCode code) {
        final String error = mine.text();
        if (comm.rank() != 0) {
            writeCause(error);
            exchange.postBounded(FAULT_KEY, mine.encode(), DIAGNOSIS_MILLIS);
            return;
        }
        synchronized (ending) {
            if (!ended) {
                // rank 0's own disk failed: the others only see rank 0 stop, and have nothing to add
                finish(ownFault ? error + (at == null ? "" : " (during " + at.describe() + ")")
                    : blame(mine, at, error, DIAGNOSIS_MILLIS), code);
            }
        }
    }

    /** EarlyEnd's stopper: a signal ended the sweep; returns the process's exit code. */
    private int stopBySignal(final String cause) {
        // Slurm ends a step whose task crashed (--kill-on-bad-exit): then the store's notice names the crashed rank,
        // which ranks that never talk to it directly did not see; it may still be on its way when the signal comes
        final String notice = Blame.noticeWithin(store, Blame.NOTICE_WAIT_NANOS);
        final Diagnosis mine = Diagnosis.stopped(store.departed(), Blame.withStoreNotice(comm.rank(),
            Blame.STOPPED + cause, List.of(), notice, store.departed()));
        if (notice != null) {
            progress.println("cctk: rank " + comm.rank() + ": stopped by a signal; " + notice);
            progress.flush();
        }
        if (comm.rank() != 0) {
            writeCause(mine.text());
            exchange.postBounded(FAULT_KEY, mine.encode(), SIGNAL_MILLIS);
            return ExitCode.FAILED.code();
        }
        synchronized (ending) {
            if (!ended) {
                final String line = blame(mine, current, cause, SIGNAL_MILLIS);
                final List<java.nio.file.Path> paths = finish(line, ExitCode.FAILED);
                if (!paths.isEmpty()) {
                    progress.println("cctk: rank 0 wrote " + paths.get(0) + " and its .csv and .json; Incomplete: "
                        + line);
                    progress.flush();
                }
            }
            return endCode.code();
        }
    }

    /**
     * A rank other than 0 ending early writes why beside rank 0's result files, first: should rank 0 die too (or be
     * what died), its part files are not left without a cause. Rank 0 removes the file when it finishes them.
     */
    private void writeCause(final String why) {
        final String who = "rank " + comm.rank() + ": ";
        final java.nio.file.Path json = resultJson;
        final java.nio.file.Path file = json == null ? null : cctk.CauseFile.write(json, (why.startsWith(who)
            ? "" : who) + why);
        if (file != null) {
            progress.println("cctk: rank " + comm.rank() + " wrote the cause to " + file);
            progress.flush();
        }
    }

    private String blame(final Diagnosis mine, final SweepPlan.Point at, final String fallback, final long millis) {
        final Map<Integer, Diagnosis> said = new HashMap<>();
        exchange.gatherBounded(FAULT_KEY, millis).forEach((r, posted) -> said.put(r, Diagnosis.decode(posted)));
        said.put(0, mine);
        return Blame.of(comm.size(), said, at == null ? null : at.describe(), fallback);
    }

    /** Writes the final files once (rank 0); the first caller's cause and exit code win. */
    private List<java.nio.file.Path> finish(final String cause, final ExitCode code) {
        synchronized (ending) {
            if (ended) {
                return List.of();
            }
            ended = true;
            endCode = code;
            return files == null ? List.of() : files.finish(cause);
        }
    }
}
