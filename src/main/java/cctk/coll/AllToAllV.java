package cctk.coll;

import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;

/**
 * All-to-all with per-peer counts from a W×W weight matrix (row = sender). Counts are scaled so the
 * busiest rank sends or receives at most S, each rounded down to 16 bytes; S = max over ranks of
 * max(send, recv) bytes; busbw = algbw·(W-1)/W, as nccl-tests' alltoallv. Out-of-place only.
 */
public final class AllToAllV implements Collective {

    @Override
    public CollectiveType type() {
        return CollectiveType.ALLTOALLV;
    }

    @Override
    public boolean hasInPlace() {
        return false;
    }

    /** Weights that grow with the ring distance j-i from 1 to {@code spread} (≥ 1); uniform when 1. */
    public static double[][] spreadWeights(final int world, final double spread) {
        final double[][] w = new double[world][world];
        for (int i = 0; i < world; i++) {
            for (int j = 0; j < world; j++) {
                w[i][j] = 1 + (spread - 1) * Math.floorMod(j - i, world) / Math.max(1, world - 1);
            }
        }
        return w;
    }

    @Override
    public Layout layout(final long totalBytes, final DType type, final Group group) {
        final double[][] w = group.weights();
        final int world = group.world();
        double maxLoad = 0;
        for (int i = 0; i < world; i++) {
            double row = 0;
            double col = 0;
            for (int j = 0; j < world; j++) {
                row += w[i][j];
                col += w[j][i];
            }
            maxLoad = Math.max(maxLoad, Math.max(row, col));
        }
        final long[][] counts = new long[world][world];
        for (int i = 0; i < world; i++) {
            for (int j = 0; j < world; j++) {
                // w / maxLoad is within [0, 1] for any weights (tiny ones too), so a slice never exceeds S
                final double share = maxLoad > 0 ? w[i][j] / maxLoad : 0;
                counts[i][j] = share > 0 ? Collective.alignedCount((long) Math.floor(share * totalBytes),
                    type.bytes()) : 0;
            }
        }
        long maxElements = 0;
        for (int i = 0; i < world; i++) {
            long sent = 0;
            long received = 0;
            for (int j = 0; j < world; j++) {
                sent += counts[i][j];
                received += counts[j][i];
            }
            maxElements = Math.max(maxElements, Math.max(sent, received));
        }
        final int r = group.rank();
        final long[] sendCounts = counts[r].clone();
        final long[] recvCounts = new long[world];
        for (int j = 0; j < world; j++) {
            recvCounts[j] = counts[j][r];
        }
        final long[] sendDispls = displacements(sendCounts);
        final long[] recvDispls = displacements(recvCounts);
        final long sendBytes = (sendDispls[world - 1] + sendCounts[world - 1]) * type.bytes();
        final long recvBytes = (recvDispls[world - 1] + recvCounts[world - 1]) * type.bytes();
        return new Layout(maxElements, maxElements * type.bytes(), sendBytes, recvBytes, 0, 0,
            new Layout.Vector(sendCounts, sendDispls, recvCounts, recvDispls));
    }

    private static long[] displacements(final long[] counts) {
        final long[] d = new long[counts.length];
        for (int i = 1; i < counts.length; i++) {
            d[i] = d[i - 1] + counts[i - 1];
        }
        return d;
    }

    @Override
    public double busBwFactor(final int world) {
        return (world - 1.0) / world;
    }

    /** Blocks back to back as the displacements put them (the counts' prefix sums). */
    @Override
    public Blocks sendBlocks(final Case c) {
        return Blocks.of(c.layout().vector().sendCounts(), p -> AllToAll.origin(c.world(), c.rank(), p));
    }

    @Override
    public Blocks recvBlocks(final Case c) {
        return Blocks.of(c.layout().vector().recvCounts(), q -> AllToAll.origin(c.world(), q, c.rank()));
    }

    @Override
    public long origins(final int world) {
        return (long) world * world;
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        final Layout.Vector v = c.layout().vector();
        comm.allToAllv(send, v.sendCounts(), v.sendDispls(), recv, v.recvCounts(), v.recvDispls(), c.type());
    }
}
