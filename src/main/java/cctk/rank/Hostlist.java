package cctk.rank;

import cctk.CctkException;
import java.util.ArrayList;
import java.util.List;

/**
 * Expands Slurm hostlist expressions ({@code nid[001-004,007]}, {@code gpu-[01-02]x[1-2]}) into host names, in the
 * order {@code scontrol show hostnames} prints them: duplicates and order kept, zero padding taken from the low
 * bound, commas inside brackets do not separate hosts. With several bracket groups the last one varies fastest;
 * each earlier group is an outer loop around the ones before it (Slurm's recursion order, not lexicographic).
 * Text after the last bracket is accepted, as Slurm 23.11 and later do. <b>Note:</b> stateless, threadsafe.
 */
public final class Hostlist {

    /** Slurm's MAX_RANGE: at most this many hosts from one range. */
    static final int MAX_RANGE = 65_536;

    private Hostlist() {
    }

    /** The hosts of {@code expression}; throws CctkException(USAGE) saying what is wrong with it. */
    public static List<String> expand(final String expression) {
        final List<String> hosts = new ArrayList<>();
        for (final String item : items(expression)) {
            expandItem(expression, item, hosts);
        }
        if (hosts.isEmpty()) {
            throw invalid(expression, "it names no host");
        }
        return List.copyOf(hosts);
    }

    /** Splits at commas and whitespace outside brackets. */
    private static List<String> items(final String expression) {
        final List<String> items = new ArrayList<>();
        final StringBuilder item = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < expression.length(); i++) {
            final char c = expression.charAt(i);
            if (c == '[') {
                if (depth > 0) {
                    throw invalid(expression, "'[' inside brackets");
                }
                depth++;
            } else if (c == ']') {
                if (depth == 0) {
                    throw invalid(expression, "']' without '['");
                }
                depth--;
            }
            if (depth == 0 && (c == ',' || Character.isWhitespace(c))) {
                if (item.length() > 0) {
                    items.add(item.toString());
                    item.setLength(0);
                }
            } else {
                item.append(c);
            }
        }
        if (depth != 0) {
            throw invalid(expression, "a '[' is not closed");
        }
        if (item.length() > 0) {
            items.add(item.toString());
        }
        return items;
    }

    /** One item: text, then bracket groups each followed by optional text. */
    private static void expandItem(final String expression, final String item, final List<String> out) {
        final int first = item.indexOf('[');
        if (first < 0) {
            out.add(item);
            return;
        }
        // partial names so far; every new group but the last becomes the outer loop around them
        List<String> partial = List.of(item.substring(0, first));
        int pos = first;
        while (pos >= 0) {
            final int close = item.indexOf(']', pos);
            final List<String> values = rangeValues(expression, item.substring(pos + 1, close));
            final int next = item.indexOf('[', close);
            final String text = item.substring(close + 1, next < 0 ? item.length() : next);
            final List<String> grown = new ArrayList<>();
            if (next < 0) {
                for (final String p : partial) {
                    for (final String v : values) {
                        grown.add(p + v + text);
                    }
                }
            } else {
                for (final String v : values) {
                    for (final String p : partial) {
                        grown.add(p + v + text);
                    }
                }
            }
            partial = grown;
            pos = next;
        }
        out.addAll(partial);
    }

    /** {@code 001-004,007} as padded strings. */
    private static List<String> rangeValues(final String expression, final String ranges) {
        final List<String> values = new ArrayList<>();
        for (final String range : ranges.split(",", -1)) {
            final int dash = range.indexOf('-');
            final String low = dash < 0 ? range : range.substring(0, dash);
            final String high = dash < 0 ? range : range.substring(dash + 1);
            if (!isNumber(low) || !isNumber(high)) {
                throw invalid(expression, "invalid range '" + range + "'");
            }
            final long lo = Long.parseLong(low);
            final long hi = Long.parseLong(high);
            if (hi < lo) {
                throw invalid(expression, "invalid range '" + range + "': " + hi + " < " + lo);
            }
            if (hi - lo >= MAX_RANGE) {
                throw invalid(expression, "range '" + range + "' has more than " + MAX_RANGE + " hosts");
            }
            final String format = "%0" + low.length() + "d";
            for (long v = lo; v <= hi; v++) {
                values.add(String.format(format, v));
            }
        }
        return values;
    }

    private static boolean isNumber(final String s) {
        if (s.isEmpty() || s.length() > 18) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static CctkException invalid(final String expression, final String why) {
        return CctkException.usage("invalid Slurm hostlist '" + expression + "': " + why + ".");
    }
}
