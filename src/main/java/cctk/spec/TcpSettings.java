package cctk.spec;

import java.util.Locale;

/**
 * The {@code tcp:} section: which transports the CPU backend {@code tcp} uses (the backend {@code tcp-flat} ignores
 * it: always TCP between every pair of ranks, the way cctk ran before shared memory).
 *
 * @param shm       {@code auto}: ranks that share a host talk through shared memory; {@code off}: through TCP
 *                  over loopback (or the NICs' addresses)
 * @param algorithm across hosts: {@code auto} runs the hierarchical algorithms where they apply (the same number of
 *                  ranks on every host, in blocks) and flat TCP elsewhere; {@code hierarchical} insists (a job where
 *                  they do not apply fails, naming why); {@code flat} runs TCP between every pair
 * <b>Note:</b> threadsafe (immutable).
 */
public record TcpSettings(Shm shm, Algorithm algorithm) {

    /** The defaults of a spec without a {@code tcp:} section. */
    public static final TcpSettings DEFAULT = new TcpSettings(Shm.AUTO, Algorithm.AUTO);

    /** Shared memory between the ranks of one host. */
    public enum Shm {
        AUTO, OFF;

        public String specName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The algorithms across hosts. */
    public enum Algorithm {
        AUTO, HIERARCHICAL, FLAT;

        public String specName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
