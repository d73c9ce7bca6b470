package cctk.comm.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The running count read from /proc/loadavg's text, and the live file on this machine. */
class RunQueueTest {

    private static int parse(final String text) {
        final byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        return RunQueue.parse(ByteBuffer.wrap(b), b.length);
    }

    @Test
    void theFourthFieldsRunningCountIsRead() {
        assertThat(parse("2.14 3.23 3.44 1/78 18524\n")).isEqualTo(1);
        assertThat(parse("0.00 0.01 0.05 17/1203 99\n")).isEqualTo(17);
        assertThat(parse("0.00 0.01 0.05 x/1203 99\n")).isEqualTo(-1);
        assertThat(parse("0.00 0.01\n")).isEqualTo(-1);
        assertThat(parse("")).isEqualTo(-1);
    }

    @Test
    void thisMachinesQueueCountsAtLeastTheThreadThatAsks() {
        final RunQueue q = RunQueue.open();
        try {
            // this thread runs while it reads: a machine with /proc counts at least one (the tests need Linux)
            assertThat(java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/loadavg"))).isTrue();
            assertThat(q.running()).isPositive();
        } finally {
            q.close();
        }
    }
}
