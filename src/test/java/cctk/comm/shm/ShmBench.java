package cctk.comm.shm;

import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.FileStore;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A component bench of the shm backend (not a test): W rank processes on this host, float32, per size a warm-up and
 * then timed iterations each "barrier; t0; op; t1"; time = max over ranks of each rank's mean; nccl-tests' busbw
 * factors. Usage: {@code ShmBench -w W [--sizes 1M,16M] [--collectives all_reduce,...] [--iters 20] [--warmup 5]}.
 * It starts the rank processes itself (internal flags --rank R --store DIR).
 */
public final class ShmBench {

    private ShmBench() {
    }

    public static void main(final String[] args) throws Exception {
        final List<String> a = Arrays.asList(args);
        final int world = Integer.parseInt(arg(a, "-w", "2"));
        if (a.contains("--rank")) {
            rank(a, world, Integer.parseInt(arg(a, "--rank", "0")), Path.of(arg(a, "--store", ".")));
            return;
        }
        final Path store = Files.createTempDirectory("shmbench");
        final List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-XX:+UseParallelGC", "-cp", System.getProperty("java.class.path"),
                    ShmBench.class.getName()));
            cmd.addAll(a);
            cmd.addAll(List.of("--rank", Integer.toString(r), "--store", store.toString()));
            ranks.add(new ProcessBuilder(cmd).inheritIO().start());
        }
        int rc = 0;
        for (final Process p : ranks) {
            rc |= p.waitFor();
        }
        ShmWorld.delete(store);
        System.exit(rc);
    }

    private static void rank(final List<String> a, final int world, final int rank, final Path store) {
        final int iters = Integer.parseInt(arg(a, "--iters", "20"));
        final int warmup = Integer.parseInt(arg(a, "--warmup", "5"));
        final FileStore fs = new FileStore(store, rank, Duration.ofSeconds(60));
        final ShmOptions options = ShmOptions.local(Duration.ofSeconds(60), "bench", ShmWorld.SECRET);
        try (ShmCommunicator comm = ShmCommunicator.connect(options, rank, world, fs)) {
            if (rank == 0) {
                System.out.println(comm.transports());
            }
            for (final String coll : arg(a, "--collectives", "all_reduce,all_gather,reduce_scatter,broadcast,alltoall")
                    .split(",")) {
                for (final String size : arg(a, "--sizes", "1M,16M").split(",")) {
                    final long bytes = parse(size) / (4L * world) * (4L * world);
                    final CommBuffer s = comm.allocate(bytes);
                    final CommBuffer r = comm.allocate(bytes);
                    for (int i = 0; i < warmup; i++) {
                        run(comm, coll, s, r, bytes);
                    }
                    double total = 0;
                    for (int i = 0; i < iters; i++) {
                        comm.barrier();
                        final long t0 = System.nanoTime();
                        run(comm, coll, s, r, bytes);
                        total += System.nanoTime() - t0;
                    }
                    report(comm, fs, coll + "/" + size, coll, bytes, total / iters);
                }
            }
        }
    }

    private static void run(final ShmCommunicator c, final String coll, final CommBuffer s, final CommBuffer r,
                            final long bytes) {
        final long n = bytes / 4;
        final int w = c.size();
        switch (coll) {
            case "all_reduce" -> c.allReduce(s, r, n, DType.FLOAT32, ReduceOp.SUM);
            case "all_gather" -> c.allGather(s, r, n / w, DType.FLOAT32);
            case "reduce_scatter" -> c.reduceScatter(s, r, n / w, DType.FLOAT32, ReduceOp.SUM);
            case "broadcast" -> c.broadcast(s, r, n, DType.FLOAT32, 0);
            case "reduce" -> c.reduce(s, r, n, DType.FLOAT32, ReduceOp.SUM, 0);
            case "alltoall" -> c.allToAll(s, r, n / w, DType.FLOAT32);
            default -> throw new IllegalArgumentException(coll);
        }
    }

    /** Rank 0 prints max over ranks of the mean time, algbw and busbw (nccl-tests' factors). */
    private static void report(final ShmCommunicator comm, final FileStore fs, final String key, final String coll,
                               final long bytes, final double nanos) {
        fs.set(key + "/" + comm.rank(), ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(0, nanos)
                .array());
        if (comm.rank() != 0) {
            return;
        }
        double worst = 0;
        for (int p = 0; p < comm.size(); p++) {
            worst = Math.max(worst, ByteBuffer.wrap(fs.get(key + "/" + p)).order(ByteOrder.LITTLE_ENDIAN).getDouble());
        }
        final int w = comm.size();
        final double factor = switch (coll) {
            case "all_reduce" -> 2.0 * (w - 1) / w;
            case "all_gather", "reduce_scatter", "alltoall" -> (double) (w - 1) / w;
            default -> 1.0;
        };
        final double algbw = bytes / worst;
        System.out.println(coll + " W=" + w + " " + bytes + " B: " + Math.round(worst / 1000) + " us, algbw "
                + Math.round(algbw * 100) / 100.0 + " GB/s, busbw " + Math.round(algbw * factor * 100) / 100.0
                + " GB/s");
    }

    private static long parse(final String size) {
        final char u = size.charAt(size.length() - 1);
        final long n = Long.parseLong(size.replaceAll("[KMG]$", ""));
        return switch (u) {
            case 'K' -> n << 10;
            case 'M' -> n << 20;
            case 'G' -> n << 30;
            default -> n;
        };
    }

    private static String arg(final List<String> a, final String name, final String fallback) {
        final int i = a.indexOf(name);
        return i >= 0 && i + 1 < a.size() ? a.get(i + 1) : fallback;
    }
}
