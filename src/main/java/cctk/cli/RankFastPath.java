package cctk.cli;

import cctk.Environment;
import cctk.rank.RankConfiguration;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What runs without building the command line: {@code cctk rank}, and {@code cctk demo} (a rank of it, or its
 * launch), with the options those commands have ({@code --opt value} or {@code --opt=value}, {@code -x}). Picocli's
 * reflection over annotations (its classes are too old for class-data sharing) was a third of a rank's start on 2
 * vCPUs, and of a demo's launch; these read the same few options every time. Anything else (help, a typo, an option
 * this path does not know) returns -1 and goes through {@link Main}'s full command line, errors and help included.
 * <b>Note:</b> threadsafe (no state).
 */
final class RankFastPath {

    private RankFastPath() {
    }

    /** The exit code of {@code args} run as a rank, or -1 when they need the full command line. */
    static int run(final PrintWriter out, final PrintWriter err, final Environment env, final String[] args) {
        final List<String> words = new ArrayList<>();
        boolean trace = false;
        for (final String a : args) {
            if (a.equals("-x") || a.equals("--stacktrace")) {
                trace = true;
            } else {
                words.add(a);
            }
        }
        final Options o = Options.parse(words);
        if (o == null) {
            return -1;
        }
        try {
            if (o.command.equals("rank")) {
                final int code = RankCommand.run(out, err, env, o.spec == null ? null : Path.of(o.spec), o.backend,
                    o.timeout, o.quiet);
                out.flush();
                return code;
            }
            if (!DemoCommand.NAMES.contains(o.name)) {
                return -1;
            }
            final String backend = o.backend == null ? "tcp" : o.backend;
            if (!RankConfiguration.startedAsRank(env)) {
                return new DemoCommand.Launch(o.name, o.nproc, backend, o.msgBytes, o.nics, o.timeout,
                    o.oversubscribe, trace).run(out, err);
            }
            return DemoCommand.asRank(out, err, env, o.name, backend, o.msgBytes, o.nics, o.timeout).code();
        } catch (final RuntimeException e) {
            return Main.report(e, err, trace);
        }
    }

    /** The options of a rank's command line; null when it holds anything else. */
    private static final class Options {
        String command;
        String name;
        String spec;
        String backend;
        String msgBytes = "4MiB";
        List<String> nics = List.of();
        int timeout = 60;
        int nproc = 2;
        boolean oversubscribe;
        boolean quiet;

        static Options parse(final List<String> words) {
            if (words.isEmpty() || !words.get(0).equals("rank") && !words.get(0).equals("demo")) {
                return null;
            }
            final Options o = new Options();
            o.command = words.get(0);
            final boolean demo = o.command.equals("demo");
            for (int i = 1; i < words.size(); i++) {
                final String w = words.get(i);
                if (demo && o.name == null && !w.startsWith("-")) {
                    o.name = w;
                    continue;
                }
                if (demo && w.equals(cctk.launch.LocalCapacity.OVERRIDE)) {
                    o.oversubscribe = true;
                    continue;
                }
                if (!demo && w.equals("--quiet")) {
                    o.quiet = true;
                    continue;
                }
                final int eq = w.indexOf('=');
                final String key = eq > 0 ? w.substring(0, eq) : w;
                final String value;
                if (eq > 0) {
                    value = w.substring(eq + 1);
                } else if (i + 1 < words.size()) {
                    value = words.get(++i);
                } else {
                    return null;
                }
                if (!o.set(key, value, demo)) {
                    return null;
                }
            }
            return demo && o.name == null ? null : o;
        }

        private boolean set(final String key, final String value, final boolean demo) {
            switch (key) {
                case "--backend" -> backend = value;
                case "--timeout", "--nproc" -> {
                    try {
                        final int n = Integer.parseInt(value);
                        if (key.equals("--nproc")) {
                            nproc = n;
                        } else {
                            timeout = n;
                        }
                    } catch (final NumberFormatException e) {
                        return false;
                    }
                }
                case "--spec" -> {
                    if (demo) {
                        return false;
                    }
                    spec = value;
                }
                case "--msg-bytes" -> msgBytes = value;
                case "--nic" -> nics = Arrays.asList(value.split(","));
                default -> {
                    return false;
                }
            }
            return demo || key.equals("--backend") || key.equals("--timeout") || key.equals("--spec");
        }
    }
}
