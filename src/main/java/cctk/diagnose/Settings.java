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
record Settings(Diagnose diagnose, List<String> nics, List<String> modes, Path outputDir, String jobName) {

    static Settings of(final JobSpec spec) {
        final Diagnose d = spec.diagnose() == null ? Diagnose.DEFAULT : spec.diagnose();
        final List<String> nics = spec.resources().nics();
        return new Settings(d, nics, Figures.modesOf(nics), Path.of(spec.job().outputDir()), spec.job().name());
    }

    /** The NICs a pair binds on mode {@code m}. */
    List<String> nicsOf(final int m) {
        final String mode = modes.get(m);
        if (Figures.STRIPED.equals(mode)) {
            return nics;
        }
        return Figures.DEFAULT_MODE.equals(mode) ? List.of() : List.of(mode);
    }

    long limitNanos() {
        return diagnose.limitSeconds() * 1_000_000_000L;
    }
}
