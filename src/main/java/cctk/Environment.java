package cctk;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A process environment as cctk reads it: only by the names of {@link EnvVar}, or every {@code NCCL_*} and
 * {@code CCTK_*} variable and glibc's allocator settings for the result header. {@link #process} is the one place
 * cctk reads the environment of its own process (a test checks that no other class calls {@code System.getenv});
 * everything below the command line is handed an {@code Environment}, so tests hand in their own.
 * <b>Note:</b> threadsafe (immutable).
 */
public final class Environment {

    private static final Environment EMPTY = new Environment(Map.of());

    private final Map<String, String> variables;

    private Environment(final Map<String, String> variables) {
        this.variables = variables;
    }

    /** This process's environment. */
    public static Environment process() {
        return new Environment(System.getenv());
    }

    /** An environment of the given variables (a copy). */
    public static Environment of(final Map<String, String> variables) {
        return new Environment(Collections.unmodifiableMap(new HashMap<>(variables)));
    }

    /** No variables at all. */
    public static Environment empty() {
        return EMPTY;
    }

    /** The value of {@code v}, as set (null when unset). */
    public String get(final EnvVar v) {
        return variables.get(v.name());
    }

    /** The value of {@code v} without surrounding blanks, or null when unset or blank. */
    public String optional(final EnvVar v) {
        final String s = variables.get(v.name());
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** The value of {@code v}, or {@code fallback} when unset. */
    public String getOrDefault(final EnvVar v, final String fallback) {
        return variables.getOrDefault(v.name(), fallback);
    }

    /**
     * The variables that change what a row measures, sorted, for the result header: every {@code NCCL_*} and
     * {@code CCTK_*} variable (the job secret left out), and glibc's allocator settings ({@code GLIBC_TUNABLES},
     * {@code MALLOC_*}), which decide whether a library's per-call temporaries (Gloo's gathered tensor) are mapped
     * afresh on every call.
     */
    public Map<String, String> shown() {
        final Map<String, String> out = new TreeMap<>();
        variables.forEach((k, val) -> {
            if ((k.startsWith(EnvVar.NCCL_PREFIX) || k.startsWith(EnvVar.CCTK_PREFIX) || isAllocator(k))
                && !k.equals(EnvVar.CCTK_SECRET.name())) {
                out.put(k, val);
            }
        });
        return out;
    }

    /** Whether glibc's allocator is set here: {@code GLIBC_TUNABLES} or any {@code MALLOC_*} variable. */
    public boolean setsAllocator() {
        return variables.keySet().stream().anyMatch(Environment::isAllocator);
    }

    /** Whether {@code name} is one of glibc's allocator variables: {@code GLIBC_TUNABLES} or {@code MALLOC_*}. */
    public static boolean isAllocator(final String name) {
        return name.equals("GLIBC_TUNABLES") || name.startsWith("MALLOC_");
    }

    /** Every variable, to hand on whole to a child process (the launcher's ranks, sbatch). */
    public Map<String, String> toMap() {
        return variables;
    }

    /** This environment with {@code v} set to {@code value} (a copy). */
    public Environment with(final EnvVar v, final String value) {
        final Map<String, String> m = new HashMap<>(variables);
        m.put(v.name(), value);
        return new Environment(Collections.unmodifiableMap(m));
    }
}
