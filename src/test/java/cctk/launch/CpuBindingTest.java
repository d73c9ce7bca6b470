package cctk.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CpuList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(10)
class CpuBindingTest {

    private static final Path TASKSET = Path.of("/opt/t/taskset");

    @TempDir
    Path dir;

    @Test
    void ranksThatOutnumberTheCpusAreEachBoundToOneInTurn() {
        final CpuBinding b = new CpuBinding(CpuBinding.Mode.AUTO, CpuList.parse("2,5"), TASKSET);
        assertThat(b.binds(3)).isTrue();
        assertThat(b.prefix(0, 4)).containsExactly("/opt/t/taskset", "-c", "2");
        assertThat(b.prefix(1, 4)).containsExactly("/opt/t/taskset", "-c", "5");
        assertThat(b.prefix(2, 4)).containsExactly("/opt/t/taskset", "-c", "2");
        assertThat(b.prefix(3, 4)).containsExactly("/opt/t/taskset", "-c", "5");
        assertThat(b.describe(4)).isEqualTo("4 ranks on 2 CPU(s) (2,5), each bound to one (taskset -c) so the same"
            + " ranks share a core in every run: CPU 2: rank(s) 0,2; CPU 5: rank(s) 1,3");
        assertThat(b.describe(3)).endsWith("CPU 2: rank(s) 0,2; CPU 5: rank(s) 1");
    }

    @Test
    void ranksThatFitOneACpuAreLeftAloneAndNothingIsSaid() {
        final CpuBinding b = new CpuBinding(CpuBinding.Mode.AUTO, CpuList.parse("0-1"), TASKSET);
        assertThat(b.binds(2)).isFalse();
        assertThat(b.prefix(1, 2)).isEmpty();
        assertThat(b.describe(2)).isNull();
        assertThat(b.describe(1)).isNull();
    }

    @Test
    void noneNoTasksetOrUnknownCpusBindNothingAndTheLineSaysWhy() {
        final CpuBinding none = new CpuBinding(CpuBinding.Mode.NONE, CpuList.parse("0-1"), TASKSET);
        assertThat(none.binds(4)).isFalse();
        assertThat(none.prefix(3, 4)).isEmpty();
        assertThat(none.describe(4)).startsWith("4 ranks on 2 CPU(s) (0-1), not bound (--cpu-bind none)");
        final CpuBinding missing = new CpuBinding(CpuBinding.Mode.AUTO, CpuList.parse("0-1"), null);
        assertThat(missing.prefix(3, 4)).isEmpty();
        assertThat(missing.describe(4)).contains("not bound: no taskset found");
        final CpuBinding unknown = new CpuBinding(CpuBinding.Mode.AUTO, null, TASKSET);
        assertThat(unknown.prefix(3, 4)).isEmpty();
        assertThat(unknown.describe(4)).isNull();
    }

    @Test
    void theFlagNamesAutoOrNoneAndNothingElse() {
        assertThat(CpuBinding.Mode.ofFlag("auto")).isEqualTo(CpuBinding.Mode.AUTO);
        assertThat(CpuBinding.Mode.ofFlag(" NONE ")).isEqualTo(CpuBinding.Mode.NONE);
        assertThat(CpuBinding.Mode.ofFlag(null)).isEqualTo(CpuBinding.Mode.AUTO);
        assertThatThrownBy(() -> CpuBinding.Mode.ofFlag("cores")).isInstanceOf(cctk.CctkException.class)
            .hasMessage("--cpu-bind: expected auto or none, found 'cores'.");
    }

    @Test
    void tasksetIsTakenFromAbsolutePathEntriesOnly() throws IOException {
        final Path bin = Files.createDirectories(dir.resolve("bin"));
        final Path mine = Files.writeString(bin.resolve("taskset"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rwx------"));
        assertThat(CpuBinding.tasksetOnPath(bin + ":/nowhere")).isEqualTo(mine);
        // a relative entry is never used, nor a file that cannot run: the system's, after PATH, is
        final Path plain = Files.createDirectories(dir.resolve("plain"));
        Files.writeString(plain.resolve("taskset"), "not a program");
        final Path system = CpuBinding.tasksetOnPath("");
        assertThat(CpuBinding.tasksetOnPath(plain + ":bin")).isEqualTo(system);
        assertThat(system).as("util-linux's taskset in /usr/bin or /bin (Debian: essential)").isNotNull();
        assertThat(List.of(Path.of("/usr/bin/taskset"), Path.of("/bin/taskset"))).contains(system);
    }
}
