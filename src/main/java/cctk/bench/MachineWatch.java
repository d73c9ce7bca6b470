package cctk.bench;

import cctk.comm.Communicator;
import cctk.results.CrossCoreReadings;
import java.util.function.Function;

/**
 * The machine as every size of a sweep is measured: rank 0 takes a quick cross-core reading ({@link CrossCore#quick})
 * before the first size and after each one, once every rank's compilers are idle, while the ranks of its host wait on
 * the store (off the CPUs the reading needs) and the others wait in the next collective. Each row carries the reading
 * taken after its size; a size during which the reading moved more than {@link CrossCoreReadings#CHANGED} (the machine
 * changed while it was measured, as this project's VM does when the hypervisor places its virtual CPUs anew:
 * shared-memory figures move up to 2x both ways with it) is measured once more, so that a row is not half one machine
 * and half the other. Rank 0 decides; one vote tells every rank; raw measurement ({@code retime: false}) measures
 * nothing again and keeps the readings. Not for nccl (the GPUs move its data, not the host's cores), nor on one CPU (no
 * reading).
 * <b>Note:</b> not threadsafe: the sweep's thread drives it.
 */
final class MachineWatch {

    /** Sizes measured again for the machine at most a sweep: a machine that keeps changing is recorded, not chased. */
    static final int MAX_AGAIN = 4;
    /** How long every rank waits for its own compilers to go idle before a reading (a compile takes a core). */
    static final long QUIET_NANOS = 50_000_000L;

    private final Communicator comm;
    private final RankExchange exchange;
    private final MeasureStep step;
    private final boolean on;
    private final boolean waitsOnStore;
    private final Function<CompilerThreads, CrossCore.Reading> probe;
    private double before = Double.NaN;
    private double after = Double.NaN;
    private int readings;
    private int again;

    /**
     * A watch over {@code comm}'s sweep ({@code on}: false where no reading tells anything), whose ranks on rank 0's
     * host ({@code sameHost}) wait on the store while rank 0 reads; {@code probe} takes a reading (rank 0).
     */
    MachineWatch(final Communicator comm, final RankExchange exchange, final MeasureStep step, final boolean on,
                 final boolean sameHost, final Function<CompilerThreads, CrossCore.Reading> probe) {
        this.comm = comm;
        this.exchange = exchange;
        this.step = step;
        this.on = on && comm.size() > 1;
        this.waitsOnStore = sameHost;
        this.probe = probe;
    }

    /** Whether the sweep of {@code backend} is watched: the host backends, whose data the host's cores move. */
    static boolean watches(final String backend) {
        return !"nccl".equals(backend);
    }

    /** The reading before the first size (every rank). */
    void start() {
        if (on) {
            before = read();
        }
    }

    /**
     * After a size (every rank): takes a reading, and returns true when every rank is to measure the size again: the
     * reading moved more than {@link CrossCoreReadings#CHANGED} from the one before it, {@code mayAgain} (the size
     * was not measured again already), and fewer than {@link #MAX_AGAIN} sizes were.
     */
    boolean measuredAgain(final boolean mayAgain) {
        if (!on) {
            return false;
        }
        final double was = before;
        after = read();
        before = after;
        final boolean moved = comm.rank() == 0 && mayAgain && again < MAX_AGAIN
            && CrossCoreReadings.changed(was, after);
        if (step.maxOverRanks(moved ? 1 : 0) == 0) {
            return false;
        }
        again++;
        return true;
    }

    /** The reading after the last size measured (µs, rank 0; NaN elsewhere, or where none was taken). */
    double lastUs() {
        return after;
    }

    /** The sizes measured again for the machine so far. */
    int sizesAgain() {
        return again;
    }

    /**
     * Rank 0's reading, rounded to 0.1 µs (NaN elsewhere, or when none could be taken or it was disturbed), once every
     * rank's compilers are idle (at most {@link #QUIET_NANOS}; a vote then lets rank 0 start).
     */
    private double read() {
        step.compilers().awaitIdle(QUIET_NANOS);
        step.anyRank(false); // every rank's compilers idle (a vote is a barrier)
        final String key = "machine-size/" + readings++;
        if (comm.rank() != 0) {
            if (waitsOnStore) {
                exchange.fromZero(key, null);
            }
            return Double.NaN;
        }
        final CrossCore.Reading r = probe.apply(step.compilers());
        if (waitsOnStore) {
            exchange.fromZero(key, "");
        }
        return r.disturbed() || !Double.isFinite(r.roundTripUs()) ? Double.NaN
            : Math.round(r.roundTripUs() * 10) / 10.0;
    }
}
