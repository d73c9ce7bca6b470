package cctk.comm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Direct buffers whose memory is given back when their owner says so, not when the garbage collector finds them:
 * {@link #free} runs the buffer's cleaner at once through {@code sun.misc.Unsafe.invokeCleaner} (JDK 9+, looked up
 * reflectively, as {@link DirectMemory} does, so the build uses no internal API). Where that is unavailable (JDK 23
 * and later, where the class's methods warn, or a failed lookup) {@link #free} does nothing and the memory returns
 * when the buffer is collected; {@link #EXPLICIT} says which.
 * <b>Note:</b> threadsafe (no state); a freed buffer must never be touched again, by any thread.
 */
public final class DirectBuffers {

    /** Whether {@link #free} gives memory back at once. */
    public static final boolean EXPLICIT;
    private static final MethodHandle INVOKE_CLEANER;

    static {
        MethodHandle cleaner = null;
        if (Runtime.version().feature() < 23) {
            try {
                final Class<?> type = Class.forName("sun.misc.Unsafe");
                final Field field = type.getDeclaredField("theUnsafe");
                field.setAccessible(true);
                cleaner = MethodHandles.lookup().findVirtual(type, "invokeCleaner",
                    MethodType.methodType(void.class, ByteBuffer.class)).bindTo(field.get(null));
            } catch (final ReflectiveOperationException | RuntimeException e) { // no explicit release here
                cleaner = null;
            }
        }
        INVOKE_CLEANER = cleaner;
        EXPLICIT = cleaner != null;
    }

    private DirectBuffers() {
    }

    /**
     * Gives the memory of {@code buffer} back now. It must be a buffer {@link ByteBuffer#allocateDirect} returned
     * (not a slice or duplicate of one), and neither it nor any view of it may be used afterwards.
     */
    public static void free(final ByteBuffer buffer) {
        if (INVOKE_CLEANER == null || !buffer.isDirect()) {
            return;
        }
        try {
            INVOKE_CLEANER.invokeExact(buffer);
        } catch (final Throwable e) { // a view, or already freed: the collector frees it
            // nothing else to do
        }
    }
}
