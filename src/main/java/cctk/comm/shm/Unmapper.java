package cctk.comm.shm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * Unmaps a mapping at once instead of when the garbage collector finds it, so that a freed segment's pages leave
 * /dev/shm promptly: {@code sun.misc.Unsafe.invokeCleaner} (JDK 9 and later), looked up reflectively so that the build
 * uses no internal API. Callers unmap only mappings that nothing can reach any more: a later access would crash the
 * JVM. Where the lookup fails, mappings are left to the collector.
 * <b>Note:</b> threadsafe (stateless).
 */
final class Unmapper {

    private static final MethodHandle INVOKE_CLEANER = lookup();

    private Unmapper() {
    }

    private static MethodHandle lookup() {
        try {
            final Class<?> type = Class.forName("sun.misc.Unsafe");
            final Field field = type.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return MethodHandles.lookup().findVirtual(type, "invokeCleaner",
                    MethodType.methodType(void.class, ByteBuffer.class)).bindTo(field.get(null));
        } catch (final ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Unmaps {@code mapping} (a mapping as FileChannel.map returned it, not a slice); null is ignored. */
    static void unmap(final MappedByteBuffer mapping) {
        if (mapping == null || INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invokeExact((ByteBuffer) mapping);
        } catch (final Throwable e) { // not unmapped now: the collector will
            return;
        }
    }
}
