package cctk.spec;

import java.nio.file.Path;

/**
 * A place in a spec file, 1-based, as problems print it ({@code FILE:LINE:COL}).
 *
 * @param file   the file as the user named it (or a profile resolved from it)
 * @param line   1-based line, 0 when the whole file is meant
 * @param column 1-based column
 */
record Where(Path file, int line, int column) {

    static Where wholeFile(final Path file) {
        return new Where(file, 0, 0);
    }

    @Override
    public String toString() {
        return line == 0 ? file.toString() : file + ":" + line + ":" + column;
    }
}
