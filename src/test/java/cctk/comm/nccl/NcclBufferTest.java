package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Slices of device buffers: byte positions for NCCL's void* arguments, bounds, and no use once freed. */
@Timeout(30)
class NcclBufferTest {

    @Test
    void slicesOfSlicesPointAtTheRightByte() {
        final NcclBuffer root = new NcclBuffer(null, new Pointer(), 0, 4096);
        final NcclBuffer a = (NcclBuffer) root.slice(1024, 2048);
        final NcclBuffer b = (NcclBuffer) a.slice(512, 256);
        assertThat(root.pointer().position()).isZero();
        assertThat(a.pointer().position()).isEqualTo(1024);
        assertThat(b.pointer().position()).isEqualTo(1536);
        assertThat(b.bytes()).isEqualTo(256);
        assertThat(b.at(16).position()).isEqualTo(1552);
        // at() makes a new pointer: the slice's own stays put
        assertThat(b.pointer().position()).isEqualTo(1536);
    }

    @Test
    void outOfBoundsSlicesAreRefused() {
        final NcclBuffer root = new NcclBuffer(null, new Pointer(), 0, 100);
        assertThatThrownBy(() -> root.slice(90, 20)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("slice 90+20 of 100");
        assertThatThrownBy(() -> root.slice(-1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> root.upload(java.nio.ByteBuffer.allocate(8), 96))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("upload 8 bytes at 96 of 100");
    }

    @Test
    void onceItsRootIsFreedNoSliceCanBeUsed() {
        final NcclBuffer root = new NcclBuffer(null, new Pointer(), 0, 64);
        final NcclBuffer slice = (NcclBuffer) root.slice(16, 32);
        assertThat(slice.root()).isSameAs(root);
        assertThat(slice.pointer().position()).isEqualTo(16);
        root.freed();
        assertThatThrownBy(slice::pointer).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("used after it was freed");
        assertThatThrownBy(root::pointer).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> slice.download(0, java.nio.ByteBuffer.allocate(8)))
                .isInstanceOf(IllegalStateException.class);
    }
}
