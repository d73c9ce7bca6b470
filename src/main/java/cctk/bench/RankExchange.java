package cctk.bench;

import cctk.comm.Store;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The harness's traffic through the store, every key under one run prefix, once per run or per size and none per
 * point (a point's figures travel by {@link RankReduction}): rank lines go to rank 0, the reason buffers did not fit
 * comes from one rank to rank 0, diagnoses after a fault go to rank 0, and rank 0 tells the ranks of its host when it
 * has read the machine after a size ({@link MachineWatch}). Rank 0 drops what it has read.
 * <b>Note:</b> threadsafe as far as the store is; one per rank.
 */
final class RankExchange {

    private final Store store;
    private final String prefix;
    private final int rank;
    private final int world;

    RankExchange(final Store store, final String prefix, final int rank, final int world) {
        this.store = store;
        this.prefix = prefix;
        this.rank = rank;
        this.world = world;
    }

    /** Every rank's {@code mine} in rank order on rank 0; null elsewhere. */
    List<String> gatherText(final String name, final String mine) {
        store.set(prefix + name + "/" + rank, utf8(mine));
        if (rank != 0) {
            return null;
        }
        final List<String> all = new ArrayList<>(world);
        for (int r = 0; r < world; r++) {
            all.add(new String(store.get(prefix + name + "/" + r), StandardCharsets.UTF_8));
        }
        store.drop(prefix + name + "/");
        return all;
    }

    /** On rank 0, what rank {@code from} published under {@code name}; {@code mine} is published when not null. */
    String fromRank(final int from, final String name, final String mine) {
        if (mine != null) {
            store.set(prefix + name + "/" + rank, utf8(mine));
        }
        if (rank != 0) {
            return mine;
        }
        final String said = new String(store.get(prefix + name + "/" + from), StandardCharsets.UTF_8);
        store.drop(prefix + name + "/");
        return said;
    }

    /** What rank 0 published under {@code name} ({@code mine} there), on every rank. */
    String fromZero(final String name, final String mine) {
        if (rank == 0) {
            store.set(prefix + name + "/0", utf8(mine));
            return mine;
        }
        return new String(store.get(prefix + name + "/0"), StandardCharsets.UTF_8);
    }

    /**
     * Every rank has read what it will read of this run's keys (a store barrier: one request a rank), then rank 0's
     * store forgets every key. Without the barrier, a sweep with no collective in it (every row skipped) let rank 0
     * drop the key of its result files before a slower rank had read it, and that rank waited out the store's deadline.
     */
    void dropAll() {
        store.barrier(prefix + "read");
        if (rank == 0) {
            store.drop(prefix);
        }
    }

    /** Most ranks whose diagnoses rank 0 waits for (one waiting thread each). */
    static final int MOST_DIAGNOSES = 64;

    /**
     * Posts this rank's diagnosis under {@code name}, waiting at most {@code millis}: the store may be frozen or
     * gone when something went wrong, and a rank that is ending must not hang on it.
     */
    void postBounded(final String name, final String text, final long millis) {
        final Thread t = new Thread(() -> {
            try {
                store.set(prefix + name + "/" + rank, utf8(text));
            } catch (RuntimeException e) {
                // the store is gone: rank 0 names this rank from what it saw itself
            }
        }, "cctk-post-" + name);
        t.setDaemon(true);
        t.start();
        try {
            t.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The diagnoses the other ranks posted under {@code name} within {@code millis} (fewer if the store fails or
     * the time runs out), by rank; at most {@link #MOST_DIAGNOSES} ranks are asked.
     */
    Map<Integer, String> gatherBounded(final String name, final long millis) {
        final Map<Integer, String> got = new ConcurrentHashMap<>();
        final int asked = Math.min(world, MOST_DIAGNOSES);
        final CountDownLatch left = new CountDownLatch(asked - 1);
        for (int r = 0; r < asked; r++) {
            if (r == rank) {
                continue;
            }
            final int from = r;
            final Thread t = new Thread(() -> {
                try {
                    got.put(from, new String(store.get(prefix + name + "/" + from), StandardCharsets.UTF_8));
                } catch (RuntimeException e) {
                    // not posted in time, or the store failed
                } finally {
                    left.countDown();
                }
            }, "cctk-gather-" + name + "-" + from);
            t.setDaemon(true);
            t.start();
        }
        try {
            left.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Map.copyOf(got);
    }

    private static byte[] utf8(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
