package cctk.spec;

import cctk.CctkException;
import cctk.IoErrors;
import cctk.spec.SpecValue.Kind;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads configs/*.yaml into a {@link JobSpec}. The only reader of YAML in cctk: SnakeYAML composes a node tree
 * (never objects), which becomes {@link SpecValue}s with file:line:column, then {@link SpecBuilder} checks it.
 * Hostile files (empty, binary, huge, alias bombs, deep nesting) stop at once with one clear problem.
 */
public final class SpecParser {

    /** Specs are a few hundred bytes; anything over this is not a spec. */
    static final int MAX_BYTES = 1 << 20;
    private static final int MAX_ALIASES = 16;
    private static final int MAX_NESTING = 16;
    private static final int MAX_EXTENDS = 4;

    private SpecParser() {
    }

    /**
     * Parses, resolves {@code extends:}, applies defaults and validates; throws a CctkException(USAGE)
     * listing every problem of the file with file:line:column and key path.
     */
    public static JobSpec parse(final Path file) {
        return parse(file, null);
    }

    /**
     * As {@link #parse(Path)}, from bytes whose SHA-256 must be {@code sha256} (hex; null: any), the digest the
     * launcher took of the file it handed to the ranks: a file changed since is a CctkException(ENVIRONMENT), and
     * nothing of it is used. The bytes are read once, so what is checked is what is parsed.
     */
    public static JobSpec parse(final Path file, final String sha256) {
        final Problems problems = new Problems(file);
        final SpecValue root = withProfiles(file, read(file, sha256), problems, new ArrayList<>());
        problems.throwIfAny();
        final JobSpec spec = SpecBuilder.build(file, root, problems);
        problems.throwIfAny();
        return spec;
    }

    /** Merges the chain of {@code extends:} profiles under a file's own keys (this file's keys win). */
    private static SpecValue withProfiles(final Path file, final SpecValue own, final Problems problems,
                                          final List<Path> chain) {
        chain.add(file.toAbsolutePath().normalize());
        final SpecValue ext = own.map().get("extends");
        final Map<String, SpecValue> rest = new LinkedHashMap<>(own.map());
        final Map<String, Where> keys = new LinkedHashMap<>(own.keys());
        rest.remove("extends");
        keys.remove("extends");
        final SpecValue body = new SpecValue(Kind.MAP, null, rest, keys, List.of(), own.where());
        if (ext == null) {
            return body;
        }
        if (ext.kind() != Kind.STRING || ext.text().isBlank()) {
            problems.expected(ext, "extends", "the path of a profile, relative to this file");
            return body;
        }
        final Path parent = file.getParent() == null ? Path.of(".") : file.getParent();
        final Path profile = parent.resolve(ext.text()).normalize();
        if (chain.contains(profile.toAbsolutePath().normalize()) || chain.size() > MAX_EXTENDS) {
            problems.add(ext.where(), "extends", "profiles extend each other in a loop or more than "
                    + MAX_EXTENDS + " deep: " + profile);
            return body;
        }
        if (!Files.isRegularFile(profile)) {
            problems.add(ext.where(), "extends", "no such profile: " + profile);
            return body;
        }
        final SpecValue base = withProfiles(profile, read(profile), problems, chain);
        return merge(base, body, 0);
    }

    /** Deep merge of two mappings: keys of {@code over} win; nested mappings merge key by key. */
    static SpecValue merge(final SpecValue base, final SpecValue over, final int depth) {
        if (base == null || base.kind() != Kind.MAP || over.kind() != Kind.MAP || depth > MAX_NESTING) {
            return over;
        }
        final Map<String, SpecValue> map = new LinkedHashMap<>(base.map());
        final Map<String, Where> keys = new LinkedHashMap<>(base.keys());
        for (final Map.Entry<String, SpecValue> e : over.map().entrySet()) {
            map.put(e.getKey(), merge(map.get(e.getKey()), e.getValue(), depth + 1));
            keys.put(e.getKey(), over.keys().get(e.getKey()));
        }
        return new SpecValue(Kind.MAP, null, map, keys, List.of(), over.where());
    }

    /** One file as a top-level mapping, or a CctkException(USAGE) naming why it is no spec at all. */
    static SpecValue read(final Path file) {
        return read(file, null);
    }

    private static SpecValue read(final Path file, final String sha256) {
        final String text = text(file, sha256);
        final LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setNestingDepthLimit(MAX_NESTING);
        options.setCodePointLimit(MAX_BYTES);
        options.setAllowRecursiveKeys(false);
        final Node node;
        try {
            node = new Yaml(options).compose(new StringReader(text));
        } catch (final MarkedYAMLException e) {
            final String what = e.getProblem() == null ? "not valid YAML" : e.getProblem();
            throw Problems.fatal(file, where(file, e.getProblemMark()), "not valid YAML: " + what);
        } catch (final YAMLException e) {
            throw Problems.fatal(file, Where.wholeFile(file), "refused: " + e.getMessage()
                    + " (specs may use at most " + MAX_ALIASES + " aliases and " + MAX_NESTING + " levels)");
        }
        if (node == null) {
            throw Problems.fatal(file, Where.wholeFile(file), "the file has no YAML content; a spec is a mapping"
                    + " with keys such as job, cluster, resources and benchmark");
        }
        if (!(node instanceof MappingNode)) {
            final SpecValue top = SpecValue.scalar(kindOf(node), null, where(file, node.getStartMark()));
            throw Problems.fatal(file, top.where(), "expected a mapping of keys (job, cluster, resources,"
                    + " benchmark) at the top, found " + top.kind().noun());
        }
        final Problems problems = new Problems(file);
        final SpecValue value = convert(node, file, "", 0, problems);
        problems.throwIfAny();
        return value;
    }

    private static String text(final Path file, final String sha256) {
        final byte[] bytes;
        try {
            if (!Files.exists(file)) {
                throw CctkException.usage("cannot read spec " + file + ": no such file");
            }
            if (Files.isDirectory(file)) {
                throw CctkException.usage("cannot read spec " + file + ": it is a directory; name a spec file in it,"
                        + " e.g. configs/local.yaml.");
            }
            if (!Files.isRegularFile(file)) {
                throw CctkException.usage("cannot read spec " + file + ": not a regular file");
            }
            final long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw Problems.fatal(file, Where.wholeFile(file), "the file is " + size
                        + " bytes; a spec is at most " + MAX_BYTES + " bytes (1 MiB)");
            }
            bytes = Files.readAllBytes(file);
        } catch (final IOException e) {
            throw CctkException.usage("cannot read spec " + file + ": " + IoErrors.reason(e) + ".");
        }
        if (sha256 != null) {
            SpecDigest.check(file, bytes, sha256);
        }
        for (final byte b : bytes) {
            if (b == 0) {
                throw Problems.fatal(file, Where.wholeFile(file), "this is a binary file (it holds NUL bytes),"
                        + " not a YAML spec");
            }
        }
        final String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (final CharacterCodingException e) {
            throw Problems.fatal(file, Where.wholeFile(file), "not UTF-8 text; a spec is a UTF-8 YAML file");
        }
        if (text.isBlank()) {
            throw Problems.fatal(file, Where.wholeFile(file), "the file is empty; a spec is a mapping with keys"
                    + " such as job, cluster, resources and benchmark");
        }
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    private static SpecValue convert(final Node node, final Path file, final String path, final int depth,
                                     final Problems problems) {
        final Where where = where(file, node.getStartMark());
        if (depth > MAX_NESTING) {
            problems.add(where, path, "nested more than " + MAX_NESTING + " levels deep (a recursive alias?)");
            return SpecValue.scalar(Kind.NULL, "", where);
        }
        if (node instanceof ScalarNode) {
            final ScalarNode s = (ScalarNode) node;
            final Kind kind = kindOf(node);
            if (kind == Kind.STRING && !s.getTag().equals(Tag.STR) && !s.getTag().equals(Tag.TIMESTAMP)) {
                problems.add(where, path, "YAML tag " + s.getTag() + " is not supported; write a plain value");
            }
            return SpecValue.scalar(kind, s.getValue(), where);
        }
        if (node instanceof SequenceNode) {
            final List<SpecValue> items = new ArrayList<>();
            for (final Node item : ((SequenceNode) node).getValue()) {
                items.add(convert(item, file, path + "[" + items.size() + "]", depth + 1, problems));
            }
            return new SpecValue(Kind.LIST, null, Map.of(), Map.of(), List.copyOf(items), where);
        }
        final Map<String, SpecValue> map = new LinkedHashMap<>();
        final Map<String, Where> keys = new LinkedHashMap<>();
        for (final NodeTuple t : ((MappingNode) node).getValue()) {
            final Node k = t.getKeyNode();
            final Where kw = where(file, k.getStartMark());
            if (!(k instanceof ScalarNode) || k.getTag().equals(Tag.MERGE)) {
                problems.add(kw, path, "keys must be plain names (no '<<' merge keys, lists or mappings as keys);"
                        + " use extends: to share settings");
                continue;
            }
            final String key = ((ScalarNode) k).getValue();
            final String keyPath = path.isEmpty() ? key : path + "." + key;
            if (keys.containsKey(key)) {
                problems.add(kw, keyPath, "duplicate key; first written at line " + keys.get(key).line());
                continue;
            }
            keys.put(key, kw);
            map.put(key, convert(t.getValueNode(), file, keyPath, depth + 1, problems));
        }
        return new SpecValue(Kind.MAP, null, map, keys, List.of(), where);
    }

    private static Kind kindOf(final Node node) {
        if (node instanceof SequenceNode) {
            return Kind.LIST;
        }
        if (node instanceof MappingNode) {
            return Kind.MAP;
        }
        final Tag tag = node.getTag();
        if (tag.equals(Tag.INT)) {
            return Kind.INT;
        }
        if (tag.equals(Tag.FLOAT)) {
            return Kind.FLOAT;
        }
        if (tag.equals(Tag.BOOL)) {
            return Kind.BOOL;
        }
        return tag.equals(Tag.NULL) ? Kind.NULL : Kind.STRING;
    }

    private static Where where(final Path file, final Mark mark) {
        return mark == null ? Where.wholeFile(file) : new Where(file, mark.getLine() + 1, mark.getColumn() + 1);
    }
}
