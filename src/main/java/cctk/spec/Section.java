package cctk.spec;

import cctk.spec.SpecValue.Kind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Typed reads of one mapping of a spec. Every read records the key as known, so {@link #finish()} can name the
 * unknown ones; every bad value becomes a problem and the read returns the default, so that all problems of a
 * file are found in one pass.
 */
final class Section {

    private static final Pattern DECIMAL = Pattern.compile("-?(0|[1-9][0-9]*)");

    private final SpecValue value;
    private final String path;
    private final Problems problems;
    private final Set<String> known = new LinkedHashSet<>();
    private final Where at;

    /** A section; {@code at} is where problems about a missing section point (its parent). */
    Section(final SpecValue value, final String path, final Problems problems, final Where at) {
        this.value = value;
        this.path = path;
        this.problems = problems;
        this.at = value == null ? at : value.where();
    }

    Where at() {
        return at;
    }

    Problems problems() {
        return problems;
    }

    /** The key path of a key of this section, e.g. {@code resources.nodes}. */
    String keyPath(final String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** The raw value of a key, or null when absent (or written as nothing). */
    SpecValue get(final String key) {
        known.add(key);
        if (value == null) {
            return null;
        }
        final SpecValue v = value.map().get(key);
        return v == null || v.kind() == Kind.NULL ? null : v;
    }

    boolean has(final String key) {
        return get(key) != null;
    }

    /** The mapping under a key; an empty section when absent, a problem when it is not a mapping. */
    Section section(final String key) {
        final SpecValue v = get(key);
        if (v != null && v.kind() != Kind.MAP) {
            problems.expected(v, keyPath(key), "a mapping");
            return new Section(null, keyPath(key), problems, v.where());
        }
        return new Section(v, keyPath(key), problems, at);
    }

    /** Entries of this section in file order (for the free-form env sections). */
    Map<String, SpecValue> entries() {
        return value == null ? Map.of() : value.map();
    }

    Where keyWhere(final String key) {
        return value.keys().get(key);
    }

    String string(final String key, final String fallback) {
        final SpecValue v = get(key);
        return v == null ? fallback : text(v, keyPath(key), fallback);
    }

    String requiredString(final String key) {
        final SpecValue v = get(key);
        if (v == null) {
            missing(key, "a string");
            return null;
        }
        return text(v, keyPath(key), null);
    }

    /** A scalar as text: strings, and numbers written without quotes (an account such as 1234). */
    String text(final SpecValue v, final String keyPath, final String fallback) {
        if (v.kind() != Kind.STRING && v.kind() != Kind.INT && v.kind() != Kind.FLOAT) {
            problems.expected(v, keyPath, "a string");
            return fallback;
        }
        if (!safe(v, keyPath)) {
            return fallback;
        }
        return v.text();
    }

    /** Strings end up in #SBATCH lines and shell: no newlines or other control characters. */
    boolean safe(final SpecValue v, final String keyPath) {
        for (int i = 0; i < v.text().length(); i++) {
            if (Character.isISOControl(v.text().charAt(i))) {
                problems.expected(v, keyPath, "text without newlines or control characters");
                return false;
            }
        }
        return true;
    }

    /** A true/false value at {@code key}, or {@code fallback} when absent; anything else is a problem. */
    boolean bool(final String key, final boolean fallback) {
        final SpecValue v = get(key);
        if (v == null) {
            return fallback;
        }
        if (v.kind() != SpecValue.Kind.BOOL) {
            problems().expected(v, keyPath(key), "true or false");
            return fallback;
        }
        final String t = v.text().toLowerCase(java.util.Locale.ROOT);
        return t.equals("true") || t.equals("yes") || t.equals("on") || t.equals("y");
    }

    int integer(final String key, final int min, final int max, final int fallback) {
        final SpecValue v = get(key);
        return v == null ? fallback : integer(v, keyPath(key), min, max, fallback);
    }

    int requiredInteger(final String key, final int min, final int max) {
        final SpecValue v = get(key);
        if (v == null) {
            missing(key, "an integer " + range(min, max));
            return min;
        }
        return integer(v, keyPath(key), min, max, min);
    }

    int integer(final SpecValue v, final String keyPath, final int min, final int max, final int fallback) {
        if (v.kind() != Kind.INT || !DECIMAL.matcher(v.text()).matches()) {
            problems.expected(v, keyPath, "a decimal integer " + range(min, max));
            return fallback;
        }
        final long n = v.text().length() > 12 ? Long.MAX_VALUE : Long.parseLong(v.text());
        if (n < min || n > max) {
            problems.expected(v, keyPath, "an integer " + range(min, max));
            return fallback;
        }
        return (int) n;
    }

    static String range(final int min, final int max) {
        if (max == Integer.MAX_VALUE) {
            return ">= " + min;
        }
        return "from " + min + " to " + max;
    }

    /** A list of strings; a missing key gives the fallback. */
    List<String> strings(final String key, final List<String> fallback) {
        final SpecValue v = get(key);
        if (v == null) {
            return fallback;
        }
        if (v.kind() != Kind.LIST) {
            problems.expected(v, keyPath(key), "a list of strings");
            return fallback;
        }
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < v.list().size(); i++) {
            final String s = text(v.list().get(i), keyPath(key) + "[" + i + "]", null);
            if (s != null) {
                out.add(s);
            }
        }
        return List.copyOf(out);
    }

    /** A list of items, or one item standing for a list of one. */
    List<SpecValue> listOrOne(final String key) {
        final SpecValue v = get(key);
        if (v == null) {
            return null;
        }
        return v.kind() == Kind.LIST ? v.list() : List.of(v);
    }

    void missing(final String key, final String expected) {
        problems.add(at, keyPath(key), "required; expected " + expected + ", found nothing");
    }

    /** Reports every key of this section that no read asked for, with the closest known key. */
    void finish() {
        if (value == null) {
            return;
        }
        for (final String key : value.map().keySet()) {
            if (!known.contains(key)) {
                final String hint = Suggestions.closest(key, known) == null
                        ? "; known keys: " + String.join(", ", known) : Suggestions.didYouMean(key, known);
                problems.add(value.keys().get(key), keyPath(key), "unknown key" + hint);
            }
        }
    }
}
