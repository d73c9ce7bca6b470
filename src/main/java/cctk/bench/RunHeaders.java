package cctk.bench;

import cctk.analysis.ReferenceJson;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.report.RunHeader;
import cctk.spec.Benchmark;
import cctk.spec.JobSpec;
import cctk.spec.MessageSize;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the result files' header from the spec and the run context. */
final class RunHeaders {

    private RunHeaders() {
    }

    static RunHeader of(final JobSpec spec, final RunContext ctx, final Communicator comm,
                        final List<String> rankLines, final JitWarmUp.Outcome jit) {
        final Map<String, Object> args = args(spec.benchmark());
        args.put("jit_warmup", jit.asArgs());
        // a report reads these back: where it ran, and what the cluster is expected to reach
        args.put("cluster", spec.cluster() == null ? null : spec.cluster().name());
        args.put("references", ReferenceJson.encode(spec.references() == null ? List.of() : spec.references()));
        return new RunHeader(ctx.version(), String.valueOf(ctx.specFile()), ctx.jobId(), comm.backend(),
            comm.size(), LocalDateTime.now().withNano(0), rankLines, ctx.environment(), args);
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
        return a;
    }

    private static String size(final MessageSize s) {
        return s.elements() ? s.value() + " elements" : s.value() + " B";
    }
}
