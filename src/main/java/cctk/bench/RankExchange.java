package cctk.bench;

import cctk.comm.Store;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The harness's traffic through the store, every key under one run prefix: rank lines and per-measurement
 * results go to rank 0; skip reasons and the final status come from one rank to the others.
 * <b>Note:</b> threadsafe as far as the store is; one per rank.
 */
final class RankExchange {

    private final Store store;
    private final String prefix;
    private final int rank;
    private final int world;

    RankExchange(final Store store, final String prefix, final int rank, final int world) {
        this.store = store;
        this.prefix = prefix;
        this.rank = rank;
        this.world = world;
    }

    /** Every rank's {@code mine} in rank order on rank 0; null elsewhere. */
    List<String> gatherText(final String name, final String mine) {
        store.set(prefix + name + "/" + rank, utf8(mine));
        if (rank != 0) {
            return null;
        }
        final List<String> all = new ArrayList<>(world);
        for (int r = 0; r < world; r++) {
            all.add(new String(store.get(prefix + name + "/" + r), StandardCharsets.UTF_8));
        }
        return all;
    }

    /** Rank 0's {@code value} on every rank. */
    String fromRankZero(final String name, final String value) {
        if (rank == 0) {
            store.set(prefix + name, utf8(value));
            return value;
        }
        return new String(store.get(prefix + name), StandardCharsets.UTF_8);
    }

    /** On rank 0, what rank {@code from} published under {@code name}; {@code mine} is published when not null. */
    String fromRank(final int from, final String name, final String mine) {
        if (mine != null) {
            store.set(prefix + name + "/" + rank, utf8(mine));
        }
        if (rank != 0) {
            return mine;
        }
        return new String(store.get(prefix + name + "/" + from), StandardCharsets.UTF_8);
    }

    /** Every rank's result in rank order on rank 0; null elsewhere. */
    List<MeasureStep.Result> gatherResults(final String name, final MeasureStep.Result mine) {
        final double[] t = mine.timesUs();
        final ByteBuffer b = ByteBuffer.allocate(12 + 8 * t.length);
        b.putLong(mine.wrong()).putInt(t.length);
        for (final double v : t) {
            b.putDouble(v);
        }
        store.set(prefix + name + "/" + rank, b.array());
        if (rank != 0) {
            return null;
        }
        final List<MeasureStep.Result> all = new ArrayList<>(world);
        for (int r = 0; r < world; r++) {
            final ByteBuffer in = ByteBuffer.wrap(store.get(prefix + name + "/" + r));
            final long wrong = in.getLong();
            final double[] times = new double[in.getInt()];
            for (int k = 0; k < times.length; k++) {
                times[k] = in.getDouble();
            }
            all.add(new MeasureStep.Result(times, wrong));
        }
        return all;
    }

    private static byte[] utf8(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
