package cctk.rank;

import cctk.comm.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which ranks of a world share a host, as the ranks themselves find it: each publishes its host (the node name
 * Slurm gives it, else the kernel's host name, and the kernel's boot id) in the store; rank 0 reads the W entries,
 * groups them (hosts in the order of their lowest rank) and publishes one line per host under the host's key and one
 * summary line; every rank reads the summary and its own host's line. The store sees O(W) requests in all.
 *
 * @param hosts     how many hosts the world spans
 * @param host      this rank's host, 0..hosts-1 (host 0 holds rank 0)
 * @param members   the world ranks on this rank's host, ascending
 * @param perHost   the ranks on every host where all hosts hold the same number in blocks (world rank = host *
 *                  perHost + local rank), else 0
 * @param counts    how many ranks each host holds, in host order (for messages)
 * <b>Note:</b> threadsafe (immutable).
 */
record HostLayout(int hosts, int host, List<Integer> members, int perHost, List<Integer> counts) {

    HostLayout {
        members = List.copyOf(members);
        counts = List.copyOf(counts);
    }

    /** Whether the hierarchical algorithms apply: several hosts, the same number of ranks on each, in blocks. */
    boolean blocks() {
        return hosts > 1 && perHost > 0;
    }

    /** This host's key: its name and boot id (two containers of one kernel share the boot id, not the name). */
    static String hostKey(final String hostName) {
        String boot;
        try {
            boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id"), StandardCharsets.US_ASCII).trim();
        } catch (final IOException e) {
            boot = "unknown";
        }
        return hostName + " " + boot;
    }

    /** Finds the layout through {@code store}, keys under {@code prefix}; every rank of the world calls it. */
    static HostLayout find(final Store store, final String prefix, final int rank, final int world,
                           final String hostKey) {
        final String mine = HexFormat.of().formatHex(hostKey.getBytes(StandardCharsets.UTF_8));
        store.set(prefix + "host/" + rank, mine.getBytes(StandardCharsets.US_ASCII));
        if (rank == 0) {
            final List<String> keys = new ArrayList<>(world);
            for (int r = 0; r < world; r++) {
                keys.add(new String(store.get(prefix + "host/" + r), StandardCharsets.US_ASCII));
            }
            store.drop(prefix + "host/");
            publish(store, prefix, keys);
        }
        final String[] summary = new String(store.get(prefix + "hosts"), StandardCharsets.US_ASCII).split(" ");
        final String[] entry = new String(store.get(prefix + "at/" + mine), StandardCharsets.US_ASCII).split(" ");
        final List<Integer> members = new ArrayList<>();
        for (final String r : entry[1].split(",")) {
            members.add(Integer.parseInt(r));
        }
        final List<Integer> counts = new ArrayList<>();
        for (final String c : summary[2].split(",")) {
            counts.add(Integer.parseInt(c));
        }
        return new HostLayout(Integer.parseInt(summary[0]), Integer.parseInt(entry[0]), members,
                Integer.parseInt(summary[1]), counts);
    }

    /** Rank 0: the summary "hosts perHost count,count,..." and one "host rank,rank,..." line per host. */
    private static void publish(final Store store, final String prefix, final List<String> keys) {
        final Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int r = 0; r < keys.size(); r++) {
            byHost.computeIfAbsent(keys.get(r), k -> new ArrayList<>()).add(r);
        }
        final int first = byHost.values().iterator().next().size();
        boolean blocks = true;
        int h = 0;
        final StringBuilder counts = new StringBuilder();
        for (final Map.Entry<String, List<Integer>> e : byHost.entrySet()) {
            final List<Integer> ranks = e.getValue();
            blocks &= ranks.size() == first && ranks.get(0) == h * first && ranks.get(ranks.size() - 1)
                    == (h + 1) * first - 1;
            counts.append(counts.length() == 0 ? "" : ",").append(ranks.size());
            final StringBuilder line = new StringBuilder().append(h).append(' ');
            for (int i = 0; i < ranks.size(); i++) {
                line.append(i == 0 ? "" : ",").append(ranks.get(i));
            }
            store.set(prefix + "at/" + e.getKey(), line.toString().getBytes(StandardCharsets.US_ASCII));
            h++;
        }
        store.set(prefix + "hosts", (byHost.size() + " " + (blocks ? first : 0) + " " + counts)
                .getBytes(StandardCharsets.US_ASCII));
    }
}
