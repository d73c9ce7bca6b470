package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProcessAgeTest {

    @Test
    void theAgeIsTheUptimeLessTheStartInClockTicksCountedPastACommandWithSpacesAndParentheses() {
        // fields 1-21 of /proc/PID/stat, then starttime (22) = 123,456 ticks, then the rest; the command is "a) b"
        final StringBuilder stat = new StringBuilder("4242 (a) b) S");
        for (int field = 4; field <= 21; field++) {
            stat.append(' ').append(field);
        }
        stat.append(" 123456 99 98\n");
        assertThat(ProcessAge.fromProc(stat.toString(), "1236.81 2000.00\n", 100)).isEqualTo(Duration.ofMillis(2_250));
        assertThat(ProcessAge.fromProc(stat.toString(), "1236.81 2000.00\n", 250))
            .isEqualTo(Duration.ofMillis(1236_810 - 493_824));
    }

    @Test
    void theClockTicksComeFromTheAuxiliaryVectorElseOneHundred() {
        final ByteBuffer aux = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
        aux.putLong(6).putLong(4096).putLong(17).putLong(250).putLong(0).putLong(0).flip();
        assertThat(ProcessAge.clockTicks(aux)).isEqualTo(250);
        final ByteBuffer none = ByteBuffer.allocate(32).order(ByteOrder.nativeOrder());
        none.putLong(6).putLong(4096).putLong(0).putLong(0).flip();
        assertThat(ProcessAge.clockTicks(none)).isEqualTo(100);
    }

    @Test
    void thisProcessIsAsOldAsItsJvmToATickNotOffByTheBootsFractionOfASecond() {
        // the JVM starts a few ms after the process; ProcessHandle's figure is off by up to a second (btime's fraction)
        final long jvm = ManagementFactory.getRuntimeMXBean().getUptime();
        final long age = ProcessAge.now().toMillis();
        final long after = ManagementFactory.getRuntimeMXBean().getUptime();
        assertThat(age).isBetween(jvm - 20, after + 300);
    }
}
