package cctk.comm.gloo;

import cctk.comm.DType;
import org.bytedeco.pytorch.global.torch;

/** cctk's element types and reduce operators as c10d's. */
final class GlooTypes {

    private GlooTypes() {
    }

    static torch.ScalarType scalar(final DType type) {
        return switch (type) {
            case FLOAT32 -> torch.ScalarType.Float;
            case FLOAT64 -> torch.ScalarType.Double;
            case FLOAT16 -> torch.ScalarType.Half;
            case BFLOAT16 -> torch.ScalarType.BFloat16;
            case INT8 -> torch.ScalarType.Char;
            case UINT8 -> torch.ScalarType.Byte;
            case INT32 -> torch.ScalarType.Int;
            case INT64 -> torch.ScalarType.Long;
        };
    }

    static org.bytedeco.pytorch.ReduceOp op(final cctk.comm.ReduceOp op) {
        return new org.bytedeco.pytorch.ReduceOp(switch (op) {
            case SUM -> org.bytedeco.pytorch.ReduceOp.RedOpType.SUM;
            case PROD -> org.bytedeco.pytorch.ReduceOp.RedOpType.PRODUCT;
            case MIN -> org.bytedeco.pytorch.ReduceOp.RedOpType.MIN;
            case MAX -> org.bytedeco.pytorch.ReduceOp.RedOpType.MAX;
            case AVG -> org.bytedeco.pytorch.ReduceOp.RedOpType.AVG;
        });
    }
}
