package cctk.spec;

import cctk.CctkException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Collects every problem of one spec so that the user sees them all at once, not one per run. */
final class Problems {

    private final Path file;
    private final List<Where> places = new ArrayList<>();
    private final List<String> lines = new ArrayList<>();

    Problems(final Path file) {
        this.file = file;
    }

    /** A problem at a place: {@code FILE:LINE:COL: key.path: message}. */
    void add(final Where where, final String keyPath, final String message) {
        places.add(where);
        lines.add(where + ": " + (keyPath.isEmpty() ? "" : keyPath + ": ") + message);
    }

    /** The usual shape of a problem: {@code expected X, found Y}. */
    void expected(final SpecValue value, final String keyPath, final String expected) {
        add(value.where(), keyPath, "expected " + expected + ", found " + value.found());
    }

    Path file() {
        return file;
    }

    /** {@code expected X, found Y} followed by a hint such as {@code ; did you mean 'z'?}. */
    void expected(final SpecValue value, final String keyPath, final String expected, final String hint) {
        add(value.where(), keyPath, "expected " + expected + ", found " + value.found() + hint);
    }

    boolean isEmpty() {
        return lines.isEmpty();
    }

    int size() {
        return lines.size();
    }

    /** Throws the collected problems as one usage error; does nothing when there are none. */
    void throwIfAny() {
        if (!lines.isEmpty()) {
            throw failure();
        }
    }

    CctkException failure() {
        final StringBuilder b = new StringBuilder();
        b.append(lines.size()).append(lines.size() == 1 ? " problem in " : " problems in ").append(file);
        for (final int i : inFileOrder()) {
            b.append('\n').append(lines.get(i));
        }
        return CctkException.usage(b.toString());
    }

    /** Problems sorted by place: files in the order they first appear, then line and column. */
    private List<Integer> inFileOrder() {
        final List<Path> files = new ArrayList<>();
        places.forEach(w -> {
            if (!files.contains(w.file())) {
                files.add(w.file());
            }
        });
        final List<Integer> order = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingInt(i -> files.indexOf(places.get(i).file()))
                .thenComparingInt(i -> places.get(i).line()).thenComparingInt(i -> places.get(i).column()));
        return order;
    }

    /** One problem that stops reading a file at once (empty, binary, too big, not YAML). */
    static CctkException fatal(final Path file, final Where where, final String message) {
        final Problems p = new Problems(file);
        p.add(where, "", message);
        return p.failure();
    }

    /** Text made safe to print on one terminal line: control characters become escapes. */
    static String printable(final String s) {
        final StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            if (c == '\n') {
                b.append("\\n");
            } else if (c == '\t') {
                b.append("\\t");
            } else if (Character.isISOControl(c)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
