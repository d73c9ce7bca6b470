package cctk.analysis;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The lines of a text file read as a stream, never the whole file at once: strict UTF-8 (a malformed byte ends the
 * read with an {@link IOException}), a byte order mark dropped, CR LF or LF ends, a NUL byte taken as a binary
 * file, and a line longer than {@link #MAX_LINE} characters returned as {@link #TOO_LONG} without being kept.
 * <b>Note:</b> not threadsafe.
 */
final class LineSource implements Closeable {

    /** The longest line kept, in characters: a cctk CSV row is a few hundred. */
    static final int MAX_LINE = 1 << 16;
    /** Stands for a line longer than {@link #MAX_LINE} (compare by identity). */
    static final String TOO_LONG = new String("(too long)");

    /** A file holding NUL bytes: not text. */
    static final class BinaryException extends IOException {
        private static final long serialVersionUID = 1L;

        BinaryException() {
            super("a binary file (NUL bytes)");
        }
    }

    private final Reader in;
    private final char[] buf = new char[1 << 16];
    private final StringBuilder line = new StringBuilder();
    private int pos;
    private int end;
    private boolean first = true;
    private int number;

    private LineSource(final Reader in) {
        this.in = in;
    }

    static LineSource open(final Path file) throws IOException {
        return new LineSource(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)));
    }

    /** The number (1-based) of the line {@link #next} returned last. */
    int number() {
        return number;
    }

    /** The next line without its end, {@link #TOO_LONG}, or null at the end of the file. */
    String next() throws IOException {
        line.setLength(0);
        boolean any = false;
        boolean tooLong = false;
        while (true) {
            if (pos == end) {
                end = in.read(buf, 0, buf.length);
                pos = 0;
                if (end <= 0) {
                    end = 0;
                    if (!any) {
                        return null;
                    }
                    break;
                }
                if (first) {
                    first = false;
                    pos = buf[0] == '\uFEFF' ? 1 : 0;
                    continue;
                }
            }
            any = true;
            final int start = pos;
            while (pos < end && buf[pos] != '\n') {
                if (buf[pos] == '\0') {
                    throw new BinaryException();
                }
                pos++;
            }
            if (!tooLong) {
                line.append(buf, start, pos - start);
                if (line.length() > MAX_LINE) {
                    tooLong = true;
                    line.setLength(0);
                }
            }
            if (pos < end) {
                pos++;
                break;
            }
        }
        number++;
        if (tooLong) {
            return TOO_LONG;
        }
        final int n = line.length();
        return n > 0 && line.charAt(n - 1) == '\r' ? line.substring(0, n - 1) : line.toString();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
