package cctk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Another user on a shared machine, for the adversarial tests: what that user plants is chowned to uid
 * {@value #UID} (nobody on most Linux systems). Tests that need this run as root, which may chown; as any other
 * user they are skipped. Modes are set whole, sticky bit included.
 */
public final class Strangers {

    /** The other user's id. */
    public static final int UID = 65534;

    private Strangers() {
    }

    /**
     * Aborts {@code test} with a loud banner unless this process may plant files as the stranger (root): a skipped
     * test must never look like a passed one.
     */
    public static void needRoot(final String test) {
        if (canPlant()) {
            return;
        }
        final String text = test + " plants files as uid " + UID + " and needs root; run the tests as root";
        final String bar = "!".repeat(100);
        System.out.println(bar + "\n!! SKIPPED, NOT PASSED: " + text + "\n" + bar);
        org.junit.jupiter.api.Assumptions.abort("SKIPPED, NOT PASSED: " + text);
    }

    /** Whether this process may give files away (it runs as root). */
    public static boolean canPlant() {
        return Ownership.me() == 0;
    }

    /** Makes {@code p} (a link itself, not what it points to) the stranger's. */
    public static Path own(final Path p) throws IOException {
        Files.setAttribute(p, "unix:uid", UID, LinkOption.NOFOLLOW_LINKS);
        return p;
    }

    /** Sets {@code p}'s whole mode, e.g. {@code 01777}. */
    public static Path mode(final Path p, final int mode) throws IOException {
        Files.setAttribute(p, "unix:mode", mode);
        return p;
    }

    /** An empty file {@code mode} (e.g. 0666) at {@code p}, the stranger's. */
    public static Path plant(final Path p, final int mode) throws IOException {
        Files.createFile(p);
        mode(p, mode);
        return own(p);
    }

    /** {@code p}'s owner. */
    public static int owner(final Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    }
}
