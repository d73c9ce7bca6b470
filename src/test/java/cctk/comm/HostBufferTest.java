package cctk.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import org.junit.jupiter.api.Test;

/** The CPU backends' one host buffer: slices, copies, views made once, and every use after free refused. */
class HostBufferTest {

    @Test
    void slicesShareTheMemoryAndCopiesLandWhereTheySay() {
        final HostBuffer b = HostBuffer.allocate(16);
        final HostBuffer s = (HostBuffer) b.slice(4, 8);
        assertThat(s.memory).isSameAs(b.memory);
        assertThat(s.whole()).isFalse();
        assertThat(b.whole()).isTrue();
        assertThat(s.overlaps(b)).isTrue();
        assertThat(s.overlaps((HostBuffer) b.slice(12, 4))).isFalse();
        s.upload(ByteBuffer.wrap(new byte[] {1, 2, 3}), 1);
        assertThat(b.memory.base().get(5)).isEqualTo((byte) 1);
        final HostBuffer other = HostBuffer.allocate(4);
        s.copyTo(1, other, 0, 3);
        final ByteBuffer got = ByteBuffer.allocate(3);
        other.download(0, got);
        assertThat(got.array()).containsExactly(1, 2, 3);
        b.copyFrom(other, 1, 0, 2);
        assertThat(b.memory.base().get(0)).isEqualTo((byte) 2);
        assertThat(s.offset).isEqualTo(4);
        assertThat(s.memory).isSameAs(b.memory);
        assertThatThrownBy(() -> b.slice(8, 9)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void viewsAreLittleEndianAndMadeOnce() {
        final HostMemory m = HostMemory.allocate(8);
        m.base().putFloat(4, 2.5f);
        assertThat(m.base().order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
        assertThat(((FloatBuffer) m.typed(DType.FLOAT32)).get(1)).isEqualTo(2.5f);
        assertThat(m.typed(DType.FLOAT32)).isSameAs(m.typed(DType.FLOAT32));
        assertThat(m.cursor(3)).isSameAs(m.cursor(3)).isNotSameAs(m.cursor(0));
        final HostMemory n = HostMemory.over(ByteBuffer.allocateDirect(8), "tag");
        n.copyFrom(0, m, 4, 4);
        assertThat(n.base().getFloat(0)).isEqualTo(2.5f);
        assertThat(n.tag()).isEqualTo("tag");
    }

    @Test
    void everyUseAfterFreeFailsInsteadOfTouchingTheMemory() {
        final HostBuffer b = HostBuffer.allocate(8);
        b.memory.free();
        b.memory.free();
        assertThat(b.memory.freed()).isTrue();
        assertThatThrownBy(() -> b.upload(ByteBuffer.allocate(1), 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("used after it was freed");
        assertThatThrownBy(() -> b.download(0, ByteBuffer.allocate(1))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> b.copyTo(0, HostBuffer.allocate(1), 0, 1))
                .isInstanceOf(IllegalStateException.class);
    }
}
