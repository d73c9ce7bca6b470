package cctk;

import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.Writer;
import java.util.List;
import java.util.Map;

/**
 * cctk's one JSON encoder and decoder, over Gson's streaming writer and reader. Values are maps (key order kept,
 * string keys), lists, strings, numbers, booleans and null. Writing: pretty-printed, two spaces; a non-finite
 * number becomes null, as JSON has no NaN. Reading is strict RFC 8259 (no comments, no {@code +1}, no {@code \x},
 * no raw control characters, one document): a duplicate key is an error, integers come back as {@link Long} (exact
 * to 2^63 - 1), other numbers as {@link Double}; nesting stops at {@link #MAX_DEPTH}.
 * <b>Note:</b> threadsafe (no state).
 */
public final class Json {

    /** The deepest nesting read. */
    public static final int MAX_DEPTH = 64;

    private Json() {
    }

    /** {@code value} as JSON text, indented by two spaces, ending without a newline. */
    public static String write(final Object value) {
        final StringWriter out = new StringWriter();
        try {
            write(out, value);
        } catch (final IOException e) {
            throw new IllegalStateException("a StringWriter cannot fail", e);
        }
        return out.toString();
    }

    /** Writes {@code value} to {@code out} (not closed). */
    public static void write(final Writer out, final Object value) throws IOException {
        final JsonWriter w = writer(out);
        value(w, value);
        w.flush();
    }

    /**
     * A streaming writer over {@code out} that formats as {@link #write} does: for documents written piece by piece
     * (with {@link #value}), which then read the same as one written whole.
     */
    public static JsonWriter writer(final Writer out) {
        final JsonWriter w = new JsonWriter(out);
        w.setIndent("  ");
        w.setSerializeNulls(true);
        return w;
    }

    /** Writes one value through an open writer: for documents streamed piece by piece. */
    public static void value(final JsonWriter w, final Object v) throws IOException {
        if (v == null) {
            w.nullValue();
        } else if (v instanceof Map<?, ?> map) {
            w.beginObject();
            for (final Map.Entry<?, ?> e : map.entrySet()) {
                w.name(String.valueOf(e.getKey()));
                value(w, e.getValue());
            }
            w.endObject();
        } else if (v instanceof List<?> list) {
            w.beginArray();
            for (final Object item : list) {
                value(w, item);
            }
            w.endArray();
        } else if (v instanceof Double || v instanceof Float) {
            final double d = ((Number) v).doubleValue();
            if (Double.isFinite(d)) {
                w.value(d);
            } else {
                w.nullValue();
            }
        } else if (v instanceof Number n) {
            w.value(n.longValue());
        } else if (v instanceof Boolean b) {
            w.value(b.booleanValue());
        } else {
            w.value(v.toString());
        }
    }

    /** The one value of {@code text}; an {@link IllegalArgumentException} naming line, column and path if bad. */
    public static Object parse(final String text) {
        return JsonParsing.parse(text);
    }

    /**
     * The one value of {@code in} (not closed). Malformed JSON is an {@link IllegalArgumentException} naming line,
     * column and path; an {@link IOException} is the reader's own failure. (Reading lives in its own class, so a
     * process that only writes JSON never loads it.)
     */
    public static Object parse(final Reader in) throws IOException {
        return JsonParsing.parse(in);
    }
}
