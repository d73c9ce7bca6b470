package cctk.diagnose.verdict;

import java.util.List;

/**
 * What a diagnosis names: a node, one NIC of a node, a pair of nodes on one mode, or a rank, with the evidence.
 *
 * @param kind      what kind of thing is suspect
 * @param node      the node index (for a pair the lower one; -1 for none)
 * @param peer      the other node of a pair, else -1
 * @param rank      the rank of a {@link Kind#RANK} suspect, else -1
 * @param where     the NIC or mode ({@code eth1}, {@code striped}, {@code all NICs}, {@code intra-node},
 *                  {@code arrival})
 * @param evidence  the measurements that found it, worst first
 * @param confirmed whether a repeat found it slow again (or no repeat was asked for)
 */
public record Suspect(Kind kind, int node, int peer, int rank, String where, List<Evidence> evidence,
                      boolean confirmed) {

    /** Kinds of suspect, from the broadest. */
    public enum Kind {
        /** A node: slow on every NIC, or inside (its ranks alone), or when striping. */
        NODE("node"),
        /** One NIC of one node: slow with every peer on that NIC only. */
        NODE_NIC("node+NIC"),
        /** A pair of nodes on one mode, when neither node explains it: a cable, a switch port, a route. */
        PAIR("pair"),
        /** A rank that arrives late at the collectives of its node. */
        RANK("rank");

        private final String label;

        Kind(final String label) {
            this.label = label;
        }

        /** {@code node+NIC}. */
        public String label() {
            return label;
        }

        /** The kind of a label, or null. */
        public static Kind byLabel(final String label) {
            for (final Kind k : values()) {
                if (k.label.equals(label)) {
                    return k;
                }
            }
            return null;
        }
    }

    public Suspect {
        evidence = List.copyOf(evidence);
    }

    /** The suspect for people: {@code node2}, {@code node2 eth1}, {@code node1-node3 eth0}, {@code 5 on node2}. */
    public String subject(final List<String> nodes) {
        return switch (kind) {
            case NODE -> nodes.get(node);
            case NODE_NIC -> nodes.get(node) + " " + where;
            case PAIR -> nodes.get(node) + "-" + nodes.get(peer) + " " + where;
            case RANK -> rank + " on " + nodes.get(node);
        };
    }

    /** This suspect, confirmed or not, with its evidence repeated. */
    Suspect withRepeat(final List<Evidence> repeated, final boolean held) {
        return new Suspect(kind, node, peer, rank, where, repeated, held);
    }
}
