package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import cctk.Strangers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second user on the machine against {@code cctk report -o} and {@code cctk run -o}: report files planted empty
 * and 0666 in a directory open to all (0777) or sticky (1777), a directory that belongs to the stranger, and a
 * symbolic link of the stranger's that points to the victim's own directory. Each must be refused in one paragraph
 * with exit 2, and no file the user does not own, nor any file of the victim's behind the link, may change.
 */
@Timeout(120)
class PlantedReportFilesTest {

    private static final AdversarialTally TALLY = new AdversarialTally("output directory attacks: reports and -o");
    private static final List<String> REPORT_FILES = List.of("combined.csv", "report.html", "analysis.txt");

    @TempDir
    Path tmp;

    private Path in;

    @BeforeEach
    void input() throws IOException {
        Strangers.needRoot("PlantedReportFilesTest");
        in = Hostile.csv(tmp.resolve("in"), "profile_a.csv", Hostile.series("tcp", "all_reduce", 3)).getParent();
    }

    @AfterAll
    static void tally() {
        TALLY.report();
        assertThat(TALLY.failures()).isEmpty();
    }

    @Test
    void plantedReportFilesInADirectoryOpenToAllGetNothing() throws IOException {
        final Path out = Strangers.mode(Files.createDirectory(tmp.resolve("open")), 0777);
        final List<Path> planted = plant(out);
        judge("report into 0777 with planted files", Hostile.cli("report", in.toString(), "-o", out.toString()),
            planted, "can be written by other users");
    }

    @Test
    void plantedReportFilesInAStickyDirectoryAreNeitherWrittenNorReplaced() throws IOException {
        final Path out = Strangers.mode(Files.createDirectory(tmp.resolve("sticky")), 01777);
        final List<Path> planted = plant(out);
        judge("report into 1777 with planted files", Hostile.cli("report", in.toString(), "-o", out.toString()),
            planted, "belongs to another user (uid " + Strangers.UID + ")");
        for (final Path p : planted) {
            assertThat(Strangers.owner(p)).as("%s replaced", p).isEqualTo(Strangers.UID);
        }
    }

    @Test
    void aDirectoryOfAnotherUserIsRefused() throws IOException {
        final Path out = Strangers.own(Files.createDirectory(tmp.resolve("theirs")));
        judge("report into a directory of another user", Hostile.cli("report", in.toString(), "-o",
            out.toString()), List.of(), "belongs to another user");
        assertThat(out).isEmptyDirectory();
    }

    @Test
    void reportThroughALinkOfAnotherUserLeavesTheVictimsDirectoryAlone() throws IOException {
        final Path victim = victim();
        final Path link = strangersLink(victim);
        judge("report -o through a link of another user", Hostile.cli("report", in.toString(), "-o",
            link.toString()), List.of(), "symbolic link that belongs to another user");
        assertThat(victim.resolve("analysis.txt")).hasContent("keep");
        assertThat(victim).isDirectoryNotContaining(p -> !p.getFileName().toString().equals("analysis.txt"));
    }

    @Test
    void runThroughALinkOfAnotherUserStartsNoRankAndWritesNothing() throws IOException {
        final Path victim = victim();
        final Path link = strangersLink(victim);
        judge("run -o through a link of another user", Hostile.cli("run", "--nproc", "1", "--collectives",
            "all_reduce", "--sizes", "1KiB", "--iters", "1", "--warmup", "0", "-o", link.toString()), List.of(),
            "symbolic link that belongs to another user");
        assertThat(victim).isDirectoryNotContaining(p -> !p.getFileName().toString().equals("analysis.txt"));
    }

    @Test
    void runIntoADirectoryOpenToAllStartsNoRank() throws IOException {
        final Path out = Strangers.mode(Files.createDirectory(tmp.resolve("open")), 0777);
        judge("run -o a 0777 directory", Hostile.cli("run", "--nproc", "1", "--collectives", "all_reduce",
            "--sizes", "1KiB", "--iters", "1", "--warmup", "0", "-o", out.toString()), List.of(),
            "can be written by other users");
        assertThat(out).isEmptyDirectory();
    }

    @Test
    void aLinkAndATargetOfTheUsersOwnAreFollowed() throws IOException {
        final Path mine = Files.createDirectory(tmp.resolve("mine"));
        final Path link = Files.createSymbolicLink(tmp.resolve("to-mine"), mine);
        final Hostile.Outcome r = Hostile.cli("report", in.toString(), "-o", link.toString());
        TALLY.record("report -o through a link of the user's own", r.code() == 0 ? AdversarialTally.Outcome.HANDLED
            : AdversarialTally.Outcome.WRONG_EXIT_CODE);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(mine.resolve("report.html")).isNotEmptyFile();
    }

    /** The victim's own directory (0700, root's), with a file of theirs in it. */
    private Path victim() throws IOException {
        final Path v = Files.createDirectory(tmp.resolve("victim"));
        Files.writeString(v.resolve("analysis.txt"), "keep");
        return v;
    }

    /** A link the stranger made in a sticky directory open to all, to {@code target}. */
    private Path strangersLink(final Path target) throws IOException {
        final Path shared = Strangers.mode(Files.createDirectory(tmp.resolve("shared")), 01777);
        return Strangers.own(Files.createSymbolicLink(shared.resolve("results"), target));
    }

    private static List<Path> plant(final Path dir) throws IOException {
        final List<Path> planted = new ArrayList<>();
        for (final String name : REPORT_FILES) {
            planted.add(Strangers.plant(dir.resolve(name), 0666));
        }
        return planted;
    }

    /** Exit 2 in one paragraph saying {@code why}, and not a byte in a planted file. */
    private static void judge(final String what, final Hostile.Outcome r, final List<Path> planted, final String why)
        throws IOException {
        boolean untouched = true;
        for (final Path p : planted) {
            untouched &= Files.size(p) == 0;
        }
        final AdversarialTally.Outcome o = !untouched ? AdversarialTally.Outcome.STRANGER_ACCEPTED
            : r.stackTrace() ? AdversarialTally.Outcome.STACK_TRACE
            : r.code() != 2 ? AdversarialTally.Outcome.WRONG_EXIT_CODE : AdversarialTally.Outcome.CLEAR_ERROR;
        TALLY.record(what, o);
        assertThat(untouched).as("%s: the user's report in files the user does not own", what).isTrue();
        assertThat(r.code()).as("%s: %s", what, r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("cctk: ").contains(why);
        assertThat(r.err().strip()).doesNotContain("\n");
    }
}
