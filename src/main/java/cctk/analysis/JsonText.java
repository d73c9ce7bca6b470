package cctk.analysis;

import cctk.Printable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON text back into maps (key order kept), lists, strings, doubles, booleans and null: the inverse of
 * {@link cctk.report.Json}, for result files. Strict: anything else is an {@link IllegalArgumentException}
 * naming the character offset.
 */
final class JsonText {

    private static final int MAX_DEPTH = 64;
    private static final java.util.regex.Pattern NUMBER =
        java.util.regex.Pattern.compile("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][-+]?\\d{1,5})?");

    private final String s;
    private int i;

    private JsonText(final String s) {
        this.s = s;
    }

    /** The one value of {@code text}. */
    static Object parse(final String text) {
        final JsonText p = new JsonText(text);
        p.space();
        final Object v = p.value(0);
        p.space();
        if (p.i != text.length()) {
            throw p.error("the end of the document");
        }
        return v;
    }

    private Object value(final int depth) {
        if (depth > MAX_DEPTH) {
            throw error("at most " + MAX_DEPTH + " levels of nesting");
        }
        if (i >= s.length()) {
            throw error("a value (the text ends early: truncated?)");
        }
        final char c = s.charAt(i);
        switch (c) {
            case '{': return object(depth);
            case '[': return array(depth);
            case '"': return string();
            case 't': return word("true", Boolean.TRUE);
            case 'f': return word("false", Boolean.FALSE);
            case 'n': return word("null", null);
            default: return number();
        }
    }

    private Map<String, Object> object(final int depth) {
        final Map<String, Object> m = new LinkedHashMap<>();
        i++;
        space();
        if (peek() == '}') {
            i++;
            return m;
        }
        while (true) {
            space();
            if (peek() != '"') {
                throw error("a quoted key");
            }
            final int at = i;
            final String key = string();
            space();
            expect(':');
            space();
            if (m.containsKey(key)) {
                i = at;
                throw error("no duplicate key '" + Printable.of(key) + "'");
            }
            m.put(key, value(depth + 1));
            space();
            if (peek() == ',') {
                i++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array(final int depth) {
        final List<Object> l = new ArrayList<>();
        i++;
        space();
        if (peek() == ']') {
            i++;
            return l;
        }
        while (true) {
            space();
            l.add(value(depth + 1));
            space();
            if (peek() == ',') {
                i++;
            } else {
                expect(']');
                return l;
            }
        }
    }

    private String string() {
        final StringBuilder sb = new StringBuilder();
        i++;
        while (i < s.length()) {
            final char c = s.charAt(i++);
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                i--;
                throw error("an escape (\\n, \\u001b, ...) for a control character inside a string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (i >= s.length()) {
                break;
            }
            final char e = s.charAt(i++);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'u' -> {
                    if (i + 4 > s.length()) {
                        throw error("four hex digits");
                    }
                    try {
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (final NumberFormatException ex) {
                        throw error("four hex digits");
                    }
                    i += 4;
                }
                case '"', '\\', '/' -> sb.append(e);
                default -> {
                    i--;
                    throw error("a JSON escape (one of \\\" \\\\ / b f n r t u)");
                }
            }
        }
        throw error("a closing quote (the text ends early: truncated?)");
    }

    private Object word(final String w, final Object v) {
        if (!s.startsWith(w, i)) {
            throw error("a JSON value");
        }
        i += w.length();
        return v;
    }

    private Double number() {
        final int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        final String t = s.substring(start, i);
        if (!NUMBER.matcher(t).matches()) {
            i = start;
            throw error("a JSON value");
        }
        return Double.valueOf(t);
    }

    private char peek() {
        if (i >= s.length()) {
            throw error("more text (the text ends early: truncated?)");
        }
        return s.charAt(i);
    }

    private void expect(final char c) {
        if (peek() != c) {
            throw error("'" + c + "'");
        }
        i++;
    }

    private void space() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private IllegalArgumentException error(final String expected) {
        final String found = i >= s.length() ? "the end" : "'" + Printable.of(String.valueOf(s.charAt(i))) + "'";
        int line = 1;
        int lineStart = 0;
        for (int k = 0; k < Math.min(i, s.length()); k++) {
            if (s.charAt(k) == '\n') {
                line++;
                lineStart = k + 1;
            }
        }
        return new IllegalArgumentException("not valid JSON at character " + i + " (line " + line + ", column "
            + (i - lineStart + 1) + "): expected " + expected + ", found " + found);
    }
}
