package cctk.diagnose.verdict;

/**
 * One measurement behind a suspect, held against its peers.
 *
 * @param test    what was measured: {@code eth1 sendrecv}, {@code intra-node all_reduce}, {@code arrival}
 * @param figure  the suspect's figure: busbw in GB/s, or for a rank its median lateness in µs
 * @param peers   the peers' median it is held against: busbw in GB/s, or for a rank the median iteration in µs
 * @param agree   how many measurements agree that it is slow (a node's slow pairs; a rank's iterations last)
 * @param of      out of how many
 * @param repeat  the figure measured again (the repeat's median for a node), NaN when not repeated
 * @param held    whether the repeat was slow again (true when there was nothing to repeat)
 */
public record Evidence(String test, double figure, double peers, int agree, int of, double repeat, boolean held) {

    /** figure / peers. */
    public double ratio() {
        return peers > 0 ? figure / peers : Double.NaN;
    }

    /** repeat / peers, NaN when not repeated. */
    public double repeatRatio() {
        return peers > 0 ? repeat / peers : Double.NaN;
    }

    /** This evidence with its repeat. */
    Evidence repeated(final double again, final boolean slowAgain) {
        return new Evidence(test, figure, peers, agree, of, again, slowAgain);
    }
}
