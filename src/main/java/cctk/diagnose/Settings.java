package cctk.diagnose;

import cctk.diagnose.verdict.Figures;
import cctk.spec.Diagnose;
import cctk.spec.JobSpec;
import java.nio.file.Path;
import java.util.List;

/**
 * What a diagnosis needs of its spec: the {@code diagnose:} section (defaults when the spec has none), the NICs and
 * the modes they make, where results go.
 *
 * @param diagnose  the section
 * @param nics      the spec's NICs
 * @param modes     the pair modes: each NIC, then striped; or the default address alone
 * @param outputDir where rank 0 writes the diagnosis files
 * @param jobName   the job's name, in the files
 */
public record Settings(Diagnose diagnose, List<String> nics, List<String> modes, Path outputDir, String jobName) {

    /** The settings of {@code spec}. */
    public static Settings of(final JobSpec spec) {
        final Diagnose d = spec.diagnose() == null ? Diagnose.DEFAULT : spec.diagnose();
        final List<String> nics = spec.resources().nics();
        return new Settings(d, nics, Figures.modesOf(nics), Path.of(spec.job().outputDir()), spec.job().name());
    }

    /** The NICs a pair binds on mode {@code m}. */
    public List<String> nicsOf(final int m) {
        final String mode = modes.get(m);
        if (Figures.STRIPED.equals(mode)) {
            return nics;
        }
        return Figures.DEFAULT_MODE.equals(mode) ? List.of() : List.of(mode);
    }

    /** The longest one measurement may take. */
    public long limitNanos() {
        return diagnose.limitSeconds() * 1_000_000_000L;
    }

    /** The shortest a measurement's timed iterations last. */
    public long windowNanos() {
        return diagnose.windowMillis() * 1_000_000L;
    }

    /**
     * The longest a node leader's pairwise phase may take with these settings, for the node's other ranks to wait:
     * every round and every repeat a diagnosis may schedule, each mode's rendezvous within {@code deadline}, and
     * its two operations at most twice their time limit each (an untimed pass and a timed one).
     */
    public java.time.Duration longestPairPhase(final int nodes, final java.time.Duration deadline) {
        final long rounds = new cctk.diagnose.verdict.Tournament(nodes).rounds()
                + cctk.diagnose.verdict.Judge.repeatBudget(nodes);
        final long perMode = deadline.toSeconds() + 2L * 2 * 2 * diagnose.limitSeconds();
        return java.time.Duration.ofSeconds(deadline.toSeconds() + rounds * modes.size() * perMode);
    }
}
