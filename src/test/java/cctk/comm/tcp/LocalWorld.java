package cctk.comm.tcp;

import cctk.comm.MemoryStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** W ranks as threads of this JVM, each with its own TcpCommunicator over real loopback sockets. */
final class LocalWorld {

    interface RankBody<T> {
        T run(TcpCommunicator comm) throws Exception;
    }

    /** The job secret of the test worlds. */
    static final byte[] SECRET = "local-world-secret".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private LocalWorld() {
    }

    static TcpOptions options(final Duration deadline) {
        return TcpOptions.local(deadline, "test", SECRET);
    }

    /** Runs {@code body} on every rank; returns the per-rank results, rethrowing the first failure. */
    static <T> List<T> run(final int world, final TcpOptions options, final RankBody<T> body) throws Exception {
        final List<Thread> threads = new CopyOnWriteArrayList<>();
        final List<Future<T>> futures = submit(world, options, body, threads);
        final List<T> out = new ArrayList<>();
        for (final Future<T> f : futures) {
            try {
                out.add(f.get(120, TimeUnit.SECONDS));
            } catch (final TimeoutException e) {
                throw new AssertionError("the ranks ran over 120 s; where they were:" + stacks(threads), e);
            }
        }
        return out;
    }

    private static String stacks(final List<Thread> threads) {
        final StringBuilder b = new StringBuilder();
        for (final Thread t : threads) {
            b.append("\n").append(t.getName()).append(' ').append(t.getState());
            for (final StackTraceElement e : t.getStackTrace()) {
                b.append("\n    at ").append(e);
            }
            t.interrupt();
        }
        return b.toString();
    }

    /** Starts the ranks and returns their futures (each closes its communicator when its body ends). */
    static <T> List<Future<T>> submit(final int world, final TcpOptions options, final RankBody<T> body) {
        return submit(world, options, body, new ArrayList<>());
    }

    private static <T> List<Future<T>> submit(final int world, final TcpOptions options, final RankBody<T> body,
                                              final List<Thread> threads) {
        final MemoryStore store = new MemoryStore(world, Duration.ofSeconds(30));
        final ExecutorService pool = Executors.newFixedThreadPool(world, r -> {
            final Thread t = new Thread(r, "rank-" + threads.size());
            t.setDaemon(true);
            threads.add(t);
            return t;
        });
        final List<Future<T>> futures = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            final int rank = r;
            futures.add(pool.submit(() -> {
                try (TcpCommunicator comm = TcpCommunicator.connect(options, rank, world, store)) {
                    return body.run(comm);
                }
            }));
        }
        pool.shutdown();
        return futures;
    }
}
