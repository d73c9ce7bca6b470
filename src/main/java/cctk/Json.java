package cctk;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

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
    private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]{0,18})");

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
        final JsonWriter w = new JsonWriter(out);
        w.setIndent("  ");
        w.setSerializeNulls(true);
        value(w, value);
        w.flush();
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
        try {
            return parse(new StringReader(text));
        } catch (final IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * The one value of {@code in} (not closed). Malformed JSON is an {@link IllegalArgumentException} naming line,
     * column and path; an {@link IOException} is the reader's own failure.
     */
    public static Object parse(final Reader in) throws IOException {
        final JsonReader r = new JsonReader(in);
        r.setStrictness(Strictness.STRICT);
        r.setNestingLimit(MAX_DEPTH);
        try {
            final Object v = read(r);
            if (r.peek() != JsonToken.END_DOCUMENT) {
                throw new IllegalArgumentException("not valid JSON: more than one JSON value, at " + where(r));
            }
            return v;
        } catch (final IllegalStateException | com.google.gson.JsonParseException | java.io.EOFException e) {
            throw new IllegalArgumentException("not valid JSON: " + reason(e.getMessage()), e);
        } catch (final IOException e) {
            if (e.getClass() == com.google.gson.stream.MalformedJsonException.class) {
                throw new IllegalArgumentException("not valid JSON: " + reason(e.getMessage()), e);
            }
            throw e;
        }
    }

    private static Object read(final JsonReader r) throws IOException {
        switch (r.peek()) {
            case BEGIN_OBJECT -> {
                final Map<String, Object> m = new LinkedHashMap<>();
                r.beginObject();
                while (r.hasNext()) {
                    final String key = r.nextName();
                    if (m.containsKey(key)) {
                        throw new IllegalArgumentException("not valid JSON: duplicate key '" + Printable.of(key)
                            + "' at " + where(r));
                    }
                    m.put(key, read(r));
                }
                r.endObject();
                return m;
            }
            case BEGIN_ARRAY -> {
                final List<Object> l = new ArrayList<>();
                r.beginArray();
                while (r.hasNext()) {
                    l.add(read(r));
                }
                r.endArray();
                return l;
            }
            case STRING -> {
                return r.nextString();
            }
            case NUMBER -> {
                return number(r.nextString(), r);
            }
            case BOOLEAN -> {
                return r.nextBoolean();
            }
            case NULL -> {
                r.nextNull();
                return null;
            }
            default -> throw new IllegalArgumentException("a value, at " + where(r));
        }
    }

    private static Object number(final String text, final JsonReader r) {
        if (INTEGER.matcher(text).matches()) {
            try {
                return Long.parseLong(text);
            } catch (final NumberFormatException e) {
                // beyond 64 bits: read as a double below
            }
        }
        final double d = Double.parseDouble(text);
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("not valid JSON: the number " + Printable.of(text)
                + " is out of range, at " + where(r));
        }
        return d;
    }

    private static String where(final JsonReader r) {
        final String s = r.toString();
        final int at = s.indexOf(" at ");
        return at < 0 ? s : s.substring(at + 4);
    }

    /** Gson's message without its troubleshooting link and its advice to read leniently. */
    private static String reason(final String message) {
        final String first = message == null ? "malformed JSON" : message.lines().findFirst().orElse(message);
        return first.replace("Use JsonReader.setStrictness(Strictness.LENIENT) to accept malformed JSON",
            "malformed JSON").replace("End of input", "the text ends early (truncated?)");
    }
}
