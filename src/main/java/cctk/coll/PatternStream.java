package cctk.coll;

import cctk.comm.CommBuffer;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Fills send buffers with a case's inputs and counts the wrong elements of receive buffers at memory speed: the
 * values of one period are computed and encoded once per case ({@link Tape}, O(P)), then every tile of every block
 * is one bulk copy from the tape into a staging chunk (uploaded a chunk at a time), or one bulk compare of the
 * downloaded chunk against the tape ({@link Arrays#mismatch}).
 * <p>Every element is checked and {@code #wrong} stays a count of elements: where a compare finds a differing
 * byte, that element alone is decoded and judged as the definition says (wrong unless within the collective's
 * {@link Collective#tolerance} of the expected value; NaN is wrong), and the compare resumes after it. Equal bytes
 * are equal values, so the fast path and the element-by-element definition ({@link CasePattern}) count the same.
 * A backend whose floating avg rounds differently from the tape (within tolerance) takes the per-element path for
 * those elements: slower, never wrong.
 * <p>No allocation per chunk, tile or element; per case, the blocks and (when the period grows) the tapes; the staging
 * chunk grows to the largest buffer seen, at most {@link #CHUNK} (a thousand ranks of one test JVM stay small).
 * <b>Note:</b> not threadsafe.
 */
public final class PatternStream {

    /** Staging chunk: a multiple of every element size. */
    static final int CHUNK = 1 << 20;

    private byte[] staging = new byte[0];
    private ByteBuffer stagingView = ByteBuffer.wrap(staging).order(Elements.ORDER);
    private final TileCursor cursor = new TileCursor();
    private final Tape inputs = new Tape();
    private final Tape results = new Tape();
    private Collective coll;
    private Case key;
    private CasePattern pattern;
    private boolean inputsBuilt;
    private boolean resultsBuilt;

    /** Writes this rank's inputs for {@code c} into all of {@code send}. */
    public void fill(final Collective collective, final Case c, final CommBuffer send) {
        select(collective, c);
        final Tape tape = inputTape();
        final Blocks blocks = pattern.send();
        final int size = c.type().bytes();
        cursor.start(blocks, pattern.period(), size);
        final long total = blocks.total() * size;
        stage(total);
        for (long at = 0; at < total; at += CHUNK) {
            final int chunk = (int) Math.min(CHUNK, total - at);
            for (int pos = 0; pos < chunk; ) {
                final int n = Math.min(cursor.runBytes(), chunk - pos);
                System.arraycopy(tape.bytes(), cursor.tapeOffset(), staging, pos, n);
                cursor.advance(n);
                pos += n;
            }
            stagingView.limit(chunk).position(0);
            send.upload(stagingView, at);
        }
    }

    /** Elements of {@code recv}'s checked part that differ from the expected values by more than the tolerance. */
    public long countWrong(final Collective collective, final Case c, final CommBuffer recv) {
        select(collective, c);
        final Tape tape = resultTape();
        final Blocks blocks = pattern.recv();
        final int size = c.type().bytes();
        cursor.start(blocks, pattern.period(), size);
        final long total = blocks.total() * size;
        stage(total);
        long wrong = 0;
        for (long at = 0; at < total; at += CHUNK) {
            final int chunk = (int) Math.min(CHUNK, total - at);
            stagingView.limit(chunk).position(0);
            recv.download(at, stagingView);
            for (int pos = 0; pos < chunk; ) {
                final int n = Math.min(cursor.runBytes(), chunk - pos);
                wrong += compare(tape, cursor.tapeOffset(), pos, n, size);
                cursor.advance(n);
                pos += n;
            }
        }
        return wrong;
    }

    /** Makes the staging chunk hold {@code total} bytes, or {@link #CHUNK}. */
    private void stage(final long total) {
        if (staging.length < Math.min(CHUNK, total)) {
            staging = new byte[(int) Math.min(CHUNK, Math.max(total, 2L * staging.length))];
            stagingView = ByteBuffer.wrap(staging).order(Elements.ORDER);
        }
    }

    /** Wrong elements among {@code n} bytes of staging at {@code pos} against the tape at {@code off}. */
    private long compare(final Tape tape, final int off, final int pos, final int n, final int size) {
        final byte[] want = tape.bytes();
        long wrong = 0;
        int i = 0;
        while (i < n) {
            final int m = Arrays.mismatch(staging, pos + i, pos + n, want, off + i, off + n);
            if (m < 0) {
                break;
            }
            final int e = (i + m) / size * size;
            if (wrongElement(tape, off + e, pos + e)) {
                wrong++;
            }
            i = e + size;
        }
        return wrong;
    }

    private boolean wrongElement(final Tape tape, final int tapeAt, final int stagingAt) {
        final double want = tape.valueAt(tapeAt);
        final double got = Elements.get(stagingView, key.type(), stagingAt / key.type().bytes());
        return !(Math.abs(got - want) <= coll.tolerance(key, want));
    }

    private void select(final Collective collective, final Case c) {
        if (collective == coll && c.equals(key)) {
            return;
        }
        coll = collective;
        key = c;
        pattern = CasePattern.of(collective, c);
        inputsBuilt = false;
        resultsBuilt = false;
    }

    private Tape inputTape() {
        if (!inputsBuilt) {
            inputs.build(key.type(), pattern.period().length(), pattern::inputAt);
            inputsBuilt = true;
        }
        return inputs;
    }

    private Tape resultTape() {
        if (pattern.moved()) {
            return inputTape();
        }
        if (!resultsBuilt) {
            results.build(key.type(), pattern.period().length(), pattern::expectedAt);
            resultsBuilt = true;
        }
        return results;
    }
}
