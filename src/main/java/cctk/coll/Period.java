package cctk.coll;

/**
 * Which phase of the pattern each element carries, so that one period of values (P of them, computed once per
 * case) can be laid down and compared a tile at a time, and a block in the wrong place still shows.
 * <p>Every buffer is cut into {@link Blocks}, each with an origin σ (whose data it is: a rank, a (sender,
 * receiver) pair, or the segment of a reduction), and each block into tiles of P elements. Element k of a block
 * of origin σ has phase
 * <pre>
 *   u = (k mod P + ρ(σ, t)) mod P,   t = ⌊k / P⌋,   ρ(σ, t) = (σ·T + t) mod P
 * </pre>
 * where T = ⌈count / P⌉ bounds the tiles of any block, so a tile holds one rotation of the period by ρ. Its
 * values are contiguous in a tape that holds the period twice ({@link Tape}), hence bulk copies and compares.
 * <p><b>Why a block in the wrong place is caught.</b> P is the smallest prime ≥ max(61, W + 1, √(Σ·count) + Σ)
 * for Σ origins (capped at 65536 unless W needs more), which makes σ·T + t &lt; Σ·T ≤ P: every tile of every block
 * of every rank has its own rotation ρ.
 * <ol>
 * <li>A tile that lands on another tile's place (another origin: a rank's slice in another rank's slot, a block
 *     sent to the wrong peer; or the same origin shifted by a multiple of P) carries a rotation other than the
 *     expected one. A sequence of prime length that equals a non-trivial rotation of itself is constant, and the
 *     values are not constant (hashed, see {@link ExactValues}), so such a tile has a wrong element.</li>
 * <li>A block shifted by d elements, d not a multiple of P, fills a tile it covers from two source tiles. When
 *     the first of them is whole, both pieces have the right phases only if the two source tiles have the same
 *     rotation, and distinct tiles have distinct rotations; so one piece at least is a non-trivial rotation,
 *     wrong unless the period happens to agree with that rotation over the whole piece.</li>
 * </ol>
 * Runs over which the values agree with a non-trivial rotation are short: the values are hashed (about 1/A of
 * phases agree for A distinct values), and {@code ExactValuesTest} measures the longest such run. With the cap
 * (all-to-all at thousands of ranks) rotations repeat only for tiles Σ·T apart in (origin, tile) order.
 * <p>Why not a plain period: a period that divides a block size (or that a block size divides into) lets a
 * block at another rank's offset match exactly, as did the former all-reduce results (period 3 in the index).
 *
 * @param length P, prime
 * @param tiles  T, tiles per block at most
 */
public record Period(int length, long tiles) {

    /** Smallest P: tiny buffers still get a period of many values. */
    static final int MIN = 61;
    /** Largest P that origins and counts alone can ask for (the tape is 2P elements). */
    static final int CAP = 1 << 16;

    /** The period of a case with {@code origins} distinct origins on {@code world} ranks, blocks ≤ count. */
    public static Period of(final int world, final long origins, final long count) {
        final long spread = (long) Math.ceil(Math.sqrt((double) origins * count)) + origins;
        final long target = Math.max(Math.max(MIN, world + 1L), Math.min(CAP, spread));
        final int p = nextPrime(target);
        return new Period(p, Math.max(1, (count + p - 1) / p));
    }

    /** Whether every (origin, tile) of {@code origins} origins has its own rotation (Σ·T ≤ P). */
    public boolean distinct(final long origins) {
        return origins <= length / tiles;
    }

    /** ρ(σ, t): the rotation of tile {@code tile} of a block of origin {@code origin}. */
    public int rotation(final long origin, final long tile) {
        return (int) Math.floorMod(origin * tiles + tile, (long) length);
    }

    /** The phase of element {@code k} of a block of origin {@code origin}. */
    public int phase(final long origin, final long k) {
        return (int) ((k % length + rotation(origin, k / length)) % length);
    }

    static int nextPrime(final long from) {
        long n = Math.max(2, from);
        while (!prime(n)) {
            n++;
        }
        return Math.toIntExact(n);
    }

    private static boolean prime(final long n) {
        if (n % 2 == 0) {
            return n == 2;
        }
        for (long f = 3; f * f <= n; f += 2) {
            if (n % f == 0) {
                return false;
            }
        }
        return true;
    }
}
