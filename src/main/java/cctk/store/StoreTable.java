package cctk.store;

import cctk.store.StoreFrame.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The store's data, apart from who is connected ({@link StoreServer}): the values, the gets that wait for a key, the
 * barriers and their deadlines, what a drop forgets, and what every rank has asked of it (requests and bytes, for
 * the cost model's test). Every method runs under the server's monitor, which the deadline tasks take too.
 * <b>Note:</b> not threadsafe by itself: guarded by {@code guard} (the server).
 */
final class StoreTable {

    /** A request waiting for a key or a barrier. */
    record Waiter(StoreConnection connection, int requestId) {
    }

    /** Ranks that reached a barrier, and their requests. */
    private static final class Barrier {
        final TreeSet<Integer> arrived = new TreeSet<>();
        final List<Waiter> waiters = new ArrayList<>();
        ScheduledFuture<?> deadline;
    }

    private final Object guard;
    private final int worldSize;
    private final Duration timeout;
    private final ScheduledExecutorService deadlines;
    private final Consumer<String> fail;
    private final Map<String, byte[]> values = new HashMap<>();
    private final Map<String, List<Waiter>> gets = new HashMap<>();
    private final Map<String, Barrier> barriers = new HashMap<>();
    private final long[] requests;
    private final long[] bytesIn;
    private long heldBytes;

    /** {@code fail} ends the store with a message (a barrier's deadline passed); called under {@code guard}. */
    StoreTable(final Object guard, final int worldSize, final Duration timeout,
               final ScheduledExecutorService deadlines, final Consumer<String> fail) {
        this.guard = guard;
        this.worldSize = worldSize;
        this.timeout = timeout;
        this.deadlines = deadlines;
        this.fail = fail;
        this.requests = new long[worldSize];
        this.bytesIn = new long[worldSize];
    }

    /** Counts one request of {@code rank} of {@code bytes} bytes. */
    void counted(final int rank, final int bytes) {
        requests[rank]++;
        bytesIn[rank] += bytes;
    }

    void set(final StoreConnection c, final int id, final String key, final byte[] value) {
        final byte[] old = values.put(key, value);
        heldBytes += key.length() + value.length - (old == null ? 0 : key.length() + old.length);
        c.send(new StoreFrame.Builder().frame(Type.OK, id));
        final List<Waiter> ws = gets.remove(key);
        if (ws != null) {
            for (final Waiter w : ws) {
                w.connection().send(new StoreFrame.Builder().putBytes(value).frame(Type.VALUE, w.requestId()));
            }
        }
    }

    void get(final StoreConnection c, final int id, final String key) {
        final byte[] v = values.get(key);
        if (v != null) {
            c.send(new StoreFrame.Builder().putBytes(v).frame(Type.VALUE, id));
            return;
        }
        final Waiter w = new Waiter(c, id);
        gets.computeIfAbsent(key, k -> new ArrayList<>()).add(w);
        deadlines.schedule(() -> getDeadline(key, w), timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Forgets every value whose key starts with {@code prefix}; waiting gets go on waiting. */
    void drop(final StoreConnection c, final int id, final String prefix) {
        for (final Iterator<Map.Entry<String, byte[]>> it = values.entrySet().iterator(); it.hasNext(); ) {
            final Map.Entry<String, byte[]> e = it.next();
            if (e.getKey().startsWith(prefix)) {
                heldBytes -= e.getKey().length() + e.getValue().length;
                it.remove();
            }
        }
        c.send(new StoreFrame.Builder().frame(Type.OK, id));
    }

    private void getDeadline(final String key, final Waiter w) {
        synchronized (guard) {
            final List<Waiter> ws = gets.get(key);
            if (ws != null && ws.remove(w)) {
                w.connection().send(Type.FAIL, w.requestId(), "rank " + w.connection().rank + " waited for key '"
                        + key + "' but no rank set it within " + timeout.toSeconds() + " s.");
            }
        }
    }

    void barrier(final StoreConnection c, final int id, final String name) {
        final Barrier b = barriers.computeIfAbsent(name, n -> new Barrier());
        b.arrived.add(c.rank);
        b.waiters.add(new Waiter(c, id));
        if (b.arrived.size() == worldSize) {
            barriers.remove(name);
            if (b.deadline != null) {
                b.deadline.cancel(false);
            }
            for (final Waiter w : b.waiters) {
                w.connection().send(new StoreFrame.Builder().frame(Type.OK, w.requestId()));
            }
        } else if (b.deadline == null) {
            b.deadline = deadlines.schedule(() -> barrierDeadline(name, b), timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void barrierDeadline(final String name, final Barrier b) {
        synchronized (guard) {
            if (barriers.get(name) == b) {
                final List<Integer> missing = new ArrayList<>();
                for (int r = 0; r < worldSize; r++) {
                    if (!b.arrived.contains(r)) {
                        missing.add(r);
                    }
                }
                fail.accept(StoreServer.ranks(missing) + " did not reach barrier '" + name + "' within "
                        + timeout.toSeconds() + " s.");
            }
        }
    }

    /** Fails every waiting request with {@code why} and forgets them. */
    void failAll(final String why) {
        for (final List<Waiter> ws : gets.values()) {
            ws.forEach(w -> w.connection().send(Type.FAIL, w.requestId(), why));
        }
        gets.clear();
        for (final Barrier b : barriers.values()) {
            b.waiters.forEach(w -> w.connection().send(Type.FAIL, w.requestId(), why));
        }
        barriers.clear();
    }

    /** Requests waiting here for a key or a barrier. */
    int waiting() {
        return gets.values().stream().mapToInt(List::size).sum()
                + barriers.values().stream().mapToInt(b -> b.waiters.size()).sum();
    }

    /** Keys held now. */
    int keys() {
        return values.size();
    }

    /** Bytes of keys (one per character) and values held now. */
    long heldBytes() {
        return heldBytes;
    }

    /** Requests {@code rank} has made, and the bytes they carried: {requests, bytes}. */
    long[] traffic(final int rank) {
        return new long[] {requests[rank], bytesIn[rank]};
    }
}
