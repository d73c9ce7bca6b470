package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import cctk.CctkException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Graph-mode capture against a recording fake of the stream (a capture needs a GPU): a barrier's host wait ends the
 * capture cleanly, and an iteration's error is never replaced by the failed end of an invalidated capture.
 */
@Timeout(30)
class CudaTimerTest {

    /** Records begin/end/capturing calls; end answers {@code endResult}. */
    static final class FakeCapture implements CudaTimer.Capture {
        final List<String> calls = new ArrayList<>();
        final int endResult;
        boolean on;

        FakeCapture(final int endResult) {
            this.endResult = endResult;
        }

        @Override
        public int begin() {
            calls.add("begin");
            return 0;
        }

        @Override
        public int end() {
            calls.add("end");
            return endResult;
        }

        @Override
        public void capturing(final boolean c) {
            on = c;
            calls.add("capturing " + c);
        }
    }

    @Test
    void iterationsRunWhileTheStreamIsMarkedCapturing() {
        final FakeCapture c = new FakeCapture(0);
        final List<Boolean> seen = new ArrayList<>();
        assertThat(CudaTimer.capture(c, 3, () -> seen.add(c.on))).isTrue();
        assertThat(seen).containsExactly(true, true, true);
        assertThat(c.calls).containsExactly("begin", "capturing true", "capturing false", "end");
    }

    @Test
    void aBarriersHostWaitEndsTheCaptureAndAsksForTimingOutsideIt() {
        final FakeCapture c = new FakeCapture(901); // cudaErrorStreamCaptureInvalidated, had the query run
        final boolean captured = CudaTimer.capture(c, 5, () -> {
            throw new CudaTimer.HostWaitInCapture("barrier");
        });
        assertThat(captured).isFalse();
        assertThat(c.calls).containsExactly("begin", "capturing true", "capturing false", "end");
        assertThat(c.on).isFalse();
    }

    @Test
    void anIterationsErrorIsNotReplacedByTheFailedEndOfCapture() {
        final FakeCapture c = new FakeCapture(901);
        final Throwable t = catchThrowable(() -> CudaTimer.capture(c, 2, () -> {
            throw CctkException.environment("NCCL all_reduce of 64 bytes on rank 0 (GPU 0) failed: unhandled cuda"
                    + " error");
        }));
        assertThat(t).isInstanceOf(CctkException.class).hasMessageContaining("all_reduce of 64 bytes");
        assertThat(t.getSuppressed()).singleElement().asString().contains("cudaStreamEndCapture also failed",
                "cudaError 901");
        assertThat(c.calls).endsWith("end");
    }
}
