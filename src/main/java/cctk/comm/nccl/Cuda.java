package cctk.comm.nccl;

import cctk.CctkException;
import org.bytedeco.cuda.global.cudart;

/** Result checks of CUDA runtime calls, with the runtime's own error text. */
final class Cuda {

    private Cuda() {
    }

    /** Throws CctkException(ENVIRONMENT) naming {@code what} when {@code err} is not cudaSuccess. */
    static void check(final int err, final String what) {
        if (err != cudart.cudaSuccess) {
            throw CctkException.environment(what + " failed: " + text(err) + " (cudaError " + err + ").");
        }
    }

    static String text(final int err) {
        return cudart.cudaGetErrorString(err).getString();
    }

    /** A cudart version code as text: 12040 → 12.4. */
    static String versionText(final int code) {
        return code / 1000 + "." + code % 1000 / 10;
    }
}
