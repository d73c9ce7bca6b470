package cctk.results;

import cctk.Json;
import cctk.OwnerFiles;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A JSON object written as it grows, so that the file parses after every step: its head fields and the opening of
 * its last array once ({@link #open}), then elements of that array a few at a time ({@link #add}), each followed by a
 * fixed closing of the array and the object that the next element overwrites; {@link #finish}
 * closes the array and writes the fields after it. Each step writes only its own bytes, in one write, and the text
 * is what {@link Json#write} makes of the whole object (one encoder, one format). When a write fails, the closing
 * is put back after the last element written, so the file still parses.
 * <b>Note:</b> not threadsafe (its owner serialises calls).
 */
final class JsonPartFile implements AutoCloseable {

    /** What closes the array (at depth one, as the encoder indents it) and the object while elements may come. */
    private static final String CLOSING = "\n  ]\n}\n";
    private static final int CLOSING_BYTES = CLOSING.length();
    /** UTF-8 takes at most three bytes per char (four per surrogate pair). */
    private static final int MAX_BYTES_PER_CHAR = 3;

    private final SeekableByteChannel channel;
    private final StringWriter text = new StringWriter();
    private final JsonWriter json = Json.writer(text);
    private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
        .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    private ByteBuffer bytes = ByteBuffer.allocate(1 << 12);
    /** Where the closing starts: the length of the document without it. */
    private long end;
    /** Why a write failed: the encoder then counts elements the file lacks, so no more are added. */
    private IOException failed;

    private JsonPartFile(final SeekableByteChannel channel) {
        this.channel = channel;
    }

    /**
     * Creates {@code file} (owner-only, through {@link OwnerFiles}) with the fields of {@code head} and an empty
     * array named {@code array}, closed; when that fails, the file is removed.
     */
    static JsonPartFile open(final Path file, final Map<String, Object> head, final String array) throws IOException {
        final JsonPartFile f = new JsonPartFile(OwnerFiles.newChannel(file));
        try {
            f.json.beginObject();
            f.fields(head);
            f.json.name(array);
            f.json.beginArray();
            f.commit(true);
            return f;
        } catch (IOException | RuntimeException e) {
            f.close();
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /**
     * Appends {@code elements} to the array, in one write; the file parses before and after. After a failed write
     * nothing more is added: this fails again, with the same reason.
     */
    void add(final List<?> elements) throws IOException {
        if (failed != null) {
            throw new IOException(failed.getMessage(), failed);
        }
        for (final Object e : elements) {
            Json.value(json, e);
        }
        commit(true);
    }

    /** Closes the array, writes the fields of {@code tail} after it and ends the document with a line break. */
    void finish(final Map<String, Object> tail) throws IOException {
        json.endArray();
        fields(tail);
        json.endObject();
        json.flush();
        text.write('\n');
        commit(false);
        channel.truncate(end);
    }

    /** Closes the file as it stands. */
    @Override
    public void close() throws IOException {
        channel.close();
    }

    private void fields(final Map<String, Object> fields) throws IOException {
        for (final Map.Entry<String, Object> e : fields.entrySet()) {
            json.name(e.getKey());
            Json.value(json, e.getValue());
        }
    }

    /** Writes the text made since the last commit at {@link #end}, with the closing after it when {@code open}. */
    private void commit(final boolean open) throws IOException {
        json.flush();
        if (open) {
            text.write(CLOSING);
        }
        try {
            encode();
            final long length = bytes.remaining() - (open ? CLOSING_BYTES : 0);
            writeAt(end);
            end += length;
        } catch (final IOException e) {
            failed = e;
            restore(e);
            throw e;
        } finally {
            text.getBuffer().setLength(0);
        }
    }

    /** The text as UTF-8 in {@link #bytes}, ready to write (a bad surrogate becomes '?', as in a String's bytes). */
    private void encode() {
        final StringBuffer chars = text.getBuffer();
        if (bytes.capacity() < chars.length() * MAX_BYTES_PER_CHAR) {
            bytes = ByteBuffer.allocate(chars.length() * MAX_BYTES_PER_CHAR * 2);
        }
        bytes.clear();
        utf8.reset();
        utf8.encode(CharBuffer.wrap(chars), bytes, true);
        utf8.flush(bytes);
        bytes.flip();
    }

    private void writeAt(final long position) throws IOException {
        channel.position(position);
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    /** After a failed write: the closing again after the last element written, and nothing past it. */
    private void restore(final IOException failure) {
        if (end == 0) {
            return; // the head never fit: there is no document to keep
        }
        try {
            bytes.clear();
            bytes.put(CLOSING.getBytes(StandardCharsets.US_ASCII)).flip();
            writeAt(end);
            channel.truncate(end + CLOSING_BYTES);
        } catch (final IOException e) {
            failure.addSuppressed(e);
        }
    }
}
