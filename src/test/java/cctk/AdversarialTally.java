package cctk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The figures of the adversarial suite, one tally per area (CLI inputs, hostile result files, store and mesh
 * attacks, resource and signal faults, injection payloads, Slurm faults): inputs tried, clear errors, stack
 * traces, hangs, wrong exit codes, rows lost and strangers accepted. Each adversarial test class records every
 * input it tried with {@link #record}, asserts on each input itself, and calls {@link #report} once at the end,
 * which prints one line and appends it to {@code target/adversarial.txt}, so a whole {@code mvn verify} leaves the
 * table the closing note quotes. <b>Note:</b> threadsafe.
 */
public final class AdversarialTally {

    /** What one input led to. */
    public enum Outcome {
        /** Refused or reported in one paragraph, with the right exit code. */
        CLEAR_ERROR,
        /** Accepted as it should be (a valid input that must keep working), or survived without harm. */
        HANDLED,
        /** A Java stack trace reached the user. */
        STACK_TRACE,
        /** The input did not end within its deadline. */
        HANG,
        /** It ended with an exit code other than the one documented for it. */
        WRONG_EXIT_CODE,
        /** A measured row was missing from the final files afterwards. */
        ROWS_LOST,
        /** A connection that did not belong to the job was taken as one of its ranks. */
        STRANGER_ACCEPTED
    }

    private static final Path FILE = Path.of("target", "adversarial.txt");

    private final String area;
    private final List<String> failures = new ArrayList<>();
    private final int[] counts = new int[Outcome.values().length];
    private int inputs;

    public AdversarialTally(final String area) {
        this.area = area;
    }

    /** Records what {@code input} led to. */
    public synchronized void record(final String input, final Outcome outcome) {
        inputs++;
        counts[outcome.ordinal()]++;
        if (outcome != Outcome.CLEAR_ERROR && outcome != Outcome.HANDLED) {
            failures.add(outcome + ": " + input);
        }
    }

    /** Inputs that went wrong so far, one line each ({@code OUTCOME: input}). */
    public synchronized List<String> failures() {
        return List.copyOf(failures);
    }

    /** Inputs recorded so far. */
    public synchronized int inputs() {
        return inputs;
    }

    /** The table row of this area. */
    public synchronized String line() {
        return String.format("adversarial | %s | inputs %d | clear errors %d | handled %d | stack traces %d | hangs %d"
                + " | wrong exit codes %d | rows lost %d | strangers accepted %d", area, inputs,
                counts[Outcome.CLEAR_ERROR.ordinal()], counts[Outcome.HANDLED.ordinal()],
                counts[Outcome.STACK_TRACE.ordinal()], counts[Outcome.HANG.ordinal()],
                counts[Outcome.WRONG_EXIT_CODE.ordinal()], counts[Outcome.ROWS_LOST.ordinal()],
                counts[Outcome.STRANGER_ACCEPTED.ordinal()]);
    }

    /** Prints the row and appends it to {@code target/adversarial.txt}. */
    public synchronized void report() {
        final String line = line();
        System.out.println(line);
        try {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, line + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (final IOException e) {
            System.out.println("adversarial: could not append to " + FILE + ": " + e.getMessage());
        }
    }
}
