package cctk.results;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who one rank was: the {@code # Rank} line of the profile text and one object of the JSON's {@code ranks}.
 *
 * @param rank      world rank
 * @param host      host name
 * @param pid       process id, 0 when unknown
 * @param localRank rank on its node
 * @param node      index of its node in the job
 * @param device    what it computes on: {@code cpu}, or the GPU, driver, runtime and NCCL it uses
 * @param nics      the NICs that carry its traffic, as the backend names them ({@code eth0,lo (spec: eth1)})
 * @param transports what carried what, as the communicator names it once the warm-up has connected it ({@code node 0
 *                  of 2: shm to rank 1 (zero-copy); tcp over eth0,eth1 to rank 2 (leaders)}), the way NCCL's log names
 *                  SHM, P2P and NET; empty when the backend does not say
 */
public record RankInfo(int rank, String host, long pid, int localRank, int node, String device, String nics,
                       String transports) {

    public RankInfo {
        transports = transports == null ? "" : transports;
    }

    /** A rank whose backend does not name its transports. */
    public RankInfo(final int rank, final String host, final long pid, final int localRank, final int node,
                    final String device, final String nics) {
        this(rank, host, pid, localRank, node, device, nics, "");
    }

    /** The line after {@code # Rank N} in the profile text. */
    public String line() {
        return "rank " + rank + " host " + host + " pid " + pid + " local " + localRank + " node " + node + " device "
            + device + " nic " + nics + (transports.isEmpty() ? "" : " transports " + transports);
    }

    /** This rank with another device description. */
    public RankInfo withDevice(final String d) {
        return new RankInfo(rank, host, pid, localRank, node, d, nics, transports);
    }

    /** This rank with other NICs. */
    public RankInfo withNics(final String n) {
        return new RankInfo(rank, host, pid, localRank, node, device, n, transports);
    }

    /** This rank with its transports named ({@code null}: none). */
    public RankInfo withTransports(final String t) {
        return new RankInfo(rank, host, pid, localRank, node, device, nics, t);
    }

    /** One line of text for the store (fields separated by tabs, which no field keeps), read by {@link #decode}. */
    public String encode() {
        return String.join("\t", Integer.toString(rank), clean(host), Long.toString(pid), Integer.toString(localRank),
            Integer.toString(node), clean(device), clean(nics), clean(transports));
    }

    /** The rank {@link #encode} wrote. */
    public static RankInfo decode(final String text) {
        final String[] f = text.split("\t", -1);
        if (f.length != 8) {
            throw new IllegalArgumentException("not a rank's description: " + text);
        }
        return new RankInfo(Integer.parseInt(f[0]), f[1], Long.parseLong(f[2]), Integer.parseInt(f[3]),
            Integer.parseInt(f[4]), f[5], f[6], f[7]);
    }

    /** The JSON object. */
    Map<String, Object> toJson() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("rank", rank);
        m.put("host", host);
        m.put("pid", pid);
        m.put("local_rank", localRank);
        m.put("node", node);
        m.put("device", device);
        m.put("nics", nics);
        m.put("transports", transports);
        return m;
    }

    private static String clean(final String s) {
        return s == null ? "" : s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
