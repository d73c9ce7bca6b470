package cctk.report;

import cctk.results.Column;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The hostile result files of the adversarial suite, made by program: traversal and control-character names,
 * huge, negative, NaN, infinite and 1e300 numbers, missing and duplicate fields and keys, wrong types, truncated,
 * binary, BOM, CRLF, empty, deeply nested and huge-line files, odd file names and file kinds.
 */
final class HostileCases {

    /** What a hostile input must lead to, for both {@code cctk report} and {@code cctk compare}. */
    enum Expect {
        /** Nothing readable: exit 2, the input named. */
        REFUSED,
        /** A bad row beside a good one: exit 2, the bad row named, the good one reported. */
        PARTIAL,
        /** Read as it should be: exit 0. */
        HANDLED
    }

    /** Makes the input files in a directory; the second path is the case's root (for traversal targets). */
    interface Maker {
        void make(Path in, Path root) throws IOException, InterruptedException;
    }

    record Case(String name, Expect expect, Maker maker) {
    }

    private HostileCases() {
    }

    static String good(final long size) {
        return Hostile.row("tcp", "2", "all_reduce", size, 5 + size / 1e3);
    }

    /** A CSV of the header, a good row and {@code bad}. */
    static Maker badRow(final String bad) {
        return (in, root) -> Files.writeString(in.resolve("profile_tcp_world2_1.csv"),
            cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\n" + good(1024) + "\n" + bad + "\n");
    }

    /** A good row with cell {@code index} (0-based, in CsvRows order) replaced by {@code value}. */
    static String cell(final int index, final String value) {
        final String[] c = good(4096).split(",", -1);
        c[index] = value;
        return String.join(",", c);
    }

    static Maker text(final String name, final String text) {
        return (in, root) -> Files.writeString(in.resolve(name), text, StandardCharsets.UTF_8);
    }

    static Maker bytes(final String name, final byte[] bytes) {
        return (in, root) -> Files.write(in.resolve(name), bytes);
    }

    static Maker series(final String backend, final String coll) {
        return (in, root) -> Hostile.csv(in, "profile_tcp_world2_1.csv", Hostile.series(backend, coll, 3));
    }

    static Maker json(final String text) {
        return text("profile_tcp_world2_1.json", text);
    }

    static List<Case> all() {
        final List<Case> c = new ArrayList<>();
        whole(c);
        values(c);
        names(c);
        jsons(c);
        HostileNcclTests.cases(c);
        return c;
    }

    private static void whole(final List<Case> c) {
        final Expect r = Expect.REFUSED;
        c.add(new Case("empty csv", r, text("profile_a.csv", "")));
        c.add(new Case("bom only", r, bytes("profile_a.csv", new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF})));
        c.add(new Case("binary", r, bytes("profile_a.csv", new byte[] {0x7f, 'E', 'L', 'F', 0, 0, 1, 2, 0, 3})));
        c.add(new Case("latin-1 bytes", r, bytes("profile_a.csv", (cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\ntcp,2,all_r\u00e9duce")
            .getBytes(StandardCharsets.ISO_8859_1))));
        c.add(new Case("nul in a row", r, text("profile_a.csv", cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\n" + good(1024) + "\0\n")));
        c.add(new Case("header only", r, text("profile_a.csv", cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\n")));
        c.add(new Case("header lacks columns", r, text("profile_a.csv", "backend,world_size\ntcp,2\n")));
        c.add(new Case("other units", r, text("profile_a.csv", "backend,world_size,size_mb,time_ms\ntcp,2,1,1\n")));
        c.add(new Case("huge line, no newline", r, text("profile_a.csv", "a".repeat(1 << 20))));
        c.add(new Case("huge header then rows", r, text("profile_a.csv", "x,".repeat(300_000) + "\n" + good(1)
            + "\n")));
        c.add(new Case("truncated mid-row", r, text("profile_a.csv", cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\n" + good(1024)
            .substring(0, 30))));
        c.add(new Case("open quote", r, text("profile_a.csv", cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\n\"tcp,2,all_reduce\n")));
        c.add(new Case("a thousand columns", r, text("profile_a.csv", "c,".repeat(999) + "c\n" + "1,".repeat(999)
            + "1\n")));
        c.add(new Case("csv too big (sparse 300 MB)", r, (in, root) -> {
            try (RandomAccessFile f = new RandomAccessFile(in.resolve("profile_a.csv").toFile(), "rw")) {
                f.setLength(300L << 20);
            }
        }));
        c.add(new Case("json too big (sparse 40 MB)", r, (in, root) -> {
            try (RandomAccessFile f = new RandomAccessFile(in.resolve("profile_a.json").toFile(), "rw")) {
                f.setLength(40L << 20);
            }
        }));
        c.add(new Case("a directory named like a result", r, (in, root) -> Files.createDirectories(
            in.resolve("profile_a.csv"))));
        c.add(new Case("a fifo named like a result", r, (in, root) -> run("mkfifo", in.resolve("profile_a.csv"))));
        c.add(new Case("a dangling link", r, (in, root) -> Files.createSymbolicLink(in.resolve("profile_a.csv"),
            root.resolve("nowhere"))));
        c.add(new Case("a link loop", r, (in, root) -> Files.createSymbolicLink(in.resolve("loop"), in)));
        c.add(new Case("only a bad row", r, text("profile_a.csv", cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\n" + cell(9, "-1") + "\n")));
        c.add(new Case("a row of commas", r, text("profile_a.csv", cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\n" + ",".repeat(17) + "\n")));
    }

    private static void values(final List<Case> c) {
        final String[][] bad = {
            {"6", "1e300"}, {"6", "-1"}, {"6", "9223372036854775808"}, {"6", "abc"},
            {"6", ""}, {"6", "1.5"}, {"6", "0x10"}, {"1", "0"}, {"1", "-1"}, {"1", "99999999999"}, {"1", "abc"},
            {"1", "1.5"}, {"9", "0"}, {"9", "-5"}, {"9", "NaN"}, {"9", "Infinity"}, {"9", "-Infinity"},
            {"9", "1e999"}, {"9", ""}, {"9", "1e-400"}, {"9", "abc"}, {"15", "-1"}, {"15", "NaN"},
            {"15", "Infinity"}, {"15", "1e400"}, {"13", "-3"}, {"13", "NaN"}, {"10", "-1"}, {"11", "Infinity"},
            {"12", "x"}, {"7", "-1"}, {"7", "1e300"}, {"5", "-5"}, {"5", "10000000000"}, {"16", "-2"},
            {"16", "abc"}, {"0", ""}, {"2", ""}, {"14", "1e999"},
            // formula cells (issue 23): element types and operators outside the known names are refused
            {"3", "\"=cmd|' /C calc'!A0\""}, {"3", "@SUM(1)"}, {"3", "float"}, {"4", "-2+3+cmd"},
            {"4", "\"+HYPERLINK(\"\"http://x\"\")\""}, {"4", "premulsum"},
        };
        for (final String[] b : bad) {
            c.add(new Case("column " + cctk.results.Csvs.HEADER_BEFORE_REPEATS.split(",")[Integer.parseInt(b[0])] + " = '" + b[1] + "'",
                Expect.PARTIAL, badRow(cell(Integer.parseInt(b[0]), b[1]))));
        }
        c.add(new Case("an extra cell", Expect.PARTIAL, badRow(good(4096) + ",x")));
        c.add(new Case("a missing cell", Expect.PARTIAL, badRow(good(4096).substring(0, good(4096)
            .lastIndexOf(',')))));
        c.add(new Case("a quoted newline (read as one cell, shown as ?)", Expect.HANDLED,
            badRow(cell(2, "\"all\nreduce\""))));
        c.add(new Case("size_bytes = 2^60 (a 64-bit size, exact)", Expect.HANDLED, badRow(cell(6,
            "1152921504606846976"))));
        c.add(new Case("a huge row", Expect.PARTIAL, badRow(cell(2, "x".repeat(200_000)))));
    }

    private static void names(final List<Case> c) {
        final Expect h = Expect.HANDLED;
        // the targets exist, so that an escape would succeed
        c.add(new Case("collective ../../../../esc/TRAV", h, (in, root) -> {
            Files.createDirectories(root.resolve("a/b/esc"));
            series("tcp", "../../../../esc/TRAV").make(in, root);
        }));
        c.add(new Case("collective absolute path", h, (in, root) -> {
            Files.createDirectories(root.resolve("abs"));
            Hostile.csv(in, "profile_a.csv", Hostile.series("tcp", root.resolve("abs/TRAV").toString(), 3));
        }));
        for (final String coll : List.of("..", ".", "/", "\\..\\..\\x", "all\u001b[2J\u001b[Hreduce",
            "x\u001b]0;title\u0007", "a\rb", "evil\u202Etxt.exe", "<script>alert(1)</script>", "a|b|c", "CON",
            "\u5168\u5f52\u7ea6", "x".repeat(10_000), "-rf", "~root", "$(id)", "a,b\"c", "\t ", "=cmd|' /C calc'!A0",
            "@SUM(1)", "[x](http://e.example)")) {
            c.add(new Case("collective " + shown(coll.length() > 20 ? coll.substring(0, 20) + "..." : coll),
                coll.isBlank() ? Expect.REFUSED : h, series("tcp", coll)));
        }
        c.add(new Case("backend with ESC", h, series("tcp\u001b[31m", "all_reduce")));
        c.add(new Case("colliding safe names", h, (in, root) -> {
            Hostile.csv(in, "profile_a.csv", Hostile.series("tcp", "a/b", 3));
            Hostile.csv(in, "profile_b.csv", Hostile.series("nccl", "a_b", 3));
            Hostile.csv(in, "profile_c.csv", Hostile.series("gloo", "A_B", 3));
        }));
        c.add(new Case("skipped reason with ESC", h, badRow(cell(17, "oom\u001b[2J").replace(",0,oom", ",,oom"))));
        c.add(new Case("crlf", h, text("profile_a.csv", cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\r\n" + good(1024) + "\r\n" + good(4096)
            + "\r\n")));
        c.add(new Case("bom and crlf", h, text("profile_a.csv", "\uFEFF" + cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\r\n" + good(1024))));
        c.add(new Case("blank lines", h, text("profile_a.csv", "\n".repeat(0) + cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\n\n\n" + good(1024)
            + "\n\n")));
        c.add(new Case("duplicate rows", h, text("profile_a.csv", cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\n" + (good(1024) + "\n")
            .repeat(500))));
        c.add(new Case("columns reordered and upper case", h, (in, root) -> {
            final String[] head = cctk.results.Csvs.HEADER_BEFORE_REPEATS.toUpperCase(java.util.Locale.ROOT).split(",");
            final String[] row = good(1024).split(",", -1);
            Files.writeString(in.resolve("profile_a.csv"), String.join(",", reverse(head)) + ",EXTRA\n"
                + String.join(",", reverse(row)) + ",x\n");
        }));
        c.add(new Case("file name with ESC", h, (in, root) -> Hostile.csv(in, "profile_\u001b[31m.csv",
            Hostile.series("tcp", "all_reduce", 3))));
        c.add(new Case("file name with newline", h, (in, root) -> Hostile.csv(in, "profile_\nx.csv",
            Hostile.series("tcp", "all_reduce", 3))));
        c.add(new Case("file name not UTF-8", h, (in, root) -> {
            final Path f = Hostile.csv(in, "good.csv", Hostile.series("tcp", "all_reduce", 3));
            run("sh", "-c", "mv \"$0\" \"$(dirname \"$0\")/$(printf 'profile_\\377\\376.csv')\"", f);
        }));
        c.add(new Case("a stopped run's .part", h, (in, root) -> Hostile.csv(in, "profile_a.csv.part",
            Hostile.series("tcp", "all_reduce", 3))));
        c.add(new Case("twenty thousand rows", h, text("profile_a.csv", cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\n"
            + (good(1024) + "\n" + good(4096) + "\n").repeat(10_000))));
    }

    private static void jsons(final List<Case> c) {
        final Expect r = Expect.REFUSED;
        final String ok = Hostile.json("", Hostile.fields("1024", "5"));
        for (final String t : List.of("", "{", "[]", "null", "1", "\"s\"", ok.substring(0, ok.length() / 2),
            "[".repeat(10_000), ok.replace("all_reduce", "all\\xreduce"), ok.replace("all_reduce", "all\u001breduce"),
            ok.replace(": 1024", ": +1024"), ok.replace(": 1024", ": NaN"), ok.replace(": 1024", ": Infinity"),
            ok.replace("}]}", "},]}"), "// c\n" + ok, ok.replace("\"world_size\": 2", "\"world_size\": 2, "
                + "\"world_size\": 4"), ok.replace("\"count\": 256", "\"count\": 256, \"count\": 1"),
            ok.replace("\"world_size\": 2", "\"world_size\": 0"), ok.replace("\"world_size\": 2", "\"world_size\": -1"),
            ok.replace("\"world_size\": 2", "\"world_size\": 1.5"), ok.replace("\"world_size\": 2", "\"world_size\": \"2\""),
            ok.replace("\"world_size\": 2", "\"world_size\": 1e300"), ok.replace("\"backend\": \"tcp\"", "\"backend\": \"\""),
            ok.replace("\"backend\": \"tcp\"", "\"backend\": 7"), ok.replace("\"rows\": [", "\"rows\": {\"a\": [")
                .replace("}]}", "}]}}"), ok.replace("\"us\"", "\"ms\""),
            Hostile.json("", Hostile.fields("1e300", "5")), Hostile.json("", Hostile.fields("-1", "5")),
            Hostile.json("", Hostile.fields("1.5", "5")), Hostile.json("", Hostile.fields("1024", "0")),
            Hostile.json("", Hostile.fields("1024", "-1")), Hostile.json("", Hostile.fields("1024", "1e999")),
            ok.replace("\"cv_pct\": 1", "\"cv_pct\": -1"), ok.replace("\"count\": 256", "\"count\": 1e300"),
            ok.replace("\"wrong\": 0", "\"wrong\": -5"), ok.replace("\"collective\": \"all_reduce\"",
                "\"collective\": 5"), ok.replace("\"rows\": [", "\"rows\": [7, "))) {
            c.add(new Case("json " + shown(t.length() > 60 ? t.substring(0, 30) + "..."
                + t.substring(t.length() - 25) : t), r, json(t)));
        }
        c.add(new Case("json with BOM", Expect.HANDLED, json("\uFEFF" + ok)));
        c.add(new Case("json backend and hosts with ESC", Expect.HANDLED, json(ok.replace("\"backend\": \"tcp\"",
            "\"backend\": \"tcp\\u001b[2J\", \"ranks\": [\"rank 0 host a\\u001b]0;x\\u0007b pid 1\"]"))));
        c.add(new Case("json absurd references", Expect.HANDLED, json(ok.replace("\"units\"", "\"args\": "
            + "{\"references\": [{\"collective\": \"all_reduce\", \"backend\": \"t\\u001bx\", \"min_bytes\": 1e300,"
            + " \"max_bytes\": -1, \"busbw_gbps\": -5}, {\"collective\": \"nope\"}, 5]}, \"units\""))));
    }

    /** A case's name: control characters as '?', so the test report stays readable. */
    private static String shown(final String s) {
        return s.replaceAll("[\\p{Cc}\\p{Cf}]", "?");
    }

    private static String[] reverse(final String[] a) {
        final String[] r = new String[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[a.length - 1 - i];
        }
        return r;
    }

    private static void run(final Object... argv) throws IOException, InterruptedException {
        final List<String> args = new ArrayList<>();
        for (final Object a : argv) {
            args.add(a.toString());
        }
        final Process p = new ProcessBuilder(args).inheritIO().start();
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("could not run " + args);
        }
    }
}
