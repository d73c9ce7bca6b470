package cctk.comm.shm;

import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/** W ranks as threads of this JVM, each with its own ShmCommunicator, segments in a private directory. */
final class ShmWorld {

    interface RankBody<T> {
        T run(ShmCommunicator comm) throws Exception;
    }

    static final byte[] SECRET = "shm-world-secret".getBytes(StandardCharsets.UTF_8);

    private ShmWorld() {
    }

    /** A fresh directory for segments, on /dev/shm where there is one. */
    static Path directory() throws IOException {
        final Path base = Files.isDirectory(ShmOptions.DEFAULT_DIRECTORY) ? ShmOptions.DEFAULT_DIRECTORY
                : Path.of(System.getProperty("java.io.tmpdir"));
        return Files.createTempDirectory(base, "cctktest-");
    }

    static void delete(final Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (final Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The files in {@code dir}, by name. */
    static List<String> files(final Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static ShmOptions options(final Path dir, final Duration deadline) {
        return ShmOptions.local(deadline, "test", SECRET).inDirectory(dir);
    }

    /** Runs {@code body} on every rank; returns the per-rank results, rethrowing the first failure. */
    static <T> List<T> run(final int world, final ShmOptions options, final RankBody<T> body) throws Exception {
        final List<Future<T>> futures = submit(world, options, body);
        final List<T> out = new ArrayList<>();
        Throwable first = null;
        for (final Future<T> f : futures) {
            try {
                out.add(f.get(240, TimeUnit.SECONDS));
            } catch (final TimeoutException e) {
                throw new AssertionError("the ranks ran over 240 s", e);
            } catch (final ExecutionException e) {
                // a failed assertion on one rank makes the others fail naming it: report the assertion
                if (first == null || e.getCause() instanceof AssertionError && !(first instanceof AssertionError)) {
                    first = e.getCause();
                }
            }
        }
        if (first instanceof Exception e) {
            throw e;
        }
        if (first != null) {
            throw (Error) first;
        }
        return out;
    }

    /** Starts the ranks and returns their futures (each closes its communicator when its body ends). */
    static <T> List<Future<T>> submit(final int world, final ShmOptions options, final RankBody<T> body) {
        final MemoryStore store = new MemoryStore(world, Duration.ofSeconds(30));
        final ExecutorService pool = Executors.newFixedThreadPool(world, r -> {
            final Thread t = new Thread(r, "shm-rank");
            t.setDaemon(true);
            return t;
        });
        final List<Future<T>> futures = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            final int rank = r;
            futures.add(pool.submit(() -> {
                try (ShmCommunicator comm = ShmCommunicator.connect(options, rank, world, store)) {
                    return body.run(comm);
                }
            }));
        }
        pool.shutdown();
        return futures;
    }

    /** A buffer of {@code count} elements holding this rank's inputs from element 0. */
    static CommBuffer filled(final Communicator comm, final DType type, final ReduceOp op, final long count) {
        final CommBuffer b = comm.allocate(count * type.bytes());
        b.upload(Patterns.input(type, op, comm.rank(), 0, count), 0);
        return b;
    }

    /** Adds a line to {@code bad} unless {@code b}'s bytes from {@code off} equal {@code want}. */
    static void expect(final CommBuffer b, final long off, final ByteBuffer want, final String what,
                       final List<String> bad) {
        final ByteBuffer got = ByteBuffer.allocate(want.remaining());
        b.download(off, got);
        got.clear();
        if (!got.equals(want)) {
            bad.add(what + ": first wrong byte " + got.mismatch(want));
        }
    }
}
