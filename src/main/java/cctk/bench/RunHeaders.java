package cctk.bench;

import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.results.CrossCoreReadings;
import cctk.results.RankInfo;
import cctk.results.Run;
import cctk.spec.Benchmark;
import cctk.spec.JobSpec;
import cctk.spec.MessageSize;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the run's header (what the result files say before the first row) from the spec and the run context. */
final class RunHeaders {

    /** ISO-8601 local time, always with seconds (LocalDateTime's own text drops {@code :00}). */
    private static final java.time.format.DateTimeFormatter START =
        java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    private RunHeaders() {
    }

    /** The run's header; {@code machine}: rank 0's cross-core reading before the warm-up, null on other ranks. */
    static Run of(final JobSpec spec, final RunContext ctx, final Communicator comm, final List<RankInfo> ranks,
                  final JitWarmUp.Outcome jit, final CrossCore.Reading machine) {
        final Map<String, Object> args = args(spec.benchmark());
        args.put("jit_warmup", jit.asArgs());
        if (machine != null) {
            args.put(CrossCoreReadings.ARG, machine.asJson());
        }
        args.put("jvm", jvm());
        return new Run(null, ctx.version(), String.valueOf(ctx.specFile()), ctx.jobId(),
            spec.cluster() == null ? null : spec.cluster().name(), comm.backend(), comm.size(),
            LocalDateTime.now().format(START), ranks, Run.hostsOf(ranks), ctx.environment(), args,
            spec.references() == null ? List.of() : spec.references(), null, null);
    }

    /**
     * How rank 0's JVM was sized and started, as the launcher gave it (RankJvm's options): its runtime, its heap limit,
     * and every option on its command line, those that change timings included (the safepoint interval, the compiler
     * threads); none known without java.management.
     */
    static Map<String, Object> jvm() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("runtime", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        m.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        if (ModuleLayer.boot().findModule("java.management").isPresent()) {
            m.put("options", Jmx.options());
        }
        return m;
    }

    /** Kept apart so that RunHeaders itself never links against java.management. */
    private static final class Jmx {
        static List<String> options() {
            return List.copyOf(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
        }
    }

    static Map<String, Object> args(final Benchmark b) {
        final Map<String, Object> a = new LinkedHashMap<>();
        a.put("collectives", b.collectives().stream().map(c -> c.specName()).toList());
        a.put("sizes", b.sizes().stream().map(RunHeaders::size).toList());
        a.put("dtypes", b.dtypes().stream().map(DType::specName).toList());
        a.put("ops", b.ops().stream().map(ReduceOp::specName).toList());
        a.put("warmup_iters", b.warmupIters());
        a.put("iters", b.iters());
        a.put("check_iters", b.checkIters());
        a.put("in_place", b.inPlace().name().toLowerCase(java.util.Locale.ROOT));
        a.put("root", b.root());
        if (b.alltoallv() != null) {
            final Map<String, Object> v = new LinkedHashMap<>();
            v.put("spread", b.alltoallv().spread());
            v.put("matrix_file", b.alltoallv().matrixFile());
            a.put("alltoallv", v);
        }
        a.put("timeout_seconds", b.timeoutSeconds());
        a.put("repeats", b.repeats());
        a.put("retime", b.retime());
        a.put("window_ms", b.windowMillis());
        a.put(Run.TIME_ACROSS_RANKS, b.timeAcrossRanks().specName());
        return a;
    }

    private static String size(final MessageSize s) {
        return s.elements() ? s.value() + " elements" : s.value() + " B";
    }
}
