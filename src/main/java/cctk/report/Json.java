package cctk.report;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * cctk's one JSON encoder: maps (insertion order kept), lists, strings, numbers, booleans and null
 * to pretty-printed JSON. Non-finite numbers become null, as JSON has no NaN.
 */
public final class Json {

    private Json() {
    }

    /** {@code value} as JSON text, indented by two spaces, ending without a newline. */
    public static String write(final Object value) {
        final StringBuilder sb = new StringBuilder();
        append(sb, value, 0);
        return sb.toString();
    }

    private static void append(final StringBuilder sb, final Object v, final int depth) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Map<?, ?> map) {
            appendEntries(sb, map.entrySet().iterator(), depth, '{', '}', true);
        } else if (v instanceof List<?> list) {
            appendEntries(sb, list.iterator(), depth, '[', ']', false);
        } else if (v instanceof Double || v instanceof Float) {
            final double d = ((Number) v).doubleValue();
            sb.append(Double.isFinite(d) ? Double.toString(d) : "null");
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else {
            quote(sb, v.toString());
        }
    }

    private static void appendEntries(final StringBuilder sb, final Iterator<?> it, final int depth,
                                      final char open, final char close, final boolean keyed) {
        sb.append(open);
        if (!it.hasNext()) {
            sb.append(close);
            return;
        }
        while (it.hasNext()) {
            sb.append('\n').append("  ".repeat(depth + 1));
            final Object item = it.next();
            if (keyed) {
                final Map.Entry<?, ?> e = (Map.Entry<?, ?>) item;
                quote(sb, String.valueOf(e.getKey()));
                sb.append(": ");
                append(sb, e.getValue(), depth + 1);
            } else {
                append(sb, item, depth + 1);
            }
            if (it.hasNext()) {
                sb.append(',');
            }
        }
        sb.append('\n').append("  ".repeat(depth)).append(close);
    }

    private static void quote(final StringBuilder sb, final String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
