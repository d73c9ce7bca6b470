package cctk.spec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The NCCL variables a spec may set, each with the values NCCL really accepts. Every entry follows
 * NCCL's documentation and source (docs/sources.md: [NCCL-ENV] for the values, [NCCL-SRC] for the list syntax and
 * the parsing pitfalls); cctk is stricter than NCCL, which silently ignores what it cannot parse.
 */
public final class NcclVariables {

    /** Topology levels, compared with strcmp by NCCL, so case matters ([NCCL-SRC]). */
    static final List<String> LEVELS = List.of("LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS");
    /** [NCCL-ENV] NCCL_DEBUG (source also ABORT), case-insensitive. */
    static final List<String> DEBUG_LEVELS = List.of("VERSION", "WARN", "INFO", "TRACE", "ABORT");
    /** [NCCL-ENV] NCCL_DEBUG_SUBSYS, including ALLOC_HOST and DESTROY of the 2.30 source. */
    static final List<String> SUBSYSTEMS = List.of("INIT", "COLL", "P2P", "SHM", "NET", "GRAPH", "TUNING", "ENV",
            "ALLOC", "CALL", "PROXY", "NVLS", "BOOTSTRAP", "REG", "PROFILE", "RAS", "ALL", "ALLOC_HOST", "DESTROY");
    /** [NCCL-ENV] NCCL_ALGO tokens (Collnet 2.5-2.13, CollnetChain/Direct 2.14+, NVLS 2.17+, PAT 2.23+). */
    static final List<String> ALGORITHMS = List.of("Ring", "Tree", "Collnet", "CollnetChain", "CollnetDirect",
            "NVLS", "NVLSTree", "PAT");
    /** [NCCL-ENV] NCCL_PROTO tokens. */
    static final List<String> PROTOCOLS = List.of("LL", "LL128", "Simple");
    /** Function names of the 2.24+ per-function syntax {@code allreduce:tree;broadcast:ring}. */
    static final List<String> FUNCTIONS = List.of("AllReduce", "Broadcast", "Reduce", "AllGather", "ReduceScatter");
    /** [NCCL-ENV][AWS-OFI] NCCL_NET: IB, Socket, and the aws-ofi-nccl names; matched case-insensitively. */
    static final List<String> NETS = List.of("IB", "Socket", "AWS Libfabric", "Libfabric", "OFI");

    private static final Pattern DECIMAL = Pattern.compile("-?(0|[1-9][0-9]*)");
    private static final Pattern LIST_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,15}");
    private static final Pattern PLUGIN = Pattern.compile("[A-Za-z0-9_.-]{1,255}");
    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+):([0-9]{1,5})");
    /** Names NCCL renamed: the old ones do nothing in current NCCL ([NCCL-ENV]). */
    private static final Map<String, String> RENAMED = Map.of("NCCL_IB_GDR_LEVEL", "NCCL_NET_GDR_LEVEL",
            "NCCL_MIN_NRINGS", "NCCL_MIN_NCHANNELS", "NCCL_MAX_NRINGS", "NCCL_MAX_NCHANNELS");

    private static final Map<String, Function<String, String>> TABLE = new LinkedHashMap<>();

    static {
        // [NCCL-SRC] list syntax: interfaces take no :port (eth0:1 would silently act as the prefix eth0).
        TABLE.put("NCCL_SOCKET_IFNAME", v -> nameList(v, false, 16));
        TABLE.put("NCCL_OOB_NET_IFNAME", v -> nameList(v, false, 16));
        TABLE.put("NCCL_IB_HCA", v -> nameList(v, true, 32));
        TABLE.put("NCCL_SOCKET_FAMILY", v -> oneOf(v, List.of("AF_INET", "AF_INET6"), true));
        // [NCCL-ENV] booleans: "1 disables".
        TABLE.put("NCCL_IB_DISABLE", v -> integer(v, 0, 1));
        TABLE.put("NCCL_P2P_DISABLE", v -> integer(v, 0, 1));
        TABLE.put("NCCL_SHM_DISABLE", v -> integer(v, 0, 1));
        TABLE.put("NCCL_OOB_NET_ENABLE", v -> integer(v, 0, 1));
        // [NCCL-ENV] levels: names, or the legacy integers (0=LOC ... 4=SYS, larger = SYS).
        TABLE.put("NCCL_P2P_LEVEL", NcclVariables::level);
        TABLE.put("NCCL_NET_GDR_LEVEL", NcclVariables::level);
        // [NCCL-ENV] integers; decimal only, because NCCL's strtoll reads 010 as 8 and 08388608 as 0 ([NCCL-SRC]).
        TABLE.put("NCCL_IB_GID_INDEX", v -> integer(v, -1, 255));
        TABLE.put("NCCL_IB_TIMEOUT", v -> integer(v, 0, 31));
        TABLE.put("NCCL_IB_RETRY_CNT", v -> integer(v, 0, 7));
        TABLE.put("NCCL_CROSS_NIC", v -> integer(v, 0, 2));
        TABLE.put("NCCL_MIN_NCHANNELS", v -> integer(v, 1, 64));
        TABLE.put("NCCL_MAX_NCHANNELS", v -> integer(v, 1, 64));
        TABLE.put("NCCL_MIN_CTAS", v -> integer(v, 1, 64));
        TABLE.put("NCCL_MAX_CTAS", v -> integer(v, 1, 64));
        TABLE.put("NCCL_BUFFSIZE", v -> integer(v, 1, Integer.MAX_VALUE));
        TABLE.put("NCCL_SOCKET_NTHREADS", v -> integer(v, 1, 16));
        TABLE.put("NCCL_NSOCKS_PERTHREAD", v -> integer(v, 1, 64));
        TABLE.put("NCCL_SOCKET_RETRY_CNT", v -> integer(v, 0, 1_000_000));
        TABLE.put("NCCL_SOCKET_RETRY_SLEEP_MSEC", v -> integer(v, 0, 1_000_000));
        // [NCCL-ENV] names: NCCL_NET exact but case-insensitive; NCCL_NET_PLUGIN a suffix, a library or none.
        TABLE.put("NCCL_NET", v -> oneOf(v, NETS, false));
        TABLE.put("NCCL_NET_PLUGIN", v -> PLUGIN.matcher(v).matches() ? null
                : "expected a plugin name such as aws-ofi or none");
        TABLE.put("NCCL_DEBUG", v -> oneOf(v, DEBUG_LEVELS, false));
        TABLE.put("NCCL_DEBUG_SUBSYS", v -> tokens(v, SUBSYSTEMS));
        TABLE.put("NCCL_DEBUG_FILE", NcclVariables::path);
        TABLE.put("NCCL_CONF_FILE", NcclVariables::path);
        TABLE.put("NCCL_ALGO", v -> perFunction(v, ALGORITHMS));
        TABLE.put("NCCL_PROTO", v -> perFunction(v, PROTOCOLS));
        TABLE.put("NCCL_COMM_ID", NcclVariables::hostPort);
    }

    private NcclVariables() {
    }

    public static boolean isKnown(final String name) {
        return TABLE.containsKey(name);
    }

    /** Why a name is not in the table: renamed, or unknown with the closest known name. */
    static String unknownMessage(final String name) {
        if (RENAMED.containsKey(name)) {
            return "renamed; NCCL reads " + RENAMED.get(name) + " instead";
        }
        if (!name.startsWith("NCCL_")) {
            return "not an NCCL variable; put other variables under env";
        }
        return "unknown NCCL variable; did you mean '" + Suggestions.nearest(name, TABLE.keySet())
                + "'? (NCCL silently ignores variables it does not know)";
    }

    /**
     * Checks one value; null when NCCL reads it as meant, else {@code expected X, found 'Y'}.
     * The caller knows the name is in the table.
     */
    public static String check(final String name, final String value) {
        final String expected = TABLE.get(name).apply(value);
        if (expected == null) {
            return null;
        }
        final int hint = expected.indexOf("; did you mean");
        final String found = ", found '" + Problems.printable(value) + "'";
        return hint < 0 ? expected + found : expected.substring(0, hint) + found + expected.substring(hint);
    }

    /** Checks across variables: NTHREADS x NSOCKS_PERTHREAD must stay within 64 ([NCCL-ENV]). */
    static String checkTogether(final Map<String, String> env) {
        final String t = env.get("NCCL_SOCKET_NTHREADS");
        final String n = env.get("NCCL_NSOCKS_PERTHREAD");
        if (t != null && n != null && Integer.parseInt(t) * Integer.parseInt(n) > 64) {
            return "expected NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD <= 64, found " + t + " x " + n;
        }
        return null;
    }

    private static String integer(final String v, final long min, final long max) {
        final String expected = min == 0 && max == 1 ? "expected 0 or 1"
                : "expected a decimal integer from " + min + " to " + max + " (no leading zeros, no hex)";
        if (!DECIMAL.matcher(v).matches() || v.length() > 12) {
            return expected;
        }
        final long n = Long.parseLong(v);
        return n < min || n > max ? expected : null;
    }

    private static String level(final String v) {
        if (LEVELS.contains(v) || (DECIMAL.matcher(v).matches() && !v.startsWith("-") && v.length() < 4)) {
            return null;
        }
        return "expected one of " + String.join(", ", LEVELS) + " (upper case: NCCL ignores anything else)"
                + " or a legacy level 0-4";
    }

    private static String oneOf(final String v, final List<String> allowed, final boolean caseSensitive) {
        for (final String a : allowed) {
            if (caseSensitive ? a.equals(v) : a.equalsIgnoreCase(v)) {
                return null;
            }
        }
        return "expected one of " + String.join(", ", allowed) + Suggestions.didYouMean(v, allowed);
    }

    /** [NCCL-SRC]: [^][=]name[:port]{,name[:port]}; ^ and = only at the start; :port only for HCAs. */
    private static String nameList(final String v, final boolean ports, final int max) {
        final String expected = "expected a comma list of " + (ports ? "HCA names, each with an optional :port,"
                : "interface names (no :port),") + " optionally starting with ^ (exclude), = (exact) or ^=";
        String rest = v.startsWith("^") ? v.substring(1) : v;
        rest = rest.startsWith("=") ? rest.substring(1) : rest;
        final String[] entries = rest.split(",", -1);
        if (rest.isEmpty() || entries.length > max) {
            return expected + " (1 to " + max + " entries)";
        }
        for (final String entry : entries) {
            final String[] parts = entry.split(":", -1);
            final boolean portOk = parts.length == 1
                    || (ports && parts.length == 2 && parts[1].matches("[1-9][0-9]{0,2}"));
            if (!LIST_NAME.matcher(parts[0]).matches() || !portOk) {
                return expected;
            }
        }
        return null;
    }

    /** A comma list of tokens (case-insensitive), optionally starting with ^ to exclude. */
    private static String tokens(final String v, final List<String> allowed) {
        final String list = v.startsWith("^") ? v.substring(1) : v;
        final Set<String> upper = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        upper.addAll(allowed);
        for (final String token : list.split(",", -1)) {
            if (!upper.contains(token)) {
                return "expected a comma list of " + String.join(", ", allowed) + ", optionally starting with ^"
                        + Suggestions.didYouMean(token, allowed);
            }
        }
        return null;
    }

    /** NCCL_ALGO/NCCL_PROTO: a token list, or the 2.24+ form {@code [func:]list{;func:list}}. */
    private static String perFunction(final String v, final List<String> allowed) {
        final String[] parts = v.split(";", -1);
        for (int i = 0; i < parts.length; i++) {
            String list = parts[i];
            final int colon = list.indexOf(':');
            if (colon >= 0) {
                final String func = list.substring(0, colon);
                if (FUNCTIONS.stream().noneMatch(f -> f.equalsIgnoreCase(func))) {
                    return "expected a function name (" + String.join(", ", FUNCTIONS) + ") before ':'"
                            + Suggestions.didYouMean(func, FUNCTIONS);
                }
                list = list.substring(colon + 1);
            } else if (i > 0) {
                return "expected func:list after ';' (NCCL 2.24+ syntax, e.g. ring;allreduce:tree)";
            }
            final String problem = tokens(list, allowed);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    /** [NCCL-ENV] NCCL_DEBUG_FILE: a path, %h and %p expand; NCCL does not expand ~. */
    private static String path(final String v) {
        if (v.isEmpty() || v.startsWith("~") || v.chars().anyMatch(Character::isWhitespace)) {
            return "expected a file path without ~ or spaces (NCCL expands %h and %p, not ~)";
        }
        return null;
    }

    private static String hostPort(final String v) {
        final java.util.regex.Matcher m = HOST_PORT.matcher(v);
        if (!m.matches() || Integer.parseInt(m.group(2)) < 1 || Integer.parseInt(m.group(2)) > 65535) {
            return "expected host:port, e.g. 10.0.0.1:29500";
        }
        return null;
    }
}
