package cctk.diagnose.verdict;

/**
 * How late one rank arrived at the collectives of its group, over the iterations of one measurement.
 *
 * @param rank       the rank (in the job)
 * @param node       its node index
 * @param iterations iterations judged
 * @param last       in how many of them it arrived last
 * @param lateUs     median over the iterations of its lateness against the median of the other ranks, µs
 *                   (positive: it arrived after them)
 * @param iterUs     median duration of an iteration on the group's other ranks, µs: what lateness is held against
 */
public record RankSkew(int rank, int node, int iterations, int last, double lateUs, double iterUs) {

    /** Lateness as a fraction of an iteration. */
    public double ratio() {
        return iterUs > 0 ? lateUs / iterUs : 0;
    }
}
