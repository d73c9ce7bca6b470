package cctk;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Who controls a path cctk writes to: output goes only where no other user can read it first, plant a file for it,
 * or swap a directory or link under it. A directory on the way to the output (every one the path passes through,
 * and every one of its real path) must belong to this user or to root, and one that others may write to must be
 * sticky (as {@code /tmp} is), where they cannot remove or rename what is not theirs; the output directory itself
 * must belong to this user. A symbolic link on the way is followed only when it belongs to this user (or to root,
 * above the output directory). An existing file that cctk would replace must be a regular file of this user's with
 * one link. Ownership and modes are compared, not tried: root passes every permission check, so trying would prove
 * nothing. The checks follow the secure-directory rule of the SEI CERT Oracle Coding Standard for Java (FIO00-J).
 * Where the file system has no Unix owners, nothing is checked. <b>Note:</b> threadsafe (no state).
 */
public final class Ownership {

    private static final int TYPE = 0170000;
    private static final int DIRECTORY = 0040000;
    private static final int LINK = 0120000;
    private static final int REGULAR = 0100000;
    private static final int STICKY = 01000;
    private static final int OTHERS_WRITE = 0022;
    private static final long ROOT = 0;
    private static final String ATTRIBUTES = "unix:mode,uid,nlink";

    /** One path's own attributes (a link's, not its target's). */
    private record Node(int mode, long uid, int links) {

        boolean directory() {
            return (mode & TYPE) == DIRECTORY;
        }

        boolean link() {
            return (mode & TYPE) == LINK;
        }

        boolean regular() {
            return (mode & TYPE) == REGULAR;
        }

        boolean openToOthers() {
            return (mode & OTHERS_WRITE) != 0 && (mode & STICKY) == 0;
        }

        String octal() {
            return String.format("%04o", mode & 07777);
        }
    }

    private Ownership() {
    }

    /** This process's user id. */
    public static long me() {
        return Me.UID;
    }

    /**
     * The user id of this process, read once: the effective uid of /proc/self/status, else the owner of a file this
     * process creates; -1 when neither can be read. java.base only: a jlinked or {@code --limit-modules} runtime has
     * no jdk.security.auth (whose UnixSystem once stopped {@code cctk run} there).
     */
    private static final class Me {
        static final long UID = read();

        private static long read() {
            try {
                for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("Uid:")) {
                        return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
                    }
                }
            } catch (final IOException | RuntimeException e) {
                // no /proc: ask the file system below
            }
            try {
                final Path probe = Files.createTempFile("cctk-uid", null);
                try {
                    return ((Number) Files.getAttribute(probe, "unix:uid")).longValue();
                } finally {
                    Files.deleteIfExists(probe);
                }
            } catch (final IOException | RuntimeException e) {
                return -1;
            }
        }
    }

    /**
     * {@code dir} and its missing directories, new ones 0700, once every directory and link on its way is judged
     * safe (see the class comment); returns {@code dir}. Throws CctkException(USAGE) naming the path that is not, and
     * an IOException when a directory cannot be made (a file stands where one goes, permission denied).
     */
    public static Path directory(final Path dir) throws IOException {
        final Path abs = dir.toAbsolutePath();
        if (!unix(abs)) {
            return Files.createDirectories(dir, OwnerFiles.DIRECTORY);
        }
        Path at = abs.getRoot();
        judgeDirectory(dir, at, node(at), abs.getNameCount() == 0);
        for (int i = 0; i < abs.getNameCount(); i++) {
            final String name = abs.getName(i).toString();
            final boolean last = i == abs.getNameCount() - 1;
            if (name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                final Path parent = at.toRealPath().getParent();
                at = parent == null ? at.getRoot() : parent;
                continue;
            }
            at = at.resolve(name);
            Node n = nodeOrNull(at);
            if (n == null) {
                try {
                    Files.createDirectory(at, OwnerFiles.DIRECTORY);
                } catch (final FileAlreadyExistsException e) {
                    // made meanwhile by someone: judged below as any other
                }
                n = node(at);
            }
            if (n.link()) {
                if (n.uid() != me() && (last || n.uid() != ROOT)) {
                    throw refuse(dir, at, "is a symbolic link that belongs to another user (uid " + n.uid()
                        + "), who could point it elsewhere at any time");
                }
                continue;
            }
            if (!n.directory()) {
                throw new FileAlreadyExistsException(at.toString(), null, "not a directory");
            }
            judgeDirectory(dir, at, n, last);
        }
        final Path real = abs.toRealPath();
        Path on = real.getRoot();
        for (int i = 0; i < real.getNameCount(); i++) {
            on = on.resolve(real.getName(i));
            final Node n = node(on);
            if (!n.directory()) {
                throw refuse(dir, on, "changed while cctk checked it (it is no longer a directory)");
            }
            judgeDirectory(dir, on, n, i == real.getNameCount() - 1);
        }
        return dir;
    }

    /**
     * Nothing or a file cctk may replace at {@code file}: absent, or a regular file of this user's with one link;
     * else a CctkException(USAGE) naming it. A file another user planted is never written, renamed over or reused.
     */
    public static void replaceable(final Path file) throws IOException {
        final Path abs = file.toAbsolutePath();
        if (!unix(abs.getParent() == null ? abs : abs.getParent())) {
            return;
        }
        final Node n = nodeOrNull(abs);
        if (n == null) {
            return;
        }
        final String why = n.link() ? "is a symbolic link, and cctk never writes through one"
            : !n.regular() ? "is not a regular file"
            : n.uid() != me() ? "belongs to another user (uid " + n.uid() + "), who may have planted it to read or"
                + " change what cctk writes there"
            : n.links() != 1 ? "has " + n.links() + " hard links, so it is also a file elsewhere" : null;
        if (why != null) {
            throw CctkException.usage("cctk will not write " + Printable.of(abs.toString()) + ": it " + why
                + ". Remove it, or name another output directory.");
        }
    }

    private static void judgeDirectory(final Path asked, final Path p, final Node n, final boolean last) {
        if (n.uid() != me() && (last || n.uid() != ROOT)) {
            throw refuse(asked, p, last, "belongs to another user (uid " + n.uid() + "), who could read, change or"
                + " replace what cctk writes there");
        }
        if (n.openToOthers()) {
            throw refuse(asked, p, last, "can be written by other users (mode " + n.octal() + ") and is not sticky,"
                + " so they could plant files there or swap what cctk made for their own ('chmod go-w' mends that)");
        }
    }

    private static CctkException refuse(final Path asked, final Path p, final String why) {
        return refuse(asked, p, false, why);
    }

    /** The one-paragraph refusal; {@code last}: {@code p} is where {@code asked} leads, not a directory above it. */
    private static CctkException refuse(final Path asked, final Path p, final boolean last, final String why) {
        final String where = p.equals(asked.toAbsolutePath()) ? "it"
            : Printable.of(p.toString()) + (last ? ", where it leads," : ", on its way,");
        return CctkException.usage("cctk will not write into " + Printable.of(asked.toString()) + ": " + where + " "
            + why + ". Name a directory that only you control (e.g. one under your home directory) with -o or the"
            + " spec's job.output_dir, or make this one yours alone.");
    }

    private static boolean unix(final Path p) {
        return p.getFileSystem().supportedFileAttributeViews().contains("unix");
    }

    private static Node nodeOrNull(final Path p) throws IOException {
        try {
            return node(p);
        } catch (final NoSuchFileException e) {
            return null;
        }
    }

    private static Node node(final Path p) throws IOException {
        final Map<String, Object> a = Files.readAttributes(p, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        return new Node((Integer) a.get("mode"), ((Integer) a.get("uid")).longValue() & 0xFFFF_FFFFL,
            (Integer) a.get("nlink"));
    }
}
