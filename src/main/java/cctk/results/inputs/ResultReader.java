package cctk.results.inputs;

import cctk.CctkException;
import cctk.Json;
import cctk.Printable;
import cctk.results.CsvReading;
import cctk.results.Result;
import cctk.results.ResultJson;
import cctk.results.ResultSet;
import cctk.results.Run;
import cctk.results.TextInput;
import cctk.results.nccltests.NcclTestsJson;
import cctk.results.nccltests.NcclTestsText;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads result files and directories of them into one {@link ResultSet}. A directory is searched (4 levels)
 * for {@code *.csv} and {@code *.json} results, also the {@code .part} files a stopped run leaves; an earlier
 * report's directory inside it is left out, and so is the report being written. A run's CSV is read with its JSON
 * for the header; a JSON alone is read for its rows. Every input that cannot be read becomes one problem naming
 * the file; the rest is read. CSVs are read as a stream of lines; past the limits ({@link #MAX_FILES} files,
 * {@link #MAX_MEASUREMENTS} measurements) reading stops with a usage error, as the inputs must be split.
 */
public final class ResultReader {

    /** A CSV bigger than this is not a result file. */
    static final long MAX_BYTES = 256L << 20;
    /** A JSON result is read whole; bigger than this it is not read (its CSV carries the rows). */
    static final long MAX_JSON_BYTES = 32L << 20;
    /** The directory of a report that holds its runs in nccl-tests' layout (never read back by that report). */
    public static final String EXPORT = "nccl-tests";
    /** The most result files one report or comparison reads. */
    public static final int MAX_FILES = 100_000;
    /** The most measurements one report or comparison reads. */
    public static final int MAX_MEASUREMENTS = 2_000_000;

    /**
     * How much one read may take in; past either, reading stops with a usage error (exit 2: the inputs must be
     * split, nothing in the machine is at fault).
     *
     * @param files        result files (a run's CSV and JSON count once)
     * @param measurements measurements over all files
     */
    public record Limits(int files, int measurements) {
        /** cctk's own limits. */
        public static final Limits DEFAULT = new Limits(MAX_FILES, MAX_MEASUREMENTS);
    }

    private static final int MAX_DEPTH = 4;
    /** How the files of a diagnosis ({@code cctk diagnose}) begin: they are no measurement results. */
    public static final String DIAGNOSIS_PREFIX = "diagnose_";
    /** Names of files that may hold nccl-tests' text output. */
    private static final java.util.regex.Pattern TEXT = java.util.regex.Pattern.compile(".*\\.(txt|log|out)");
    /** How a cctk profile (.txt) starts. */
    private static final String PROFILE_HEAD = "=".repeat(80);
    private static final int MARK = 1 << 10;

    private final List<String> problems = new ArrayList<>();
    private final List<Result> results = new ArrayList<>();
    private final Map<String, Path[]> stems = new LinkedHashMap<>();
    private final Map<String, String> names = new HashMap<>();
    private final Set<Path> exclude;
    private final Limits limits;
    private int texts;

    private ResultReader(final Set<Path> exclude, final Limits limits) {
        this.exclude = exclude;
        this.limits = limits;
    }

    /** Reads every input; never throws for a bad input, only records a problem. */
    public static ResultSet read(final List<Path> inputs) {
        return read(inputs, null);
    }

    /**
     * Reads every input, leaving out the report that {@code output} (null: none) is about to hold: a report into
     * one of its own input directories does not read its own {@code combined.csv} back.
     */
    public static ResultSet read(final List<Path> inputs, final Path output) {
        return read(inputs, output, Limits.DEFAULT);
    }

    /** Reads every input within {@code limits} (tests use small ones). */
    public static ResultSet read(final List<Path> inputs, final Path output, final Limits limits) {
        final ResultReader r = new ResultReader(output == null ? Set.of()
            : Set.of(output.toAbsolutePath().normalize().resolve("combined.csv"),
            output.toAbsolutePath().normalize().resolve(EXPORT)), limits);
        for (final Path p : inputs) {
            r.input(p);
        }
        r.stems.forEach((stem, pair) -> r.stem(pair[0], pair[1]));
        return new ResultSet(r.results, r.problems);
    }

    /** The error past the measurement limit. */
    static CctkException tooMany(final Path file, final long limit) {
        return CctkException.usage("cctk reads at most " + limit + " measurements at once, and "
            + Printable.of(file.toString()) + " takes the inputs past that. Report on fewer runs at a time (several"
            + " reports), or split the file.");
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
            Files.walkFileTree(dir, Set.of(), MAX_DEPTH, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(final Path d, final BasicFileAttributes a) {
                    final boolean earlierReport = !d.equals(dir) && Files.exists(d.resolve("report.html"));
                    return earlierReport ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(final Path f, final BasicFileAttributes a) {
                    final Path abs = f.toAbsolutePath().normalize();
                    if (a.isRegularFile() && !exclude.contains(abs) && !exclude.contains(abs.getParent())
                        && add(f, false)) {
                        found[0]++;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(final Path f, final IOException e) {
                    problems.add(f + ": cannot read it: " + e.getMessage() + "; skipped");
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (final IOException e) {
            problems.add(dir + ": cannot list it: " + e.getMessage());
        }
        return found[0];
    }

    /**
     * Files are grouped by stem so that a run's CSV and JSON count once; nccl-tests' text output is read at once.
     * False for a file that is no result.
     */
    private boolean add(final Path f, final boolean named) {
        final String name = f.getFileName().toString();
        final String plain = name.endsWith(".part") ? name.substring(0, name.length() - 5) : name;
        if (!named && plain.startsWith(DIAGNOSIS_PREFIX)) {
            return true; // a diagnosis (cctk diagnose): known, not read here; cctk report shows it on its own page
        }
        final boolean csv = plain.endsWith(".csv");
        if (!csv && !plain.endsWith(".json")) {
            if (TEXT.matcher(name).matches()) {
                return text(f, named);
            }
            if (named) {
                problems.add(f + ": not a result file (cctk reads *.csv and *.json results, and nccl-tests' output"
                    + " as *.txt, *.log or *.out); skipped");
            }
            return false;
        }
        if (stems.size() >= limits.files()) {
            throw CctkException.usage("cctk reads at most " + limits.files() + " result files at once, and there are"
                + " more (at " + Printable.of(f.toString()) + "). Report on fewer runs at a time (several reports).");
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
            if (csv == null && NcclTestsJson.is(doc)) {
                final List<Result> rows = NcclTestsJson.read(jsonFile, (java.util.Map<?, ?>) doc, problems,
                    this::name);
                if (results.size() + rows.size() > limits.measurements()) {
                    throw tooMany(jsonFile, limits.measurements());
                }
                results.addAll(rows);
                return;
            }
            final List<String> quiet = new ArrayList<>();
            meta = doc == null ? null : ResultJson.run(jsonFile, doc, csv == null ? problems : quiet);
        }
        if (csv == null) {
            if (meta != null) {
                final List<Result> rows = ResultJson.rows(jsonFile, doc, meta, problems, this::name);
                if (results.size() + rows.size() > limits.measurements()) {
                    throw tooMany(jsonFile, limits.measurements());
                }
                results.addAll(rows);
            }
            return;
        }
        final Run header = meta;
        final String source = Printable.of(csv.toString());
        final List<Result> rows = csv(csv, (backend, world) -> header != null
            && header.backend().equals(backend) && header.world() == world ? header.at(source)
            : Run.bare(source, backend, world));
        if (results.size() + rows.size() > limits.measurements()) {
            throw tooMany(csv, limits.measurements());
        }
        results.addAll(rows);
    }

    /**
     * The runs of nccl-tests' text output in {@code f}; true when it held any. A text file that is not nccl-tests'
     * output (cctk's own profile, any other log) is a problem only when it was named.
     */
    private boolean text(final Path f, final boolean named) {
        final List<String> into = named ? problems : new ArrayList<>();
        if (stems.size() + texts >= limits.files()) {
            throw CctkException.usage("cctk reads at most " + limits.files() + " result files at once, and there are"
                + " more (at " + Printable.of(f.toString()) + "). Report on fewer runs at a time (several reports).");
        }
        if (!sized(f, MAX_BYTES, into)) {
            return false;
        }
        try (TextInput in = TextInput.open(f); java.io.BufferedReader r = new java.io.BufferedReader(in, 1 << 16)) {
            r.mark(MARK);
            final char[] head = new char[PROFILE_HEAD.length()];
            final int n = r.read(head, 0, head.length);
            if (n == head.length && new String(head).equals(PROFILE_HEAD)) {
                into.add(f + ": a cctk profile (.txt, for people): cctk reads its .csv and .json; skipped");
                return false;
            }
            r.reset();
            final NcclTestsText.Read read = NcclTestsText.read(f, r, problems, this::name,
                limits.measurements() - results.size());
            if (!read.recognised()) {
                into.add(f + ": not a result file (no nccl-tests result table in it); skipped");
                return false;
            }
            if (results.size() + read.results().size() > limits.measurements()) {
                throw tooMany(f, limits.measurements());
            }
            results.addAll(read.results());
            texts++;
            return true;
        } catch (final TextInput.BinaryException e) {
            into.add(f + ": a binary file, not a result file; skipped");
        } catch (final CharacterCodingException e) {
            into.add(f + ": not UTF-8 text, not a result file; skipped");
        } catch (final IOException e) {
            into.add(f + ": cannot read it: " + e.getMessage() + "; skipped");
        }
        return false;
    }

    /** The rows of a CSV, read as a stream; none (with a problem) when it is not a readable text file. */
    private List<Result> csv(final Path f, final java.util.function.BiFunction<String, Integer, Run> runOf) {
        if (!sized(f, MAX_BYTES, problems)) {
            return List.of();
        }
        try (TextInput in = TextInput.open(f)) {
            return CsvReading.read(f, in, runOf, problems, this::name, limits.measurements() - results.size());
        } catch (final TextInput.BinaryException e) {
            problems.add(f + ": a binary file, not a result file; skipped");
        } catch (final CharacterCodingException e) {
            problems.add(f + ": not UTF-8 text, not a result file; skipped");
        } catch (final IOException e) {
            problems.add(f + ": cannot read it: " + e.getMessage() + "; skipped");
        }
        return List.of();
    }

    /** One shared copy of each repeated text. */
    private String name(final String s) {
        final String known = names.putIfAbsent(s, s);
        return known == null ? s : known;
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
        final List<String> into = quiet ? new ArrayList<>() : problems;
        if (!sized(f, MAX_JSON_BYTES, into)) {
            return null;
        }
        try (TextInput in = TextInput.open(f)) {
            return Json.parse(in);
        } catch (final IllegalArgumentException e) {
            into.add(f + ": " + Printable.of(e.getMessage()) + "; skipped");
        } catch (final TextInput.BinaryException e) {
            into.add(f + ": a binary file, not a result file; skipped");
        } catch (final CharacterCodingException e) {
            into.add(f + ": not UTF-8 text, not a result file; skipped");
        } catch (final IOException e) {
            into.add(f + ": cannot read it: " + e.getMessage() + "; skipped");
        }
        return null;
    }

    /** True when {@code f} is neither empty nor bigger than {@code max}; else a problem. */
    private static boolean sized(final Path f, final long max, final List<String> into) {
        try {
            final long size = Files.size(f);
            if (size > max) {
                into.add(f + ": " + size + " bytes, more than the " + (max >> 20) + " MiB a result file may have;"
                    + " skipped");
                return false;
            }
            if (size == 0) {
                into.add(f + ": empty file; skipped");
                return false;
            }
            return true;
        } catch (final IOException e) {
            into.add(f + ": cannot read it: " + e.getMessage() + "; skipped");
            return false;
        }
    }
}
