package cctk.diagnose.verdict;

/**
 * A pair of nodes to measure again on one mode, to confirm a suspect.
 *
 * @param a    the lower node index
 * @param b    the higher node index
 * @param mode the mode index
 */
public record Recheck(int a, int b, int mode) {

    public Recheck {
        if (a >= b || a < 0) {
            throw new IllegalArgumentException("a recheck pair is two nodes, lower first: " + a + "-" + b);
        }
    }

    /** The pair of nodes {@code x}, {@code y} in either order on {@code mode}. */
    public static Recheck of(final int x, final int y, final int mode) {
        return new Recheck(Math.min(x, y), Math.max(x, y), mode);
    }
}
