package cctk.diagnose.verdict;

/**
 * One measurement behind a suspect, held against its peers.
 *
 * @param test    what was measured: {@code eth1 sendrecv}, {@code intra-node all_reduce}, {@code arrival}
 * @param figure  the suspect's figure: busbw in GB/s, or for a rank its median lateness in µs
 * @param peers   the peers' median it is held against: busbw in GB/s, or for a rank the median iteration in µs
 * @param limit   the figure below which it counts as slow ({@link Spread#limit}; for a rank, unused: NaN)
 * @param agree   how many measurements agree that it is slow (a node's slow pairs; a rank's iterations last)
 * @param of      out of how many
 * @param repeat  the figure measured again (the repeat's median for a node), NaN when not repeated
 * @param repeatPeers what the repeat is held against (the second pass's own median for a node's inside or a
 *                rank; else {@code peers})
 * @param held    whether the repeat was slow again (true when there was nothing to repeat)
 */
public record Evidence(String test, double figure, double peers, double limit, int agree, int of, double repeat,
                       double repeatPeers, boolean held) {

    /** Evidence not repeated yet. */
    public Evidence(final String test, final double figure, final double peers, final double limit, final int agree,
                    final int of) {
        this(test, figure, peers, limit, agree, of, Double.NaN, Double.NaN, true);
    }

    /** figure / peers. */
    public double ratio() {
        return peers > 0 ? figure / peers : Double.NaN;
    }

    /** repeat / repeatPeers, NaN when not repeated. */
    public double repeatRatio() {
        return repeatPeers > 0 ? repeat / repeatPeers : Double.NaN;
    }

    /** This evidence with its repeat, held against {@code against}. */
    Evidence repeated(final double again, final double against, final boolean slowAgain) {
        return new Evidence(test, figure, peers, limit, agree, of, again, against, slowAgain);
    }
}
