package cctk.cli;

import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The values shell completion offers (and help lists) for cctk's options: backends, collectives, types, operators,
 * buffer layouts, demos.
 * <b>Note:</b> threadsafe (no state).
 */
final class Candidates {

    private Candidates() {
    }

    /** The built-in backends. */
    static final class Backends implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("tcp", "tcp-flat", "gloo", "nccl").iterator();
        }
    }

    /** Every collective's spec name. */
    static final class Collectives implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(CollectiveType.values()).map(CollectiveType::specName).iterator();
        }
    }

    /** Every element type's name. */
    static final class DTypes implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(DType.values()).map(DType::specName).iterator();
        }
    }

    /** Every reduce operator's name. */
    static final class Ops implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(ReduceOp.values()).map(ReduceOp::specName).iterator();
        }
    }

    /** The buffer layouts a run measures. */
    static final class InPlace implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("both", "true", "false").iterator();
        }
    }

    /** How a loop's time is made of the ranks' times. */
    static final class TimeAcrossRanks implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(cctk.spec.Benchmark.TimeAcrossRanks.values())
                .map(cctk.spec.Benchmark.TimeAcrossRanks::specName).iterator();
        }
    }

    /** The demos. */
    static final class Demos implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("hello", "broadcast", "allreduce", "alltoall").iterator();
        }
    }
}
