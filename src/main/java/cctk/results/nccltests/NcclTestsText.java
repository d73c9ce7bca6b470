package cctk.results.nccltests;

import cctk.Printable;
import cctk.results.RankInfo;
import cctk.results.Result;
import cctk.results.Run;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads nccl-tests' text output (what a {@code *_perf} binary prints; a log may hold several tests in a row, and
 * other lines between them) as cctk runs, one per world size, backend {@value NcclTests#BACKEND} (or the backend a
 * table that cctk wrote names, {@link NcclTestsWriter}). From the output, as nccl-tests documents and prints it:
 * {@code # Collective test starting: all_reduce_perf} names the test (older releases print no such line: then the file
 * name must name it), the {@code # nThread ... iters: 20 ...} line the iterations, the {@code #  Rank  0 Group  0 Pid
 * ... on HOST device ...} lines the ranks (the first releases print no {@code Group} and no {@code Pid}; a rank line
 * after a table starts the next test; the world size is the number of ranks in the first rank's group), and the
 * table header ({@code # size count type redop root time algbw busbw #wrong time ...}) the columns, read by name:
 * the first {@code time} group is out-of-place, the second in-place; the per-iteration columns of {@code -I 1}
 * ({@code i_min i_max i_p99 i_cv%}) give the spread; {@code #wrong} may be {@code N/A}; older releases' {@code error}
 * column (a deviation, not a count) gives no count. A row without its out-of-place part (nccl-tests then prints
 * spaces) is in-place only. algbw and busbw are computed again from the size and the time, as nccl-tests
 * computes them before rounding ({@link NcclTests#bandwidths}): its two decimals print 0.00 for rows of a few bytes
 * and cost a table read back its precision. Rows that do not parse are named by line and skipped. Times are
 * nccl-tests' (the mean over iterations, averaged over ranks by default, {@code -a}), not cctk's maximum over ranks.
 * <b>Note:</b> not threadsafe; one per file.
 */
public final class NcclTestsText {

    /** What a file gave: its measurements, and whether it held an nccl-tests table at all. */
    public record Read(List<Result> results, boolean recognised) {
    }

    /** The longest line read; longer ones are skipped. */
    static final int MAX_LINE = 1 << 16;
    /** The most rank lines kept per test (all are counted). */
    private static final int MAX_RANKS = 1 << 14;
    private static final int MAX_LINE_PROBLEMS = 5;
    private static final Pattern RANK = Pattern.compile(
        "#\\s+Rank\\s+(\\d{1,9})\\s+(?:Group\\s+(\\d{1,9})\\s+)?(?:Pid\\s+(\\d{1,12})\\s+)?on\\s+(\\S+)"
            + "\\s+device\\s+(\\d{1,9})\\s*(.*)");
    private static final Pattern ITERS = Pattern.compile("(?<!warmup )(?<!agg )\\biters: (\\d{1,9})");
    private static final Pattern WARMUP = Pattern.compile("warmup iters: (\\d{1,9})");
    private static final Pattern NUMBER = Pattern.compile("[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]{1,3})?");
    private static final Pattern WHOLE = Pattern.compile("-?[0-9]{1,18}");
    private static final Pattern CCTK = Pattern.compile("# cctk-run: (.*)");
    private static final Pattern FIELD = Pattern.compile("(\\w+)=(\\S+)");

    private final Path file;
    private final List<String> problems;
    private final UnaryOperator<String> names;
    private final Map<String, Run> runs = new HashMap<>();
    private final List<Result> out = new ArrayList<>();
    private final Map<String, String> marker = new HashMap<>();
    private String version;
    private String program;
    private int iters = -1;
    private int warmup = -1;
    private final List<RankInfo> ranks = new ArrayList<>();
    private final Map<Integer, Integer> groups = new LinkedHashMap<>();
    private int firstGroup = -1;
    private NcclTestsTable table;
    private Run run;
    private String collective;
    private boolean recognised;
    private boolean blockReported;
    private int lineProblems;
    /** The first table header in a layout cctk does not know, and its line number (0: none). */
    private String unknown;
    private long unknownAt;

    private NcclTestsText(final Path file, final List<String> problems, final UnaryOperator<String> names) {
        this.file = file;
        this.problems = problems;
        this.names = names;
    }

    /** The runs of the nccl-tests output in {@code in}; reading stops after {@code room} + 1 measurements. */
    public static Read read(final Path file, final Reader in, final List<String> problems,
                            final UnaryOperator<String> names, final long room) throws IOException {
        final NcclTestsText t = new NcclTestsText(file, problems, names);
        final StringBuilder line = new StringBuilder();
        long number = 0;
        boolean tooLong = false;
        for (int c = in.read(); c >= 0 && t.out.size() <= room; c = in.read()) {
            if (c == '\n') {
                number++;
                if (!tooLong) {
                    t.line(line.toString(), number);
                }
                line.setLength(0);
                tooLong = false;
            } else if (line.length() < MAX_LINE) {
                line.append((char) c);
            } else {
                tooLong = true;
            }
        }
        if (line.length() > 0 && !tooLong) {
            t.line(line.toString(), number + 1);
        }
        if (t.lineProblems > MAX_LINE_PROBLEMS) {
            problems.add(file + ": " + (t.lineProblems - MAX_LINE_PROBLEMS) + " more bad rows skipped");
        }
        if (t.unknownAt > 0) {
            problems.add(file + ":" + t.unknownAt + ": a result table whose header, '" + header(t.unknown)
                + "', is in no layout nccl-tests has printed that cctk knows: it"
                + " reads 'size count type [redop] [root] time algbw busbw #wrong' (2.13 and later, with -I 1's"
                + " i_min i_max i_p99 i_cv% after each busbw group), the same with 'error' for '#wrong' (2019 to"
                + " 2.12), and 'bytes N type op|root time algbw busbw res' in milliseconds (2017 to early 2019);"
                + (t.out.isEmpty() ? " the file's rows were not read, and it is skipped" : " that table's rows were"
                + " not read, the other tables' are kept"));
            if (t.out.isEmpty()) {
                return new Read(t.out, true);
            }
        }
        if (t.recognised && t.out.isEmpty() && t.lineProblems == 0 && !t.blockReported) {
            problems.add(file + ": nccl-tests output without a measured row (the test did not run?)");
        }
        return new Read(t.out, t.recognised);
    }

    private void line(final String raw, final long number) {
        final String l = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
        if (l.startsWith("#")) {
            comment(l);
            if (unknownAt == 0 && NcclTestsTable.looksLikeHeader(l)) {
                unknownAt = number;
                unknown = l;
            }
        } else if (table != null && !l.isBlank() && Character.isDigit(l.strip().charAt(0))) {
            row(l, number);
        }
    }

    private void comment(final String l) {
        if (l.startsWith("# Collective test starting:")) {
            newTest();
            program = Printable.of(l.substring("# Collective test starting:".length()).strip());
        } else if (l.startsWith("# nThread ")) {
            if (table != null) {
                newTest();
            }
            iters = number(ITERS, l);
            warmup = number(WARMUP, l);
        } else if (l.startsWith("# nccl-tests version ")) {
            version = Printable.of(l.substring(2).split(" nccl-headers")[0].strip());
        } else if (CCTK.matcher(l).matches()) {
            final Matcher m = FIELD.matcher(l.substring("# cctk-run: ".length()));
            while (m.find()) {
                if (!m.group(2).equals("_")) {
                    marker.put(m.group(1), Printable.of(m.group(2)));
                }
            }
        } else {
            final Matcher r = RANK.matcher(l);
            if (r.matches()) {
                rank(r);
            } else if (NcclTestsTable.isHeader(l)) {
                recognised = true;
                table = NcclTestsTable.of(l);
                run = null;
            }
        }
    }

    private void newTest() {
        program = null;
        marker.clear();
        iters = -1;
        warmup = -1;
        ranks.clear();
        groups.clear();
        firstGroup = -1;
        table = null;
        run = null;
        blockReported = false;
    }

    private static int number(final Pattern p, final String l) {
        final Matcher m = p.matcher(l);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private void rank(final Matcher r) {
        if (table != null) {
            newTest();
        }
        final int group = r.group(2) == null ? 0 : Integer.parseInt(r.group(2));
        if (firstGroup < 0) {
            firstGroup = group;
        }
        groups.merge(group, 1, Integer::sum);
        if (ranks.size() < MAX_RANKS) {
            ranks.add(new RankInfo(Integer.parseInt(r.group(1)), names.apply(Printable.of(r.group(4))),
                r.group(3) == null ? 0 : Long.parseLong(r.group(3)), 0, 0, Printable.of(("device " + r.group(5)
                + " " + r.group(6)).strip()), ""));
        }
    }

    /** The run the rows of the current test belong to, or null (with one problem per test) when unknown. */
    private Run run() {
        if (run != null || blockReported) {
            return run;
        }
        final String coll = collective();
        final int world = marker.containsKey("world") && marker.get("world").matches("\\d{1,8}")
            ? Integer.parseInt(marker.get("world")) : firstGroup < 0 ? 0 : groups.get(firstGroup);
        if (coll == null || world < 1) {
            blockReported = true;
            problems.add(file + ": nccl-tests output " + (coll == null ? "that names no test (releases before mid-2025"
                + " print no '# Collective test starting:' line; name the file after the test, e.g."
                + " all_reduce_perf.txt)" : "without '#  Rank' lines, so its world size is unknown") + "; skipped");
            return null;
        }
        final String backend = marker.getOrDefault("backend", NcclTests.BACKEND);
        final Map<String, Object> args = new LinkedHashMap<>();
        if (iters > 0) {
            args.put("iters", (long) iters);
        }
        if (warmup >= 0) {
            args.put("warmup_iters", (long) warmup);
        }
        final String across = marker.get(Run.TIME_ACROSS_RANKS);
        if ("max".equals(across) || "mean".equals(across)) {
            args.put(Run.TIME_ACROSS_RANKS, across);
        }
        final String key = backend + "/" + world;
        collective = coll;
        final String v = marker.getOrDefault("version", version);
        run = runs.computeIfAbsent(key, k -> new Run(Printable.of(file.toString()), v, null, marker.get("job"),
            marker.get("cluster"), names.apply(backend), world, NcclTests.start(marker.getOrDefault("start", "")
            .replace('T', ' ')), List.copyOf(ranks), Run.hostsOf(ranks), Map.of(), args, List.of(), null, null));
        return run;
    }

    private String collective() {
        final String fromProgram = NcclTests.collective(program);
        return names.apply(fromProgram != null ? fromProgram : program == null || program.isEmpty()
            ? NcclTests.collective(file.getFileName().toString()) : program);
    }

    private void row(final String l, final long number) {
        final Run r = run();
        if (r == null) {
            return;
        }
        if (table.cpuTime()) {
            if (!blockReported) {
                blockReported = true;
                problems.add(file + ": nccl-tests output of CPU time (-C 1), not the time per call; skipped");
            }
            return;
        }
        try {
            out.addAll(table.results(l, r, collective, names));
        } catch (final IllegalArgumentException e) {
            if (++lineProblems <= MAX_LINE_PROBLEMS) {
                problems.add(file + ":" + number + ": row " + Printable.of(e.getMessage())
                    + "; skipped, the other rows are kept");
            }
        }
    }

    /** A whole number cell, or an error naming the column. */
    static long whole(final String column, final String text, final long max) {
        if (!WHOLE.matcher(text).matches()) {
            throw new IllegalArgumentException(column + " '" + shorten(text) + "' is not a whole number");
        }
        final long v = Long.parseLong(text);
        if (v < -1 || v > max) {
            throw new IllegalArgumentException(column + " " + v + " is out of range");
        }
        return v;
    }

    /** A decimal cell (no sign, no NaN, no hex), or an error naming the column. */
    static double decimal(final String column, final String text) {
        if (!NUMBER.matcher(text).matches()) {
            throw new IllegalArgumentException(column + " '" + shorten(text) + "' is not a number");
        }
        final double v = Double.parseDouble(text);
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException(column + " '" + shorten(text) + "' is not a finite number");
        }
        return v;
    }

    /** A header line as one line of at most 120 printable characters, its runs of spaces made one. */
    private static String header(final String line) {
        final String h = Printable.of(line.substring(1).strip().replaceAll("\\s+", " "));
        return h.length() > 120 ? h.substring(0, 120) + "..." : h;
    }

    private static String shorten(final String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
