package cctk.bench;

import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * This JVM's clocks of what disturbs a timing, from java.management: the JIT compilers' total compilation time
 * (ms) and the collections its collectors ran. A round in which the compilation time did not move ran compiled
 * code only. Each is null where it cannot be read: the runtime lacks java.management (a jlinked one; touching it
 * there is a NoClassDefFoundError) or the JVM does not keep the figure. The sweep's warm-up and re-timing
 * ({@link JitWarmUp}, {@link MeasureStep}) and a diagnosis's warm-up read them.
 * <b>Note:</b> threadsafe.
 */
public final class JitClock {

    private JitClock() {
    }

    /** The JIT's total compilation time in ms, or null where it cannot be read. */
    public static LongSupplier compiler() {
        return fromJmx(() -> Jmx.clock());
    }

    /** The collections all of this JVM's collectors have run, or null where that cannot be read. */
    public static LongSupplier collections() {
        return fromJmx(() -> Jmx.collections());
    }

    /**
     * What {@code read} gives, or null where java.management is missing. A lambda, not a method reference: it links
     * {@link Jmx} only when it runs, after the module was found.
     */
    private static LongSupplier fromJmx(final Supplier<LongSupplier> read) {
        if (ModuleLayer.boot().findModule("java.management").isEmpty()) {
            return null;
        }
        try {
            return read.get();
        } catch (LinkageError e) {
            return null;
        }
    }

    /** Kept apart so that JitClock itself never links against java.management. */
    private static final class Jmx {
        static LongSupplier collections() {
            final List<java.lang.management.GarbageCollectorMXBean> gcs = java.lang.management.ManagementFactory
                    .getGarbageCollectorMXBeans();
            return () -> {
                long n = 0;
                for (final java.lang.management.GarbageCollectorMXBean gc : gcs) {
                    n += Math.max(0, gc.getCollectionCount());
                }
                return n;
            };
        }

        static LongSupplier clock() {
            final java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory
                    .getCompilationMXBean();
            return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit::getTotalCompilationTime : null;
        }
    }
}
