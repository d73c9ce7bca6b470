package cctk.comm;

import cctk.CctkException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** A Store for ranks that are threads of one JVM: a map and a monitor. */
public final class MemoryStore implements Store {
    private final Map<String, byte[]> values = new HashMap<>();
    private final java.util.Set<String> everSet = new java.util.TreeSet<>();
    private final Map<String, Integer> arrivals = new HashMap<>();
    private final int world;
    private final long timeoutNanos;

    public MemoryStore(final int world, final Duration timeout) {
        this.world = world;
        this.timeoutNanos = timeout.toNanos();
    }

    @Override
    public synchronized void set(final String key, final byte[] value) {
        values.put(key, value.clone());
        everSet.add(key);
        notifyAll();
    }

    @Override
    public synchronized byte[] get(final String key) {
        final long end = System.nanoTime() + timeoutNanos;
        while (!values.containsKey(key)) {
            waitUntil(end, "key " + key);
        }
        return values.get(key).clone();
    }

    @Override
    public synchronized void barrier(final String name) {
        final int arrived = arrivals.merge(name, 1, Integer::sum);
        notifyAll();
        final long end = System.nanoTime() + timeoutNanos;
        final int target = ((arrived - 1) / world + 1) * world;
        while (arrivals.get(name) < target) {
            waitUntil(end, "barrier " + name);
        }
    }

    private void waitUntil(final long end, final String what) {
        final long left = end - System.nanoTime();
        if (left <= 0) {
            throw CctkException.environment("memory store: timed out waiting for " + what);
        }
        try {
            wait(Math.max(1, left / 1_000_000L));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CctkException.environment("memory store: interrupted waiting for " + what);
        }
    }

    @Override
    public synchronized void drop(final String prefix) {
        values.keySet().removeIf(k -> k.startsWith(prefix));
    }

    /** Every key held now, sorted. */
    public synchronized java.util.Set<String> keys() {
        return new java.util.TreeSet<>(values.keySet());
    }

    /** Every key ever set, dropped or not, sorted (tests check namespacing). */
    public synchronized java.util.Set<String> everSet() {
        return new java.util.TreeSet<>(everSet);
    }

    @Override
    public void close() {
        // nothing to release
    }
}
