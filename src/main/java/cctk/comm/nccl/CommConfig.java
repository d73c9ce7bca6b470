package cctk.comm.nccl;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Set;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclConfig_t;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * The ncclConfig_t that makes a communicator non-blocking (config.blocking = 0, NCCL ≥ 2.14, NCCL's
 * "Communicator Creation and Management" docs: ncclCommInitRankConfig). It is built as NCCL_CONFIG_INITIALIZER
 * builds it in C: size, magic and version set, every other field left undefined (NCCL_CONFIG_UNDEF_INT, INT_MIN,
 * and NULL), so NCCL applies its own default; a zero would be read as a value and refused (e.g. minCTAs 0). The
 * preset's accessors are found by reflection, because the field list grows with each NCCL, and each cctk build
 * compiles against another preset.
 */
final class CommConfig {

    /** NCCL_CONFIG_UNDEF_INT. */
    static final int UNDEF_INT = Integer.MIN_VALUE;
    /**
     * The magic of NCCL_CONFIG_INITIALIZER, 0xcafebeef in every nccl.h since 2.14 (NCCL checks it before reading
     * the config). Spelled here: only the newest presets name it (NCCL_API_MAGIC, NCCL 2.30 in the CUDA 13 preset);
     * the CUDA 12 presets (NCCL 2.27 and 2.23) have the literal in the macro only, which JavaCPP does not map.
     */
    static final int MAGIC = 0xcafebeef;
    private static final Set<String> SET_HERE = Set.of("size", "magic", "version", "blocking", "position",
            "getPointer", "capacity", "limit");

    private CommConfig() {
    }

    /** A fresh non-blocking config (blocking = 0); the caller closes it once the communicator exists. */
    static ncclConfig_t nonBlocking() {
        final ncclConfig_t c = new ncclConfig_t();
        for (final Method m : ncclConfig_t.class.getMethods()) {
            if (m.getDeclaringClass() != ncclConfig_t.class || Modifier.isStatic(m.getModifiers())
                    || m.getParameterCount() != 1 || m.getReturnType() != ncclConfig_t.class
                    || SET_HERE.contains(m.getName())) {
                continue;
            }
            final Class<?> t = m.getParameterTypes()[0];
            try {
                if (t == int.class) {
                    m.invoke(c, UNDEF_INT);
                } else if (t == BytePointer.class || Pointer.class.isAssignableFrom(t)) {
                    m.invoke(c, (Object) null);
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("ncclConfig_t." + m.getName() + " cannot be set: " + e, e);
            }
        }
        try {
            ncclConfig_t.class.getMethod("size", long.class).invoke(c, Pointer.sizeof(ncclConfig_t.class));
        } catch (NoSuchMethodException e) {
            // an older preset: its NCCL reads the fields by version, not by size
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("ncclConfig_t.size cannot be set: " + e, e);
        }
        c.magic(MAGIC);
        c.version(nccl.NCCL_VERSION_CODE);
        c.blocking(0);
        return c;
    }
}
