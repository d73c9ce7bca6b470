package cctk.coll;

import cctk.comm.HalfFloats;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.DType;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ElementsTest {

    @Test
    void halfAndBfloat16RoundTripSmallIntegersAndKnownBits() {
        for (int v = -2048; v <= 2048; v++) {
            assertThat(HalfFloats.float16ToFloat(HalfFloats.floatToFloat16(v))).isEqualTo((float) v);
        }
        assertThat(HalfFloats.floatToFloat16(1.0f)).isEqualTo((short) 0x3C00);
        assertThat(HalfFloats.floatToFloat16(65504f)).isEqualTo((short) 0x7BFF);
        assertThat(HalfFloats.floatToFloat16(1e6f)).isEqualTo((short) 0x7C00);
        assertThat(HalfFloats.float16ToFloat((short) 0x0001)).isEqualTo(0x1p-24f);
        assertThat(HalfFloats.floatToFloat16(2049f)).isEqualTo(HalfFloats.floatToFloat16(2048f));
        assertThat(HalfFloats.floatToBfloat16(1.0f)).isEqualTo((short) 0x3F80);
        assertThat(HalfFloats.floatToBfloat16(257f)).isEqualTo(HalfFloats.floatToBfloat16(256f));
    }

    @Test
    void integersWrapLittleEndian() {
        final ByteBuffer b = ByteBuffer.allocate(16);
        Elements.put(b, DType.INT8, 3, 200);
        assertThat(Elements.get(b, DType.INT8, 3)).isEqualTo(-56);
        assertThat(Elements.get(b, DType.UINT8, 3)).isEqualTo(200);
        Elements.put(b, DType.INT32, 1, 258);
        assertThat(b.get(4)).isEqualTo((byte) 2);
        assertThat(b.get(5)).isEqualTo((byte) 1);
        assertThat(Elements.wrap(DType.UINT8, -1)).isEqualTo(255);
    }
}
