package cctk.comm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.Buffer;

/**
 * Loads and stores by address in direct buffers, for the float reductions. On JDK 17 an index loop over a direct
 * view checks every access and does not vectorise (a 16 MiB float32 sum: 22 ms), the detour through heap chunks
 * costs three extra copies (8.1 ms), and a loop over raw addresses runs at memory speed (5.5 ms; same VM, same
 * data). A 16 MiB bfloat16 sum, which converts every element, takes 20 ms by address and 57 ms by index.
 * The accessors are sun.misc.Unsafe's, looked up reflectively so that the build uses no internal API.
 * Nothing here checks bounds: callers do, before they touch memory.
 * Off ({@link #AVAILABLE} false) where the lookup fails, on JDK 23 and later (where these methods are deprecated
 * for removal and warn on use), and with {@code -Dcctk.directMemory=false}; callers then take their portable path.
 */
final class DirectMemory {

    static final boolean AVAILABLE;
    private static final MethodHandle GET_FLOAT;
    private static final MethodHandle PUT_FLOAT;
    private static final MethodHandle GET_DOUBLE;
    private static final MethodHandle PUT_DOUBLE;
    private static final MethodHandle GET_SHORT;
    private static final MethodHandle PUT_SHORT;
    private static final MethodHandle GET_LONG_FIELD;
    /** Offset of {@code java.nio.Buffer.address}, the first byte of a direct buffer (or view). */
    private static final long ADDRESS;

    static {
        MethodHandle getFloat = null;
        MethodHandle putFloat = null;
        MethodHandle getDouble = null;
        MethodHandle putDouble = null;
        MethodHandle getShort = null;
        MethodHandle putShort = null;
        MethodHandle getLongField = null;
        long address = -1;
        if (Runtime.version().feature() < 23 && Tuning.fromSystemProperties().directMemory()) {
            try {
                final Class<?> type = Class.forName("sun.misc.Unsafe");
                final Field field = type.getDeclaredField("theUnsafe");
                field.setAccessible(true);
                final Object unsafe = field.get(null);
                final MethodHandles.Lookup lookup = MethodHandles.lookup();
                getFloat = bind(lookup, type, unsafe, "getFloat", float.class, long.class);
                putFloat = bind(lookup, type, unsafe, "putFloat", void.class, long.class, float.class);
                getDouble = bind(lookup, type, unsafe, "getDouble", double.class, long.class);
                putDouble = bind(lookup, type, unsafe, "putDouble", void.class, long.class, double.class);
                getShort = bind(lookup, type, unsafe, "getShort", short.class, long.class);
                putShort = bind(lookup, type, unsafe, "putShort", void.class, long.class, short.class);
                getLongField = bind(lookup, type, unsafe, "getLong", long.class, Object.class, long.class);
                address = (long) bind(lookup, type, unsafe, "objectFieldOffset", long.class, Field.class)
                        .invoke(Buffer.class.getDeclaredField("address"));
            } catch (final Throwable e) { // any failure: not available, the portable path runs
                getFloat = null;
            }
        }
        AVAILABLE = getFloat != null;
        GET_FLOAT = getFloat;
        PUT_FLOAT = putFloat;
        GET_DOUBLE = getDouble;
        PUT_DOUBLE = putDouble;
        GET_SHORT = getShort;
        PUT_SHORT = putShort;
        GET_LONG_FIELD = getLongField;
        ADDRESS = address;
    }

    private DirectMemory() {
    }

    private static MethodHandle bind(final MethodHandles.Lookup lookup, final Class<?> type, final Object unsafe,
                                     final String name, final Class<?> returns, final Class<?>... params)
            throws ReflectiveOperationException {
        return lookup.findVirtual(type, name, MethodType.methodType(returns, params)).bindTo(unsafe);
    }

    /** Whether all three buffers can be reduced by address. */
    static boolean usable(final Buffer out, final Buffer a, final Buffer b) {
        return AVAILABLE && out.isDirect() && a.isDirect() && b.isDirect();
    }

    /** Address of element 0 of a direct buffer. */
    static long address(final Buffer direct) {
        try {
            return (long) GET_LONG_FIELD.invokeExact((Object) direct, ADDRESS);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    static float getFloat(final long address) {
        try {
            return (float) GET_FLOAT.invokeExact(address);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    static void putFloat(final long address, final float value) {
        try {
            PUT_FLOAT.invokeExact(address, value);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    static double getDouble(final long address) {
        try {
            return (double) GET_DOUBLE.invokeExact(address);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    static void putDouble(final long address, final double value) {
        try {
            PUT_DOUBLE.invokeExact(address, value);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    static short getShort(final long address) {
        try {
            return (short) GET_SHORT.invokeExact(address);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    static void putShort(final long address, final short value) {
        try {
            PUT_SHORT.invokeExact(address, value);
        } catch (final Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
