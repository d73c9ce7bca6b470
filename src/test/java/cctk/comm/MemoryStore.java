package cctk.comm;

import cctk.CctkException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** A Store for ranks that are threads of one JVM: a map and a monitor. */
public final class MemoryStore implements Store {
    private final Map<String, byte[]> values = new HashMap<>();
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
    public void close() {
        // nothing to release
    }
}
