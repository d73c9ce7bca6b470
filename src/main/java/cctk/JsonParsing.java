package cctk;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@link Json}'s reading side, over Gson's streaming reader in strict mode.
 * <b>Note:</b> threadsafe (no state).
 */
final class JsonParsing {

    private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]{0,18})");

    private JsonParsing() {
    }

    /** See {@link Json#parse(String)}. */
    static Object parse(final String text) {
        try {
            return parse(new StringReader(text));
        } catch (final IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** See {@link Json#parse(Reader)}. */
    static Object parse(final Reader in) throws IOException {
        final JsonReader r = new JsonReader(in);
        r.setStrictness(Strictness.STRICT);
        r.setNestingLimit(Json.MAX_DEPTH);
        try {
            final Object v = read(r);
            if (r.peek() != JsonToken.END_DOCUMENT) {
                throw new IllegalArgumentException("not valid JSON: more than one JSON value, at " + where(r));
            }
            return v;
        } catch (final IllegalStateException | java.io.EOFException e) {
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
