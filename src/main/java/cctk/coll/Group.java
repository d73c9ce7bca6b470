package cctk.coll;

/**
 * Who takes part, as far as byte counts depend on it.
 *
 * @param world   ranks in the communicator
 * @param rank    this rank
 * @param weights all-to-all-v traffic weights, W×W, row = sender, column = receiver; null for other collectives
 */
public record Group(int world, int rank, double[][] weights) {
}
