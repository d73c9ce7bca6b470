package cctk.diagnose;

/**
 * The JIT compiler's total compilation time in ms, from java.management's compilation bean; -1 where it cannot be
 * read (a runtime without the module, or a JVM that does not keep the figure). A warm-up round in which it did not
 * move ran compiled code only.
 * <b>Note:</b> threadsafe.
 */
final class JitClock {

    private JitClock() {
    }

    static long millis() {
        if (ModuleLayer.boot().findModule("java.management").isEmpty()) {
            return -1;
        }
        try {
            return Bean.millis();
        } catch (final LinkageError e) {
            return -1;
        }
    }

    /** Loaded only where java.management exists. */
    private static final class Bean {
        static long millis() {
            final java.lang.management.CompilationMXBean jit =
                    java.lang.management.ManagementFactory.getCompilationMXBean();
            return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
        }
    }
}
