package cctk.comm.tcp;

import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.FileStore;
import cctk.comm.ReduceOp;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Benchmarks the tcp backend the way bench/torch_gloo.py --each measures Gloo, so the two compare directly:
 * W processes on this host, float32, per size one warm-up set then timed iterations each "barrier; t0; op; t1";
 * time = max over ranks of each rank's mean; nccl-tests sizes and busbw factors. Usage:
 * {@code TcpBench -w W [--sizes 1M,16M] [--collectives all_reduce,...] [--iters 20] [--warmup 5] [--csv FILE]};
 * it starts the W rank processes itself (internal flags --rank R --store DIR).
 */
public final class TcpBench {

    private TcpBench() {
    }

    public static void main(final String[] args) throws Exception {
        final List<String> a = Arrays.asList(args);
        final int world = Integer.parseInt(arg(a, "-w", "2"));
        if (a.contains("--rank")) {
            rank(a, world, Integer.parseInt(arg(a, "--rank", "0")), Path.of(arg(a, "--store", ".")));
            return;
        }
        final Path store = Files.createTempDirectory("tcpbench");
        final Path out = store.resolve("result.csv");
        final List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-XX:+UseParallelGC", "-cp", System.getProperty("java.class.path"),
                    TcpBench.class.getName()));
            cmd.addAll(a);
            cmd.addAll(List.of("--rank", Integer.toString(r), "--store", store.toString(), "--out", out.toString()));
            ranks.add(new ProcessBuilder(cmd).inheritIO().start());
        }
        int rc = 0;
        for (final Process p : ranks) {
            rc |= p.waitFor();
        }
        final String csv = Files.readString(out);
        final String target = arg(a, "--csv", "");
        if (!target.isEmpty()) {
            Files.writeString(Path.of(target), csv);
        }
        try (java.util.stream.Stream<Path> files = Files.walk(store)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        System.exit(rc);
    }

    private static void rank(final List<String> a, final int world, final int rank, final Path dir) throws Exception {
        final long[] sizes = Arrays.stream(arg(a, "--sizes", "1M,16M,64M,256M").split(","))
                .mapToLong(TcpBench::parseSize).toArray();
        final String[] colls = arg(a, "--collectives", "all_reduce,all_gather,reduce_scatter,broadcast,all_to_all")
                .split(",");
        final int iters = Integer.parseInt(arg(a, "--iters", "20"));
        final int warmup = Integer.parseInt(arg(a, "--warmup", "5"));
        final TcpOptions options = new TcpOptions(java.util.List.of(), false, Duration.ofSeconds(120),
                Integer.getInteger("cctk.tcp.socketBuffer", TcpOptions.DEFAULT_SOCKET_BUFFER), "bench", LocalWorld.SECRET);
        final StringBuilder csv = new StringBuilder("system,world,collective,size_bytes,time_ms,busbw_GBps,"
                + "median_ms\n");
        try (TcpCommunicator comm = TcpCommunicator.connect(options, rank, world, new FileStore(dir, rank,
                Duration.ofSeconds(60)))) {
            final CommBuffer stat = comm.allocate(16);
            warmUp(comm, colls);
            for (final String coll : colls) {
                for (final long size : sizes) {
                    final CommBuffer send = comm.allocate(size);
                    final CommBuffer recv = comm.allocate(size);
                    final Runnable op = op(comm, coll, send, recv, size);
                    for (int i = 0; i < warmup; i++) {
                        comm.barrier();
                        op.run();
                    }
                    final double[] ms = new double[iters];
                    for (int i = 0; i < iters; i++) {
                        comm.barrier();
                        final long t0 = System.nanoTime();
                        op.run();
                        ms[i] = (System.nanoTime() - t0) / 1e6;
                    }
                    final double mean = Arrays.stream(ms).average().orElse(0);
                    Arrays.sort(ms);
                    final ByteBuffer h = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN)
                            .putDouble(mean).putDouble(ms[iters / 2]).flip();
                    stat.upload(h, 0);
                    comm.allReduce(stat, stat, 2, DType.FLOAT64, ReduceOp.MAX);
                    h.clear();
                    stat.download(0, h);
                    final double time = h.getDouble(0);
                    final double busbw = size / (time / 1e3) / 1e9 * factor(coll, world);
                    csv.append(String.format("cctk-tcp,%d,%s,%d,%.6g,%.6g,%.6g%n", world, coll, size, time, busbw,
                            h.getDouble(8)));
                    if (rank == 0) {
                        System.out.printf("W=%d %-14s %10d B  %9.3f ms  busbw %7.3f GB/s%n", world, coll, size, time,
                                busbw);
                    }
                }
            }
        }
        if (rank == 0) {
            Files.writeString(Path.of(arg(a, "--out", "result.csv")), csv);
        }
    }

    /** Compiles the hot loops before anything is timed (Gloo is native code; the JIT is not). */
    /**
     * Runs every collective (at 1 and 4 MiB, 10 times each per round) until a whole round passes with no JIT
     * compilation on any rank, at most 30 rounds. Gloo is native code; a JVM still compiling steals the CPU that
     * 4 ranks on 2 vCPUs share (a fixed 20 iterations left W=4 1 MiB all_reduce measured at 2-3x its steady time).
     */
    private static void warmUp(final TcpCommunicator comm, final String[] colls) {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        final CommBuffer send = comm.allocate(4 << 20);
        final CommBuffer recv = comm.allocate(4 << 20);
        final CommBuffer flag = comm.allocate(8);
        final ByteBuffer h = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        for (int round = 1; round <= 30; round++) {
            final long before = jit.getTotalCompilationTime();
            for (final String coll : colls) {
                for (final long size : new long[] {1 << 20, 4 << 20}) {
                    final Runnable op = op(comm, coll, send, recv, size);
                    for (int i = 0; i < 10; i++) {
                        op.run();
                    }
                }
            }
            h.clear().putLong(0, jit.getTotalCompilationTime() - before);
            flag.upload(h, 0);
            comm.allReduce(flag, flag, 1, DType.INT64, ReduceOp.MAX);
            h.clear();
            flag.download(0, h);
            if (h.getLong(0) == 0) {
                if (comm.rank() == 0) {
                    System.out.printf("W=%d JIT quiet after %d warm-up rounds%n", comm.size(), round);
                }
                return;
            }
        }
        if (comm.rank() == 0) {
            System.out.printf("W=%d JIT still compiling after 30 warm-up rounds%n", comm.size());
        }
    }

    private static Runnable op(final TcpCommunicator comm, final String coll, final CommBuffer send,
                               final CommBuffer recv, final long size) {
        final int w = comm.size();
        final long count = size / 4;
        return switch (coll) {
            case "all_reduce" -> () -> comm.allReduce(send, send, count, DType.FLOAT32, ReduceOp.SUM);
            case "all_gather" -> () -> comm.allGather(send, recv, count / w, DType.FLOAT32);
            case "reduce_scatter" -> () -> comm.reduceScatter(send, recv, count / w, DType.FLOAT32, ReduceOp.SUM);
            case "broadcast" -> () -> comm.broadcast(send, send, count, DType.FLOAT32, 0);
            case "all_to_all" -> () -> comm.allToAll(send, recv, count / w, DType.FLOAT32);
            case "reduce" -> () -> comm.reduce(send, recv, count, DType.FLOAT32, ReduceOp.SUM, 0);
            default -> throw new IllegalArgumentException("unknown collective " + coll);
        };
    }

    static double factor(final String coll, final int n) {
        return switch (coll) {
            case "all_reduce" -> 2.0 * (n - 1) / n;
            case "broadcast", "reduce" -> 1.0;
            default -> (double) (n - 1) / n;
        };
    }

    static long parseSize(final String s) {
        final String t = s.trim().toUpperCase();
        final char last = t.charAt(t.length() - 1);
        final long mult = last == 'K' ? 1L << 10 : last == 'M' ? 1L << 20 : last == 'G' ? 1L << 30 : 1;
        return Long.parseLong(mult == 1 ? t : t.substring(0, t.length() - 1)) * mult;
    }

    private static String arg(final List<String> a, final String flag, final String dflt) {
        final int i = a.indexOf(flag);
        return i >= 0 && i + 1 < a.size() ? a.get(i + 1) : dflt;
    }
}
