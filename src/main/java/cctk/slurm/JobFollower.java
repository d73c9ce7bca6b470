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
 * starts at {@code firstPoll} and grows by half each quiet poll up to {@code maxPoll} while the job waits in
 * the queue, but at most {@link #RUNNING_POLL} once it runs, so that its end is noticed within about that.
 */
public final class JobFollower {

    /** How often to ask and for how long. */
    public record Polling(Duration firstPoll, Duration maxPoll, Duration deadline, Duration unknownGrace) {
        /** 1 s growing to 10 s; a job unknown to every tool for 30 s is an error. */
        public static Polling gentle(final Duration deadline) {
            return new Polling(Duration.ofSeconds(1), Duration.ofSeconds(10), deadline, Duration.ofSeconds(30));
        }
    }

    /** The longest pause between looks at a running or completing job. */
    public static final Duration RUNNING_POLL = Duration.ofSeconds(2);

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final Function<String, Optional<JobStatus>> query;
    private final Polling polling;
    private final Consumer<String> out;
    private final Consumer<Duration> sleeper;

    /** @param query one look at a job (normally {@link JobQuery#query}) */
    public JobFollower(final Function<String, Optional<JobStatus>> query, final Polling polling,
                       final Consumer<String> out) {
        this(query, polling, out, JobFollower::sleep);
    }

    /** As above, pausing through {@code sleeper} (tests record the pauses). */
    JobFollower(final Function<String, Optional<JobStatus>> query, final Polling polling,
                final Consumer<String> out, final Consumer<Duration> sleeper) {
        this.query = query;
        this.polling = polling;
        this.out = out;
        this.sleeper = sleeper;
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
            sleeper.accept(pause);
            final boolean running = last != null && (last.state() == JobState.RUNNING
                    || last.state() == JobState.COMPLETING);
            final long most = running ? Math.min(polling.maxPoll().toMillis(), RUNNING_POLL.toMillis())
                    : polling.maxPoll().toMillis();
            final long grown = Math.min(pause.toMillis() * 3 / 2, most);
            pause = Duration.ofMillis(Math.max(grown, Math.min(pause.toMillis(), most)));
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
