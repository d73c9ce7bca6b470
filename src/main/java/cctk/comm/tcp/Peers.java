package cctk.comm.tcp;

/**
 * Which peers each algorithm talks to, as symmetric sets (q is in p's set exactly when p is in q's), and the call
 * that connects a set's missing pairs before the algorithm runs ({@link TcpMesh#ensure}). Sets are arrays made once,
 * so checking that a set is connected allocates nothing.
 * <ul>
 *   <li>{@link #all}: every other rank (all-to-all, and the direct algorithms up to {@link #directMaxRanks} ranks)</li>
 *   <li>{@link #ring}: the left and right neighbours (rings and chains: all-reduce, reduce-scatter, all-gather,
 *       broadcast, reduce)</li>
 *   <li>{@link #barrier}: rank ± 2^k for 2^k &lt; W (the dissemination barrier; it holds the recursive-doubling
 *       partners rank XOR 2^k, which are rank ± 2^k too)</li>
 *   <li>a pair for send/recv: the peer sent to and the one received from</li>
 * </ul>
 * <b>Note:</b> not threadsafe: the communicator's thread.
 */
final class Peers {

    private final TcpMesh mesh;
    private final int rank;
    private final int size;
    private final int directMaxRanks;
    private final int[] all;
    private final int[] ring;
    private final int[] barrier;
    private final int[] pair = new int[2];

    Peers(final TcpMesh mesh, final int rank, final int size, final int directMaxRanks) {
        this.mesh = mesh;
        this.rank = rank;
        this.size = size;
        this.directMaxRanks = directMaxRanks;
        this.all = new int[Math.max(0, size - 1)];
        for (int p = 0, i = 0; p < size; p++) {
            if (p != rank) {
                all[i++] = p;
            }
        }
        this.ring = distinct(new int[] {Math.floorMod(rank - 1, size), (rank + 1) % size});
        int steps = 0;
        for (int d = 1; d < size; d <<= 1) {
            steps++;
        }
        final int[] b = new int[2 * steps];
        int i = 0;
        for (int d = 1; d < size; d <<= 1) {
            b[i++] = (rank + d) % size;
            b[i++] = Math.floorMod(rank - d, size);
        }
        this.barrier = distinct(b);
    }

    /** The distinct entries of {@code a} other than this rank. */
    private int[] distinct(final int[] a) {
        return java.util.Arrays.stream(a).filter(p -> p != rank).distinct().toArray();
    }

    /** Whether the direct algorithms (every rank talks to every other) run at this world size. */
    boolean direct() {
        return size <= directMaxRanks;
    }

    void all() {
        mesh.ensure(all, all.length);
    }

    void ring() {
        mesh.ensure(ring, ring.length);
    }

    void barrier() {
        mesh.ensure(barrier, barrier.length);
    }

    /** Connects the peers of one send/recv (the pairs make a symmetric set when the pattern is a permutation). */
    void pair(final int to, final int from) {
        pair[0] = to;
        pair[1] = from;
        mesh.ensure(pair, 2);
    }
}
