package cctk.analysis;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads result files and directories of them into one {@link ResultSet}. A directory is searched (4 levels)
 * for {@code *.csv} and {@code *.json} results, also the {@code .part} files a stopped run leaves; an earlier
 * report's directory inside it is left out. A run's CSV is read with its JSON for the header; a JSON alone is
 * read for its rows. Every input that cannot be read becomes one problem naming the file; the rest is read.
 */
public final class ResultReader {

    /** Result files are a few MB; a bigger file is not one. */
    static final long MAX_BYTES = 256L << 20;
    private static final int MAX_DEPTH = 4;

    private final List<String> problems = new ArrayList<>();
    private final List<Result> results = new ArrayList<>();
    private final Map<String, Path[]> stems = new LinkedHashMap<>();

    private ResultReader() {
    }

    /** Reads every input; never throws for a bad input, only records a problem. */
    public static ResultSet read(final List<Path> inputs) {
        final ResultReader r = new ResultReader();
        for (final Path p : inputs) {
            r.input(p);
        }
        r.stems.forEach((stem, pair) -> r.stem(pair[0], pair[1]));
        return new ResultSet(r.results, r.problems);
    }

    private void input(final Path p) {
        if (!Files.exists(p)) {
            problems.add(p + ": no such file or directory");
        } else if (Files.isDirectory(p)) {
            if (walk(p) == 0) {
                problems.add(p + ": no result files (*.csv, *.json) in this directory");
            }
        } else {
            add(p, true);
        }
    }

    /** Adds the result files under {@code dir}; returns how many it found. */
    private int walk(final Path dir) {
        final int[] found = {0};
        try {
            Files.walkFileTree(dir, java.util.Set.of(), MAX_DEPTH, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(final Path d, final BasicFileAttributes a) {
                    final boolean earlierReport = !d.equals(dir) && Files.exists(d.resolve("report.html"));
                    return earlierReport ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(final Path f, final BasicFileAttributes a) {
                    if (a.isRegularFile() && add(f, false)) {
                        found[0]++;
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (final IOException e) {
            problems.add(dir + ": cannot list it: " + e.getMessage());
        }
        return found[0];
    }

    /** Files are grouped by stem so that a run's CSV and JSON count once; false for a file that is no result. */
    private boolean add(final Path f, final boolean named) {
        final String name = f.getFileName().toString();
        final String plain = name.endsWith(".part") ? name.substring(0, name.length() - 5) : name;
        final boolean csv = plain.endsWith(".csv");
        if (!csv && !plain.endsWith(".json")) {
            if (named) {
                problems.add(f + ": not a result file (cctk reads *.csv and *.json results); skipped");
            }
            return false;
        }
        final String stem = f.toAbsolutePath().normalize().getParent()
            .resolve(plain.substring(0, plain.lastIndexOf('.'))) + (name.endsWith(".part") ? ".part" : "");
        final Path[] pair = stems.computeIfAbsent(stem, k -> new Path[2]);
        pair[csv ? 0 : 1] = f;
        return true;
    }

    private void stem(final Path csv, final Path json) {
        Run meta = null;
        Object doc = null;
        final Path jsonFile = json != null ? json : csv == null ? null : sibling(csv);
        if (jsonFile != null) {
            doc = parse(jsonFile, csv != null);
            final List<String> quiet = new ArrayList<>();
            meta = doc == null ? null : JsonResults.run(jsonFile, doc, csv == null ? problems : quiet);
        }
        if (csv == null) {
            if (meta != null) {
                results.addAll(JsonResults.rows(jsonFile, doc, meta, problems));
            }
            return;
        }
        final String text = text(csv);
        if (text == null) {
            return;
        }
        final Run header = meta;
        results.addAll(CsvResults.read(csv, text, (backend, world) -> header != null
            && header.backend().equals(backend) && header.world() == world
            ? new Run(csv.toString(), backend, world, header.cluster(), header.jobId(), header.start(),
                header.hosts(), header.complete(), header.references())
            : new Run(csv.toString(), backend, world, null, null, null, List.of(),
                !csv.toString().endsWith(".part"), List.of()), problems));
    }

    /** The JSON next to a CSV (same stem), or null. */
    private static Path sibling(final Path csv) {
        final String n = csv.getFileName().toString();
        final Path j = csv.resolveSibling(n.endsWith(".part") ? n.replaceFirst("\\.csv\\.part$", ".json.part")
            : n.replaceFirst("\\.csv$", ".json"));
        return Files.isRegularFile(j) ? j : null;
    }

    /** A JSON document, or null (with a problem unless it only served as a CSV's header). */
    private Object parse(final Path f, final boolean quiet) {
        final String text = quiet ? quietText(f) : text(f);
        if (text == null) {
            return null;
        }
        try {
            return JsonText.parse(text);
        } catch (final IllegalArgumentException e) {
            if (!quiet) {
                problems.add(f + ": " + e.getMessage() + "; skipped");
            }
            return null;
        }
    }

    /** A CSV's JSON header only adds who and where: its problems do not stop the CSV being read. */
    private static String quietText(final Path f) {
        return text(f, new ArrayList<>());
    }

    private String text(final Path f) {
        return text(f, problems);
    }

    /** The file as UTF-8 text, or null with a problem (unreadable, too big, binary, empty). */
    private static String text(final Path f, final List<String> into) {
        try {
            final long size = Files.size(f);
            if (size > MAX_BYTES) {
                into.add(f + ": " + size + " bytes, too big for a result file; skipped");
                return null;
            }
            if (size == 0) {
                into.add(f + ": empty file; skipped");
                return null;
            }
            final byte[] bytes = Files.readAllBytes(f);
            final String t = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            if (t.indexOf('\0') >= 0) {
                into.add(f + ": a binary file, not a result file; skipped");
                return null;
            }
            return t.startsWith("\uFEFF") ? t.substring(1) : t;
        } catch (final CharacterCodingException e) {
            into.add(f + ": not UTF-8 text, not a result file; skipped");
            return null;
        } catch (final IOException e) {
            into.add(f + ": cannot read it: " + e.getMessage() + "; skipped");
            return null;
        }
    }
}
