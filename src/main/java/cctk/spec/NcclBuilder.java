package cctk.spec;

import cctk.comm.nccl.NcclConfig;
import cctk.spec.SpecValue.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** Checks the {@code nccl:} section and builds {@link NcclOptions}, with its defaults. */
final class NcclBuilder {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]{0,31}");

    private NcclBuilder() {
    }

    static NcclOptions build(final Section s) {
        final NcclOptions d = NcclOptions.DEFAULT;
        String name = s.string("backend_name", d.backendName());
        if (!NAME.matcher(name).matches() || BenchmarkBuilder.BACKENDS.contains(name) && !"nccl".equals(name)) {
            s.problems().expected(s.get("backend_name"), s.keyPath("backend_name"),
                    "a backend name of lower-case letters, digits, '_' and '-' (not tcp or tcp-flat), e.g. ncclx");
            name = d.backendName();
        }
        final String library = s.string("library", null);
        if (library != null && !library.startsWith("/")) {
            s.problems().expected(s.get("library"), s.keyPath("library"),
                    "an absolute path to libnccl.so.2 or its directory, as every node sees it");
        }
        final List<Integer> devices = devices(s);
        final boolean debug = bool(s, "debug", d.debug());
        final NcclConfig.Timing timing = choice(s, "timing", NcclConfig.Timing.values(), d.timing());
        final NcclOptions.Profiler profiler = choice(s, "profiler", NcclOptions.Profiler.values(), d.profiler());
        s.finish();
        return new NcclOptions(name, library, devices, debug, timing, profiler);
    }

    private static List<Integer> devices(final Section s) {
        final SpecValue v = s.get("devices");
        if (v == null) {
            return List.of();
        }
        if (v.kind() != Kind.LIST) {
            s.problems().expected(v, s.keyPath("devices"), "a list of GPU indices, one per local rank, e.g. [0, 1]");
            return List.of();
        }
        final List<Integer> out = new ArrayList<>();
        for (int i = 0; i < v.list().size(); i++) {
            out.add(s.integer(v.list().get(i), s.keyPath("devices") + "[" + i + "]", 0, 63, 0));
        }
        return out;
    }

    private static boolean bool(final Section s, final String key, final boolean fallback) {
        final SpecValue v = s.get(key);
        if (v == null) {
            return fallback;
        }
        if (v.kind() != Kind.BOOL) {
            s.problems().expected(v, s.keyPath(key), "true or false");
            return fallback;
        }
        final String t = v.text().toLowerCase(Locale.ROOT);
        return t.equals("true") || t.equals("yes") || t.equals("on") || t.equals("y");
    }

    static <E extends Enum<E>> E choice(final Section s, final String key, final E[] values,
                                                final E fallback) {
        final String text = s.string(key, null);
        if (text == null) {
            return fallback;
        }
        for (final E e : values) {
            if (e.name().equalsIgnoreCase(text)) {
                return e;
            }
        }
        final List<String> names = Arrays.stream(values).map(e -> e.name().toLowerCase(Locale.ROOT)).toList();
        s.problems().expected(s.get(key), s.keyPath(key), "one of " + String.join(", ", names),
                Suggestions.didYouMean(text, names));
        return fallback;
    }
}
