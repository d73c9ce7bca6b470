package cctk.render;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs real bash processes for the render tests. */
final class Bash {

    /** What one bash run did. */
    record Result(int code, String out, String err) {
    }

    private Bash() {
    }

    /** {@code bash -n} on a script's text; returns bash's complaint, or "" when the syntax is fine. */
    static String syntaxErrors(final String script, final Path tmp) throws IOException, InterruptedException {
        final Path file = Files.createTempFile(tmp, "syntax", ".sh");
        Files.writeString(file, script, StandardCharsets.UTF_8);
        final Result r = run(List.of("bash", "-n", file.toString()), tmp, Map.of());
        return r.code() == 0 ? "" : "exit " + r.code() + ": " + r.err();
    }

    static Result run(final List<String> argv, final Path cwd, final Map<String, String> env)
            throws IOException, InterruptedException {
        final ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(argv)).directory(cwd.toFile());
        pb.environment().putAll(env);
        final Path out = Files.createTempFile(cwd, "out", ".txt");
        final Path err = Files.createTempFile(cwd, "err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        final Process p = pb.start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bash did not finish in 20 s: " + argv);
        }
        final Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    /** Splits a file of NUL-terminated strings, as {@code printf '%s\0'} writes them. */
    static List<String> nulSeparated(final Path file) throws IOException {
        final String s = Files.readString(file, StandardCharsets.UTF_8);
        final List<String> parts = new ArrayList<>(List.of(s.split("\0", -1)));
        parts.remove(parts.size() - 1);
        return parts;
    }
}
