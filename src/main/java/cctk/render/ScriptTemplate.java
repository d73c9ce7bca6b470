package cctk.render;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The whole template engine: {@code {{KEY}}} placeholders in a resource file are replaced by {@link ShellText}
 * (already quoted). A placeholder alone on its line whose text is empty takes its line with it, so optional
 * blocks leave no blank lines. Every placeholder needs a value and every value a placeholder, so a renamed key
 * fails the first test instead of rendering a broken script.
 */
final class ScriptTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Z][A-Z0-9_]*)}}");

    private final String name;
    private final String text;

    private ScriptTemplate(final String name, final String text) {
        this.name = name;
        this.text = text;
    }

    /** Loads a template from the classpath, next to this class. */
    static ScriptTemplate load(final String resource) {
        try (InputStream in = ScriptTemplate.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("template " + resource + " is missing from the cctk jar");
            }
            return new ScriptTemplate(resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read template " + resource, e);
        }
    }

    static ScriptTemplate of(final String name, final String text) {
        return new ScriptTemplate(name, text);
    }

    /** Fills every placeholder. */
    String fill(final Map<String, ShellText> values) {
        final Set<String> used = new HashSet<>();
        final StringBuilder out = new StringBuilder(text.length() * 2);
        for (final String line : text.split("\n", -1)) {
            final Matcher alone = PLACEHOLDER.matcher(line);
            if (alone.matches() && value(values, alone.group(1), used).text().isEmpty()) {
                continue;
            }
            final Matcher m = PLACEHOLDER.matcher(line);
            int from = 0;
            while (m.find()) {
                out.append(line, from, m.start()).append(value(values, m.group(1), used).text());
                from = m.end();
            }
            out.append(line, from, line.length()).append('\n');
        }
        out.setLength(out.length() - 1);
        final Set<String> unused = new HashSet<>(values.keySet());
        unused.removeAll(used);
        if (!unused.isEmpty()) {
            throw new IllegalStateException("template " + name + " has no place for " + unused);
        }
        return out.toString();
    }

    private ShellText value(final Map<String, ShellText> values, final String key, final Set<String> used) {
        final ShellText v = values.get(key);
        if (v == null) {
            throw new IllegalStateException("template " + name + " needs a value for {{" + key + "}}");
        }
        used.add(key);
        return v;
    }
}
