package cctk.comm.nccl;

import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import org.bytedeco.cuda.global.nccl;

/**
 * cctk's element types and operators as NCCL's enum values. The preset's constants are compile-time
 * constants, so this class loads no native code (tested without CUDA).
 */
public final class NcclTypes {

    private NcclTypes() {
    }

    /** ncclDataType_t of {@code type}. */
    public static int dataType(final DType type) {
        return switch (type) {
            case INT8 -> nccl.ncclInt8;
            case UINT8 -> nccl.ncclUint8;
            case INT32 -> nccl.ncclInt32;
            case INT64 -> nccl.ncclInt64;
            case FLOAT16 -> nccl.ncclFloat16;
            case FLOAT32 -> nccl.ncclFloat32;
            case FLOAT64 -> nccl.ncclFloat64;
            case BFLOAT16 -> nccl.ncclBfloat16;
        };
    }

    /** ncclRedOp_t of {@code op}. */
    public static int redOp(final ReduceOp op) {
        return switch (op) {
            case SUM -> nccl.ncclSum;
            case PROD -> nccl.ncclProd;
            case MAX -> nccl.ncclMax;
            case MIN -> nccl.ncclMin;
            case AVG -> nccl.ncclAvg;
        };
    }

    /** The lowest NCCL version with {@code op} (ncclAvg came with 2.10); other ops exist in every 2.x. */
    public static int minimumVersion(final ReduceOp op) {
        return op == ReduceOp.AVG ? version(2, 10, 0) : version(2, 0, 0);
    }

    /** The lowest NCCL version with {@code type} (bfloat16 came with 2.10). */
    public static int minimumVersion(final DType type) {
        return type == DType.BFLOAT16 ? version(2, 10, 0) : version(2, 0, 0);
    }

    /**
     * Why the nccl backend cannot run {@code collective} with this type, operator and placement on an
     * NCCL of version {@code ncclVersion} (any scheme), or null when it can.
     * All-to-all and send/recv have no in-place form on NCCL: a rank's blocks are sent and received concurrently
     * from the same memory (grouped ncclSend/ncclRecv, which ncclAlltoAll also expands into), so a block could be
     * overwritten before it is sent; RCCL and NCCLX refuse in-place all-to-all outright.
     * bfloat16 and avg came with NCCL 2.10: an older NCCL aborts on them, so the row is skipped instead.
     */
    public static String unsupported(final CollectiveType collective, final DType type, final ReduceOp op,
                                     final boolean inPlace, final int ncclVersion) {
        if (inPlace && (collective == CollectiveType.ALLTOALL || collective == CollectiveType.ALLTOALLV
                || collective == CollectiveType.SENDRECV)) {
            return "no in-place form on nccl: the blocks are sent and received concurrently from the same memory"
                    + " (a block could be overwritten before it is sent)";
        }
        final int have = normalised(ncclVersion);
        if (type != null && have < minimumVersion(type)) {
            return type.specName() + " needs NCCL " + versionText(minimumVersion(type)) + " or newer; this node's is "
                    + versionText(have);
        }
        if (op != null && have < minimumVersion(op)) {
            return op.specName() + " needs NCCL " + versionText(minimumVersion(op)) + " or newer; this node's is "
                    + versionText(have);
        }
        return null;
    }

    /** NCCL's version code: major*10000 + minor*100 + patch (the scheme since 2.9). */
    public static int version(final int major, final int minor, final int patch) {
        return major * 10_000 + minor * 100 + patch;
    }

    /** ncclGetVersion's code in today's scheme: before 2.9 it was major*1000 + minor*100 + patch. */
    public static int normalised(final int code) {
        return code < 10_000 ? version(code / 1000, code % 1000 / 100, code % 100) : code;
    }

    /** A version code as text, e.g. 22703 → 2.27.3, 2804 → 2.8.4. */
    public static String versionText(final int code) {
        final int c = normalised(code);
        return c / 10_000 + "." + c % 10_000 / 100 + "." + c % 100;
    }
}
