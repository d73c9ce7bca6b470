package cctk.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One run: one backend at one world size, as the harness holds it in memory and as its result files record it
 * (the JSON has every field; a CSV read alone gives backend and world size, a combined CSV also source, cluster,
 * job, start, hosts and completeness).
 *
 * @param source      the result file it was read from, or the file it is written to; null when unknown
 * @param version     cctk version that measured it, or null
 * @param spec        the spec file it came from, or null
 * @param jobId       Slurm job id or local run id, or null
 * @param cluster     cluster profile name, or null
 * @param backend     backend name
 * @param world       ranks
 * @param start       when it started, rank 0's clock, ISO-8601 local time ({@code 2026-11-24T16:51:24}); or null
 * @param ranks       every rank in rank order; empty when the files do not say
 * @param hosts       the hosts of its ranks in rank order, without repeats; empty when unknown
 * @param environment NCCL_*, CCTK_* and glibc allocator variables of rank 0 (Environment.shown)
 * @param args        the benchmark's settings as the JSON's {@code args} records them (cluster and references
 *                    apart)
 * @param references  the spec's references, for {@code cctk report} to judge later
 * @param status      OK, FAILED (wrong elements) or INCOMPLETE (stopped early); null when not (yet) known
 * @param error       why it stopped early, or null
 */
public record Run(String source, String version, String spec, String jobId, String cluster, String backend,
                  int world, String start, List<RankInfo> ranks, List<String> hosts, Map<String, String> environment,
                  Map<String, Object> args, List<Reference> references, String status, String error) {

    /** The status of a run that stopped early. */
    public static final String INCOMPLETE = "INCOMPLETE";
    /** The key of {@code args} that says how a loop's time is made of the ranks' ({@code max} or {@code mean}). */
    public static final String TIME_ACROSS_RANKS = "time_across_ranks";

    public Run {
        ranks = List.copyOf(ranks);
        hosts = List.copyOf(hosts);
        environment = environment == null ? Map.of() : java.util.Collections.unmodifiableMap(
            new java.util.LinkedHashMap<>(environment));
        args = args == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(args));
        references = List.copyOf(references);
    }

    /** A run known only by backend and world size (a bare CSV). */
    public static Run bare(final String source, final String backend, final int world) {
        return new Run(source, null, null, null, null, backend, world, null, List.of(), List.of(), Map.of(), Map.of(),
            List.of(), null, null);
    }

    /** The hosts of {@code ranks} in rank order, without repeats. */
    public static List<String> hostsOf(final List<RankInfo> ranks) {
        final List<String> out = new ArrayList<>();
        for (final RankInfo r : ranks) {
            if (r.host() != null && !out.contains(r.host())) {
                out.add(r.host());
            }
        }
        return out;
    }

    /** False for a run that stopped early, or whose files a stopped run left ({@code .part}). */
    public boolean complete() {
        return !INCOMPLETE.equals(status) && (source == null || !source.endsWith(".part"));
    }

    /** This run as read from, or written to, {@code file}. */
    public Run at(final String file) {
        return new Run(file, version, spec, jobId, cluster, backend, world, start, ranks, hosts, environment, args,
            references, status, error);
    }

    /** This run with its end recorded. */
    public Run ended(final String endStatus, final String endError) {
        return new Run(source, version, spec, jobId, cluster, backend, world, start, ranks, hosts, environment, args,
            references, endStatus, endError);
    }

    /**
     * How the run's times were made of the ranks' means per call, in words for a header: {@code mean per rank, max
     * over ranks} or {@code mean per rank, mean over ranks (nccl-tests' default)}. For the header of a run cctk
     * measures, whose arguments say; a run that does not say is taken as max (cctk before it could choose).
     */
    public String timeAcrossRanks() {
        return "mean".equals(args.get(TIME_ACROSS_RANKS)) ? "mean per rank, mean over ranks (time_across_ranks: mean,"
            + " nccl-tests' default)" : "mean per rank, max over ranks (time_across_ranks: max)";
    }

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
