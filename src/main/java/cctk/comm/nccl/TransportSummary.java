package cctk.comm.nccl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What NCCL chose to move data with, read from its NCCL_DEBUG=INFO log: the network plugin ("Using network IB")
 * and the transport of every channel connection ("Channel 00/0 : 0[0] -> 1[1] via NET/IB/0/GDRDMA"), counted by
 * kind, so a fallback to sockets or a missing GPUDirect RDMA is visible in the rank's header line.
 */
public final class TransportSummary {

    /** The rest of the line: a plugin's name may hold a space (NET/AWS Libfabric/0/GDRDMA), as P2P/direct pointer. */
    private static final Pattern VIA = Pattern.compile(" via (\\S.*?)\\s*$");
    private static final Pattern NETWORK = Pattern.compile("Using network (.+)$");
    private static final Pattern NVLS = Pattern.compile("NVLS multicast support is available");

    private TransportSummary() {
    }

    /** The kind of one "via ..." transport: NET/IB GDRDMA, NET/IB, NET/Socket, P2P/NVLink-or-PCIe detail, SHM. */
    static String kind(final String via) {
        final String[] parts = via.split("/");
        switch (parts[0]) {
            case "NET" -> {
                final String net = parts.length > 1 ? parts[1] : "?";
                if (via.contains("GDRDMA")) {
                    return "NET/" + net + " GDRDMA";
                }
                return "IB".equals(net) ? "NET/IB no-GDRDMA" : "NET/" + net;
            }
            case "P2P" -> {
                return parts.length > 1 ? "P2P/" + parts[1] : "P2P";
            }
            case "SHM" -> {
                return "SHM";
            }
            case "COLLNET", "CollNet" -> {
                return "CollNet";
            }
            default -> {
                return parts[0];
            }
        }
    }

    /** The summary of a log's lines, e.g. {@code net IB; NET/IB GDRDMA x8, P2P/CUMEM x16}; "none" if no line told. */
    public static String of(final List<String> lines) {
        String network = null;
        boolean nvls = false;
        final Map<String, Integer> counts = new TreeMap<>();
        for (final String line : lines) {
            if (!line.contains("NCCL INFO")) {
                continue;
            }
            final Matcher net = NETWORK.matcher(line);
            if (net.find()) {
                network = net.group(1).trim();
            }
            if (line.contains("Channel") || line.contains("Connected")) {
                final Matcher via = VIA.matcher(line);
                if (via.find()) {
                    counts.merge(kind(via.group(1)), 1, Integer::sum);
                }
            }
            nvls |= NVLS.matcher(line).find();
        }
        final List<String> kinds = new java.util.ArrayList<>();
        counts.forEach((k, n) -> kinds.add(k + " x" + n));
        if (nvls) {
            kinds.add("NVLS");
        }
        final StringBuilder sb = new StringBuilder();
        if (network != null) {
            sb.append("net ").append(network).append(kinds.isEmpty() ? "" : "; ");
        }
        sb.append(String.join(", ", kinds));
        return sb.length() == 0 ? "none" : sb.toString();
    }

    /**
     * The summary of the file NCCL wrote for this process, or why there is none: its {@code %h} is this process's
     * own host name ({@link #hostName}), as NCCL fills it, never Slurm's node name for it (the two differ where a
     * site names its nodes one way for Slurm and another in the kernel).
     */
    public static String ofFile(final String pattern, final long pid) {
        return ofFile(pattern, hostName(), pid);
    }

    /** The summary of the file NCCL wrote for the process {@code pid} on {@code host}, or why there is none. */
    static String ofFile(final String pattern, final String host, final long pid) {
        if (pattern == null || pattern.isBlank()) {
            return "unknown (set nccl.debug: true to log it)";
        }
        final Path file = Path.of(debugFile(pattern, host, pid));
        try {
            return of(Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return "unknown (" + file + " unreadable)";
        }
    }

    /**
     * NCCL_DEBUG_FILE with NCCL's %h (host) and %p (pid) filled in. NCCL's %h is gethostname(2)'s name cut at its
     * first dot (its getHostName with '.' as the delimiter; NCCL's environment-variable documentation names %h the
     * hostname).
     */
    public static String debugFile(final String pattern, final String host, final long pid) {
        final int dot = host.indexOf('.');
        return pattern.replace("%h", dot < 0 ? host : host.substring(0, dot)).replace("%p", Long.toString(pid));
    }

    /**
     * This process's host name as gethostname(2) returns it: on Linux the kernel's node name of the process's UTS
     * namespace, which /proc/sys/kernel/hostname shows (read without any name service; not SLURMD_NODENAME, not a
     * DNS name). Where /proc is not there, Java's own gethostname (InetAddress.getLocalHost, whose host name is the
     * one gethostname gave it); "localhost" when even that fails.
     */
    static String hostName() {
        try {
            final String kernel = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8)
                .strip();
            if (!kernel.isEmpty()) {
                return kernel;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux's /proc: ask Java
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
