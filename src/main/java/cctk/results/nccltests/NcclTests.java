package cctk.results.nccltests;

import cctk.Printable;
import cctk.results.Checks;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What cctk knows of NVIDIA nccl-tests' output (https://github.com/NVIDIA/nccl-tests, its README and
 * doc/PERFORMANCE.md; facts read from release v2.19.6): each test is one binary, {@code <collective>_perf}
 * (plus an optional name suffix such as {@code _mpi}); sizes are bytes, times microseconds, bandwidths GB/s
 * (1e9 B/s) with the same algbw and busbw definitions as cctk's; element types and operators have their own names
 * ({@code float}, {@code half}, ...; {@code none} for a collective without one). Names are translated here, both ways,
 * so that a cctk run and an nccl-tests run of the same measurement match.
 * <b>Note:</b> threadsafe (no state).
 */
public final class NcclTests {

    /** The backend of a run read from nccl-tests' output. */
    public static final String BACKEND = "nccl-tests";

    /** cctk's element types by nccl-tests' names (older releases call int8 "char" and int32 "int"). */
    private static final Map<String, String> TYPES = Map.ofEntries(Map.entry("float", "float32"),
        Map.entry("double", "float64"), Map.entry("half", "float16"), Map.entry("bfloat16", "bfloat16"),
        Map.entry("int8", "int8"), Map.entry("char", "int8"), Map.entry("uint8", "uint8"),
        Map.entry("int32", "int32"), Map.entry("int", "int32"), Map.entry("uint32", "uint32"),
        Map.entry("int64", "int64"), Map.entry("uint64", "uint64"), Map.entry("f8e4m3", "f8e4m3"),
        Map.entry("f8e5m2", "f8e5m2"));
    /** nccl-tests' names by cctk's. */
    private static final Map<String, String> NAMES = Map.of("float32", "float", "float64", "double", "float16",
        "half", "bfloat16", "bfloat16", "int8", "int8", "uint8", "uint8", "int32", "int32", "uint32", "uint32",
        "int64", "int64", "uint64", "uint64");
    /** The tests' names, longest first, as they appear in a binary's or a log file's name. */
    private static final Pattern TEST = Pattern.compile(
        "(all_reduce|all_gather|reduce_scatter|alltoallv|alltoall|broadcast|reduce|sendrecv|gather|scatter"
            + "|hypercube)_perf");

    private NcclTests() {
    }

    /** cctk's name of nccl-tests' element type {@code name}; an unknown name is an error naming it. */
    public static String dtype(final String name) {
        final String t = TYPES.get(name);
        if (t == null) {
            throw Checks.bad("type", name, "not an element type nccl-tests measures (" + String.join(", ",
                TYPES.keySet().stream().sorted().toList()) + ")");
        }
        return t;
    }

    /** nccl-tests' name of cctk's element type {@code dtype} (unknown names are kept). */
    public static String typeName(final String dtype) {
        return NAMES.getOrDefault(dtype, dtype);
    }

    /** cctk's operator for nccl-tests' {@code redop}: null for {@code none}; an unknown name is an error naming it. */
    public static String op(final String redop) {
        return "none".equals(redop) ? null : Checks.op("redop", redop);
    }

    /** The collective a test binary or file name names ({@code ./build/all_reduce_perf_mpi}), or null. */
    public static String collective(final String programOrFile) {
        if (programOrFile == null) {
            return null;
        }
        final String base = programOrFile.substring(Math.max(programOrFile.lastIndexOf('/'),
            programOrFile.lastIndexOf('\\')) + 1);
        final Matcher m = TEST.matcher(base.toLowerCase(Locale.ROOT));
        if (m.find()) {
            return m.group(1);
        }
        final int perf = base.indexOf("_perf");
        return perf > 0 ? Printable.of(base.substring(0, perf)) : null;
    }

    /** The binary that measures {@code collective}: {@code all_reduce_perf}. */
    public static String program(final String collective) {
        return collective + "_perf";
    }

    /**
     * The busbw factor nccl-tests applies to {@code collective} on {@code world} ranks (the {@code *GetBw} function of
     * its {@code src/<collective>.cu}: all_reduce 2(n-1)/n; all_gather, reduce_scatter, alltoall, alltoallv, gather
     * and scatter (n-1)/n; broadcast, reduce and sendrecv 1), the same as cctk's for the collectives both measure;
     * NaN for one whose algbw is not size / time (hypercube) or that is unknown (a barrier, which moves no data).
     */
    static double busFactor(final String collective, final int world) {
        if (world < 1 || collective == null) {
            return Double.NaN;
        }
        return switch (collective) {
            case "all_reduce" -> 2.0 * (world - 1) / world;
            case "all_gather", "reduce_scatter", "alltoall", "alltoallv", "gather", "scatter" -> (world - 1.0) / world;
            case "broadcast", "reduce", "sendrecv" -> 1.0;
            default -> Double.NaN;
        };
    }

    /**
     * {@code {algbw, busbw}} of a row from its size and time, as nccl-tests computes them before it rounds them to
     * two decimals (algbw = size / time, busbw = algbw times {@link #busFactor}), so that rows of a few bytes, printed
     * as 0.00, keep a bandwidth; the printed figures where the collective's factor is unknown. A printed figure is
     * nccl-tests' own value, from the unrounded time, rounded to its step (0.01 in a text table): the value kept
     * is the one from size and time moved into that rounding interval where the printed time's own rounding took it
     * out (45.3257 from a time of 4 or 5 digits, printed by nccl-tests as 45.32, is kept as just under 45.325), so a
     * table read back and written again prints nccl-tests' figures digit for digit.
     */
    static double[] bandwidths(final String collective, final int world, final long sizeBytes, final double timeUs,
                               final double printedAlg, final double printedBus, final double algStep,
                               final double busStep) {
        final double factor = busFactor(collective, world);
        if (Double.isNaN(factor) || !(timeUs > 0)) {
            return new double[] {printedAlg, printedBus};
        }
        final double alg = sizeBytes / timeUs / 1e3;
        return new double[] {within(alg, printedAlg, algStep), within(alg * factor, printedBus, busStep)};
    }

    /** {@code value} moved into the interval that rounds to {@code printed} at {@code step}, kept open at its ends. */
    private static double within(final double value, final double printed, final double step) {
        if (!Double.isFinite(printed) || !(step > 0)) {
            return value;
        }
        final double half = step / 2 * 0.999;
        return Math.max(printed - half, Math.min(printed + half, value));
    }

    /** The step of a printed decimal: 0.01 for {@code 45.32}, 1 for {@code 183338}, 0.1 for {@code 4.5e+01}'s form. */
    static double step(final String printed) {
        final String mantissa = printed.split("[eE]")[0];
        final int dot = mantissa.indexOf('.');
        final int decimals = dot < 0 ? 0 : mantissa.length() - dot - 1;
        final int exponent = mantissa.length() < printed.length() ? Integer.parseInt(printed.substring(
            mantissa.length() + 1)) : 0;
        return Math.pow(10, exponent - decimals);
    }

    /** nccl-tests' start time ({@code 2025-11-24 17:34:07}) as cctk writes it ({@code 2025-11-24T17:34:07}). */
    static String start(final String text) {
        return text != null && text.matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}") ? text.replace(' ', 'T')
            : null;
    }
}
