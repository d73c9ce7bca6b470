package cctk.results;

import java.io.FilterReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A result file's characters, as the CSV and JSON readers take them: strict UTF-8 (a malformed byte ends the read
 * with a {@link java.nio.charset.CharacterCodingException}), a leading byte order mark dropped, a NUL character
 * taken as a binary file ({@link BinaryException}), and a count of the quote characters passed, so that a CSV cut
 * inside a quoted cell can be told from a whole one ({@link #quotesOpen}).
 * <b>Note:</b> not threadsafe.
 */
public final class TextInput extends FilterReader {

    /** A file holding NUL bytes: not text. */
    public static final class BinaryException extends IOException {
        private static final long serialVersionUID = 1L;

        BinaryException() {
            super("a binary file (NUL bytes)");
        }
    }

    private boolean first = true;
    private long quotes;

    private TextInput(final Reader in) {
        super(in);
    }

    /** The text of {@code file}. */
    public static TextInput open(final Path file) throws IOException {
        return new TextInput(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)));
    }

    /** Whether an odd number of quote characters has passed: the text ends inside a quoted CSV cell. */
    boolean quotesOpen() {
        return (quotes & 1) == 1;
    }

    @Override
    public int read() throws IOException {
        final char[] one = new char[1];
        return read(one, 0, 1) < 0 ? -1 : one[0];
    }

    @Override
    public int read(final char[] buf, final int off, final int len) throws IOException {
        int n = in.read(buf, off, len);
        if (n > 0 && first) {
            first = false;
            if (buf[off] == '\uFEFF') {
                System.arraycopy(buf, off + 1, buf, off, n - 1);
                n--;
                if (n == 0) {
                    return read(buf, off, len);
                }
            }
        }
        for (int i = off; i < off + n; i++) {
            if (buf[i] == '\0') {
                throw new BinaryException();
            }
            if (buf[i] == '"') {
                quotes++;
            }
        }
        return n;
    }
}
