package cctk.spec;

import java.util.List;
import java.util.Map;

/**
 * One YAML value of a spec, detached from SnakeYAML: a scalar with its resolved kind, a mapping or a list,
 * with where it was written. Mappings keep the place of every key for unknown-key problems.
 *
 * @param kind  what YAML resolved the value to
 * @param text  the scalar text as written (null for mappings and lists)
 * @param map   entries of a mapping in file order (empty otherwise)
 * @param keys  where each key of a mapping was written
 * @param list  items of a list (empty otherwise)
 * @param where where the value starts
 */
record SpecValue(Kind kind, String text, Map<String, SpecValue> map, Map<String, Where> keys,
                 List<SpecValue> list, Where where) {

    /** What a YAML node resolved to; plain scalars get INT/FLOAT/BOOL/NULL by the YAML 1.1 rules. */
    enum Kind {
        STRING("a string"), INT("an integer"), FLOAT("a number"), BOOL("a boolean"), NULL("nothing"),
        MAP("a mapping"), LIST("a list");

        private final String noun;

        Kind(final String noun) {
            this.noun = noun;
        }

        String noun() {
            return noun;
        }
    }

    static SpecValue scalar(final Kind kind, final String text, final Where where) {
        return new SpecValue(kind, text, Map.of(), Map.of(), List.of(), where);
    }

    boolean isScalar() {
        return kind != Kind.MAP && kind != Kind.LIST;
    }

    /** How a problem names what was found: the kind, plus the text of a short scalar. */
    String found() {
        if (!isScalar() || kind == Kind.NULL) {
            return kind.noun();
        }
        final String shown = text.length() > 40 ? text.substring(0, 40) + "..." : text;
        return kind.noun() + " '" + Problems.printable(shown) + "'";
    }
}
