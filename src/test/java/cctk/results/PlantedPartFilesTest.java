package cctk.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.AdversarialTally;
import cctk.CctkException;
import cctk.ExitCode;
import cctk.Strangers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second user on the machine against rank 0's result files: empty {@code .part} files, 0666 and the stranger's,
 * planted under the names the next run will use, in a directory open to all (0777) or open to all but sticky
 * (1777, as /tmp). No planted file may receive a byte, and the run either refuses the directory (exit 2) or writes
 * files of its own, 0600, under other names.
 */
@Timeout(60)
class PlantedPartFilesTest {

    private static final AdversarialTally TALLY = new AdversarialTally("output directory attacks: result files");
    private static final String STEM = "profile_tcp_world4_20260301-140509";

    @TempDir
    Path tmp;

    @BeforeEach
    void root() {
        Strangers.needRoot("PlantedPartFilesTest");
    }

    @AfterAll
    static void tally() {
        TALLY.report();
        assertThat(TALLY.failures()).isEmpty();
    }

    @Test
    void aDirectoryOpenToAllIsRefusedAndItsPlantedPartsGetNothing() throws IOException {
        final Path dir = Strangers.mode(Files.createDirectory(tmp.resolve("shared")), 0777);
        final List<Path> planted = plantParts(dir);
        final boolean refused = refused(() -> ResultFiles.create(dir, ResultFilesTest.header()), "can be written by"
            + " other users");
        judge("0777 directory with planted part files", refused && empty(planted), planted);
        assertThat(refused).isTrue();
    }

    @Test
    void aDirectoryOfAnotherUserIsRefused() throws IOException {
        final Path dir = Strangers.own(Files.createDirectory(tmp.resolve("theirs")));
        final boolean refused = refused(() -> ResultFiles.create(dir, ResultFilesTest.header()),
            "belongs to another user (uid " + Strangers.UID + ")");
        judge("0755 directory of another user", refused, List.of());
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void inAStickyDirectoryPlantedPartsAreNeverReused() throws IOException {
        final Path dir = Strangers.mode(Files.createDirectory(tmp.resolve("sticky")), 01777);
        final List<Path> planted = plantParts(dir);
        final List<Path> finals;
        try (ResultFiles files = ResultFiles.create(dir, ResultFilesTest.header())) {
            files.add(ResultFilesTest.allReduce());
            finals = files.finish(null);
        }
        for (final Path f : finals) {
            assertThat(f.getFileName().toString()).startsWith(STEM + "-");
            assertThat(Strangers.owner(f)).isZero();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
        }
        judge("1777 directory with planted part files", empty(planted), planted);
    }

    @Test
    void aPlantedFinalFileIsNeitherReplacedNorWritten() throws IOException {
        final Path dir = Strangers.mode(Files.createDirectory(tmp.resolve("sticky")), 01777);
        final Path planted = Strangers.plant(dir.resolve(STEM + ".json"), 0666);
        final List<Path> finals;
        try (ResultFiles files = ResultFiles.create(dir, ResultFilesTest.header())) {
            files.add(ResultFilesTest.allReduce());
            finals = files.finish(null);
        }
        assertThat(finals).doesNotContain(planted);
        judge("1777 directory with a planted final file", empty(List.of(planted))
            && Strangers.owner(planted) == Strangers.UID, List.of(planted));
    }

    /** The three part files of the header's run, planted empty, 0666, the stranger's (and a final one). */
    private static List<Path> plantParts(final Path dir) throws IOException {
        return List.of(Strangers.plant(dir.resolve(STEM + ".csv.part"), 0666),
            Strangers.plant(dir.resolve(STEM + ".json.part"), 0666), Strangers.plant(dir.resolve(STEM + ".csv"), 0666));
    }

    private static boolean empty(final List<Path> files) throws IOException {
        for (final Path f : files) {
            if (Files.size(f) != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean refused(final Runnable r, final String why) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(CctkException.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
            assertThat(e.getMessage()).contains(why).doesNotContain("\n");
        });
        return true;
    }

    /** Records the attack; the user's results in a file the user does not own count as rows lost to a stranger. */
    private static void judge(final String what, final boolean safe, final List<Path> planted) throws IOException {
        TALLY.record(what, safe ? AdversarialTally.Outcome.CLEAR_ERROR : AdversarialTally.Outcome.STRANGER_ACCEPTED);
        assertThat(planted).as("%s: results written into files the user does not own", what)
            .allMatch(p -> p.toFile().length() == 0);
    }
}
