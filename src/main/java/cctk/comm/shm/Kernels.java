package cctk.comm.shm;

import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Reductions;
import cctk.comm.HostMemory;
import java.nio.Buffer;

/**
 * The element work of the collectives: a reduction that reads every rank's input where it lies and accumulates
 * into the output in cache-sized chunks (each output chunk stays in L1 while the W inputs stream past), and the
 * block arithmetic. <b>Note:</b> threadsafe (stateless).
 */
final class Kernels {

    /** Bytes of output accumulated at a time: about an L1 data cache. */
    static final int CHUNK_BYTES = 32 << 10;

    private Kernels() {
    }

    /**
     * {@code out[outOff..] = in[first] op in[first+1] op ... op in[first-1]} (ranks modulo {@code w}) over
     * {@code count} elements, where rank p's input starts at byte {@code inOff[p] + shift} of {@code in[p]}. The
     * output may be rank {@code first}'s input at the same bytes (in-place), never another rank's.
     */
    static void reduceChain(final DType type, final ReduceOp op, final HostMemory out, final int outOff,
                            final HostMemory[] in, final int[] inOff, final int shift, final int first, final int w,
                            final int count) {
        final int unit = type.bytes();
        if (count == 0) {
            return;
        }
        if (w == 1) {
            out.copyFrom(outOff, in[first], inOff[first] + shift, count * unit);
            return;
        }
        final Buffer o = out.typed(type);
        final int oi = outOff / unit;
        final int chunk = CHUNK_BYTES / unit;
        final int second = (first + 1) % w;
        for (int c = 0; c < count; c += chunk) {
            final int m = Math.min(chunk, count - c);
            Reductions.reduce(type, op, o, oi + c, in[first].typed(type), (inOff[first] + shift) / unit + c,
                    in[second].typed(type), (inOff[second] + shift) / unit + c, m);
            for (int k = 2; k < w; k++) {
                final int p = (first + k) % w;
                Reductions.reduce(type, op, o, oi + c, o, oi + c, in[p].typed(type), (inOff[p] + shift) / unit + c,
                        m);
            }
        }
    }

    /** First element of block {@code block} when {@code count} elements split into {@code w} near-equal blocks. */
    static int start(final int count, final int block, final int w) {
        return block * (count / w) + Math.min(block, count % w);
    }

    static int length(final int count, final int block, final int w) {
        return count / w + (block < count % w ? 1 : 0);
    }
}
