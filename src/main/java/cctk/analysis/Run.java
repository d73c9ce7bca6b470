package cctk.analysis;

import cctk.spec.Reference;
import java.util.List;

/**
 * One run read back: one backend at one world size, from one result file (or one group of a combined CSV).
 *
 * @param source     the file it came from
 * @param backend    backend name
 * @param world      ranks
 * @param cluster    cluster profile name, or null when the files do not say
 * @param jobId      Slurm job id or local run id, or null
 * @param start      when it started (rank 0's clock), or null
 * @param hosts      the hosts of its ranks in rank order, without repeats; empty when unknown
 * @param complete   false for a run that stopped early (a {@code .part} file or status INCOMPLETE)
 * @param references the references recorded with the run (its spec's), for {@code cctk report} to judge
 */
public record Run(String source, String backend, int world, String cluster, String jobId, String start,
                  List<String> hosts, boolean complete, List<Reference> references) {

    /** The short name plots and tables use: {@code tcp W=4}. */
    public String shortName() {
        return backend + " W=" + world;
    }

    /** Where it ran, for titles: {@code local: host-a, host-b}; empty when unknown. */
    public String where() {
        final String h = hosts.size() > 3 ? String.join(", ", hosts.subList(0, 3)) + " +" + (hosts.size() - 3)
            : String.join(", ", hosts);
        if (cluster == null) {
            return h;
        }
        return h.isEmpty() ? cluster : cluster + ": " + h;
    }
}
