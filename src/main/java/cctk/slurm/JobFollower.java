package cctk.slurm;

import cctk.CctkException;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Follows one job until Slurm reports a terminal state, printing every change of state with a time
 * stamp. Polls gently (squeue's man page warns that frequent polling loads slurmctld): the interval
 * starts at {@code firstPoll} and grows by half each quiet poll up to {@code maxPoll}.
 */
public final class JobFollower {

    /** How often to ask and for how long. */
    public record Polling(Duration firstPoll, Duration maxPoll, Duration deadline, Duration unknownGrace) {
        /** 1 s growing to 10 s; a job unknown to every tool for 30 s is an error. */
        public static Polling gentle(final Duration deadline) {
            return new Polling(Duration.ofSeconds(1), Duration.ofSeconds(10), deadline, Duration.ofSeconds(30));
        }
    }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final Function<String, Optional<JobStatus>> query;
    private final Polling polling;
    private final Consumer<String> out;

    /** @param query one look at a job (normally {@link JobQuery#query}) */
    public JobFollower(final Function<String, Optional<JobStatus>> query, final Polling polling,
                       final Consumer<String> out) {
        this.query = query;
        this.polling = polling;
        this.out = out;
    }

    public JobFollower(final SlurmCli slurm, final Polling polling, final Consumer<String> out) {
        this(new JobQuery(slurm)::query, polling, out);
    }

    /** Waits for the end of {@code jobId} and returns its last status (terminal). */
    public JobStatus follow(final String jobId) {
        final long start = System.nanoTime();
        final long end = start + polling.deadline().toNanos();
        long lastSeen = start;
        Duration pause = polling.firstPoll();
        JobStatus last = null;
        while (true) {
            final Optional<JobStatus> now = query.apply(jobId);
            final long t = System.nanoTime();
            if (now.isPresent()) {
                lastSeen = t;
                final JobStatus s = now.get();
                if (last == null || s.state() != last.state() || !Objects.equals(s.reason(), last.reason())) {
                    out.accept(LocalTime.now().truncatedTo(ChronoUnit.SECONDS).format(TIME) + " " + s.describe());
                    pause = polling.firstPoll();
                }
                last = s;
                if (s.state().terminal()) {
                    return s;
                }
            } else if (t - lastSeen > polling.unknownGrace().toNanos()) {
                throw CctkException.environment("job " + jobId + " is unknown to squeue, scontrol and sacct"
                        + (last == null ? "" : " (last seen " + last.state() + ")")
                        + ": it ended more than MinJobAge ago or the cluster was restarted.");
            }
            if (t + pause.toNanos() > end) {
                throw CctkException.environment("job " + jobId + " is still "
                        + (last == null ? "not visible" : last.state().toString()) + " after "
                        + polling.deadline().toSeconds() + " s of waiting; it keeps its place in Slurm: follow it"
                        + " with 'cctk status " + jobId + "' or cancel it with 'scancel " + jobId + "'.");
            }
            sleep(pause);
            final long grown = Math.min(pause.toMillis() * 3 / 2, polling.maxPoll().toMillis());
            pause = Duration.ofMillis(Math.max(grown, pause.toMillis()));
        }
    }

    private static void sleep(final Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CctkException.environment("interrupted while waiting for the job", e);
        }
    }
}
