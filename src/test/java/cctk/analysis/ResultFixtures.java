package cctk.analysis;

import cctk.ExitCode;
import cctk.bench.Harness;
import cctk.bench.RunContext;
import cctk.bench.fixture.ThreadCommunicator;
import cctk.coll.CollectiveType;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import cctk.spec.Benchmark;
import cctk.spec.Cluster;
import cctk.spec.JobSpec;
import cctk.spec.MessageSize;
import cctk.spec.Reference;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Real result files: the harness on the thread communicator at a world size, written into a directory. */
final class ResultFixtures {

    static final List<CollectiveType> COLLS = List.of(CollectiveType.ALL_REDUCE, CollectiveType.ALL_GATHER,
        CollectiveType.BROADCAST, CollectiveType.BARRIER);

    private ResultFixtures() {
    }

    /** Sizes 4 KiB .. 256 KiB by factors of 4 (5 sizes). */
    static List<MessageSize> sizes() {
        final List<MessageSize> out = new ArrayList<>();
        for (long b = 4096; b <= 256 * 1024; b *= 4) {
            out.add(new MessageSize(b, false));
        }
        return out;
    }

    /** Runs W threads through the harness; the files land in {@code dir}. */
    static void run(final Path dir, final int world, final List<Reference> refs) {
        final Benchmark b = new Benchmark(List.of("threads"), List.of(world), COLLS, sizes(),
            List.of(DType.FLOAT32), List.of(ReduceOp.SUM), 1, 3, 1, Benchmark.InPlace.BOTH, 0,
            new Benchmark.Imbalance(2.0, null), 30, 0);
        final JobSpec spec = new JobSpec(null, null, new Cluster("fixture", null, null, null, null, null, List.of(),
            List.of(), null, "java", "cctk.jar"), null, Map.of(), Map.of(), b, refs);
        final MemoryStore store = new MemoryStore(world, java.time.Duration.ofSeconds(20));
        final List<ExitCode> codes = ThreadCommunicator.run(world, ThreadCommunicator.shared(world), comm -> {
            final RunContext ctx = new RunContext("test", Path.of("configs/t.yaml"), "job" + world,
                "rank " + comm.rank() + " host node" + (comm.rank() / 2) + " pid 1", dir, Map.of());
            return new Harness(comm, store, spec, ctx, new PrintWriter(new StringWriter())).run();
        });
        if (!codes.stream().allMatch(c -> c == ExitCode.OK)) {
            throw new IllegalStateException("fixture run failed: " + codes);
        }
    }
}
