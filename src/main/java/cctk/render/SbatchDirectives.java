package cctk.render;

import cctk.CctkException;
import cctk.spec.Cluster;
import cctk.spec.JobSpec;
import cctk.spec.Resources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code #SBATCH} block of a job script. sbatch reads these lines itself (not bash), so every value is
 * checked by {@link ShellQuote#quoteDirective}; the quotes it writes are ones sbatch's own reader removes.
 */
final class SbatchDirectives {

    private SbatchDirectives() {
    }

    static ShellText of(final JobSpec spec, final Path jobDir) {
        final List<ShellText> lines = new ArrayList<>();
        final Resources r = spec.resources();
        final Cluster c = spec.cluster();
        option(lines, "--job-name=", "job.name", spec.job().name());
        number(lines, "--nodes=", "resources.nodes", r.nodes());
        number(lines, "--ntasks-per-node=", "resources.tasks_per_node", r.tasksPerNode());
        number(lines, "--cpus-per-task=", "resources.cpus_per_task", r.cpusPerTask());
        option(lines, "--time=", "job.time_limit", spec.job().timeLimit());
        if (spec.job().timeLimit() != null && !spec.job().timeLimit().isBlank()) {
            // Slurm's warning before the time limit, to the steps' tasks (not the batch shell): the ranks then
            // write their final files and stop; Slurm may send it up to 60 s early (sbatch --signal).
            lines.add(ShellQuote.passThrough("#SBATCH --signal=USR1@" + warningSeconds(spec.job().timeLimit())));
        }
        final String log = jobDir.resolve("slurm-%j.out").toString();
        if (jobDir.toString().indexOf('%') >= 0) {
            throw CctkException.usage("The job directory " + jobDir + " contains '%', which sbatch would read as a "
                    + "pattern in --output; choose another directory with -o DIR.");
        }
        option(lines, "--output=", "job directory", log);
        option(lines, "--error=", "job directory", log);
        option(lines, "--partition=", "cluster.partition", c.partition());
        option(lines, "--account=", "cluster.account", c.account());
        option(lines, "--qos=", "cluster.qos", c.qos());
        option(lines, "--constraint=", "cluster.constraint", c.constraint());
        option(lines, "--reservation=", "cluster.reservation", c.reservation());
        if (r.gpusPerNode() > 0) {
            lines.add(ShellQuote.passThrough("#SBATCH --gpus-per-node=" + r.gpusPerNode()));
        } else if (r.gpusPerNode() < 0) {
            throw CctkException.usage("'resources.gpus_per_node' is " + r.gpusPerNode() + "; use 0 or more.");
        }
        for (final String extra : SbatchRenderer.orEmpty(c.sbatchExtra())) {
            lines.add(ShellQuote.passThrough("#SBATCH "
                    + ShellQuote.quoteDirective("cluster.sbatch_extra", extra).text()));
        }
        return ShellText.join("\n", lines);
    }

    /**
     * Seconds before the time limit within which the script starts no further step: Slurm's warning comes
     * {@link #warningSeconds} before the limit, or up to 60 s earlier (sbatch --signal), and a step started then is
     * stopped at once. 0 without a time limit.
     */
    static int stopWindow(final JobSpec spec) {
        final String limit = spec.job().timeLimit();
        return limit == null || limit.isBlank() ? 0 : warningSeconds(limit) + 60;
    }

    /** Seconds of warning before a time limit written HH:MM:SS or D-HH:MM:SS: a tenth of it, 10 s to 120 s. */
    static int warningSeconds(final String timeLimit) {
        return cctk.spec.Job.warningSeconds(timeLimit);
    }

    private static void option(final List<ShellText> lines, final String option, final String key,
                               final String value) {
        if (value == null || value.isBlank()) {
            return;
        }
        final ShellText v = ShellQuote.quoteDirective(key, value);
        lines.add(ShellQuote.passThrough("#SBATCH " + option + v.text()));
    }

    private static void number(final List<ShellText> lines, final String option, final String key, final int n) {
        if (n < 1) {
            throw CctkException.usage("'" + key + "' is " + n + "; it must be at least 1.");
        }
        lines.add(ShellQuote.passThrough("#SBATCH " + option + n));
    }
}
