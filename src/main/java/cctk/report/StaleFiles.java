package cctk.report;

import cctk.OwnerFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The files a report made under names from data (plots, nccl-tests tables), listed in {@value #MANIFEST}, so that
 * the next report into the same directory first removes exactly those, and no plot of an earlier report stays mixed
 * with the new ones. Only a listed name of the form {@code plots/NAME.png} or {@code nccl-tests/NAME.txt} (the
 * alphabet of {@link FileNames}) that is a regular file, not a link, is removed: nothing else in the directory is
 * ever touched. A report written before the list existed is recognised by its {@code report.html}; then the plots
 * named as such a report named them are removed.
 * <b>Note:</b> threadsafe (no state).
 */
final class StaleFiles {

    /** The list of files, one relative path a line. */
    static final String MANIFEST = "report-files.txt";
    /** The longest list read. */
    private static final long MAX_BYTES = 4L << 20;
    private static final Pattern ENTRY = Pattern.compile(
        "(plots/[A-Za-z0-9_-][A-Za-z0-9._-]{0,120}\\.png|nccl-tests/[A-Za-z0-9_-][A-Za-z0-9._-]{0,120}\\.txt)");
    private static final Pattern EARLIER = Pattern.compile(
        "[A-Za-z0-9_-][A-Za-z0-9._-]{0,80}_(time|busbw)_vs_size(-[0-9]+)?\\.png"
            + "|comparison_at_[A-Za-z0-9._-]{1,80}\\.png");

    private StaleFiles() {
    }

    /** Removes the files the report in {@code dir} made before; returns how many. */
    static int remove(final Path dir) throws IOException {
        final Path list = dir.resolve(MANIFEST);
        int removed = 0;
        if (Files.isRegularFile(list, LinkOption.NOFOLLOW_LINKS) && Files.size(list) <= MAX_BYTES) {
            try (BufferedReader r = Files.newBufferedReader(list, StandardCharsets.UTF_8)) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    if (ENTRY.matcher(line).matches() && !line.contains("..")) {
                        removed += delete(dir, dir.resolve(line));
                    }
                }
            } catch (final java.nio.charset.CharacterCodingException e) {
                // not a list this report wrote: nothing in it is removed
            }
            return removed;
        }
        final Path plots = dir.resolve("plots");
        if (Files.isRegularFile(dir.resolve("report.html"), LinkOption.NOFOLLOW_LINKS)
            && Files.isDirectory(plots, LinkOption.NOFOLLOW_LINKS)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(plots)) {
                for (final Path p : ds) {
                    if (EARLIER.matcher(p.getFileName().toString()).matches()) {
                        removed += delete(dir, p);
                    }
                }
            }
        }
        return removed;
    }

    /** Writes the list of {@code files} (those under {@code dir}'s plots and nccl-tests directories). */
    static Path record(final Path dir, final List<Path> files) throws IOException {
        final StringBuilder sb = new StringBuilder();
        for (final Path f : files) {
            final String rel = dir.relativize(f).toString();
            if (ENTRY.matcher(rel).matches()) {
                sb.append(rel).append('\n');
            }
        }
        return OwnerFiles.string(dir.resolve(MANIFEST), sb.toString());
    }

    private static int delete(final Path dir, final Path file) throws IOException {
        final Path parent = file.getParent();
        if (parent == null || !parent.getParent().equals(dir) || Files.isSymbolicLink(parent)
            || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        return Files.deleteIfExists(file) ? 1 : 0;
    }
}
