package cctk.bench;

import cctk.results.RankInfo;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the harness needs to know about the process it runs in, for result headers and file names.
 *
 * @param version     cctk version
 * @param specFile    the spec the run came from (frozen copy under Slurm)
 * @param jobId       Slurm job id, or a local run id
 * @param rank        who this rank is: host, pid, device, NICs (gathered to rank 0 for the header)
 * @param outputDir   where rank 0 writes the result files
 * @param environment NCCL_*, CCTK_* and glibc allocator variables of this rank, for the header
 * @param hook        called before each point of the sweep ({@link PointHook#NONE}, or the test-only faults)
 * @param console     where rank 0 prints each row as it is measured ({@link cctk.results.ConsoleTable}), or null
 *                    for none (then it prints a progress line on its standard error instead)
 */
public record RunContext(String version, Path specFile, String jobId, RankInfo rank, Path outputDir,
                         Map<String, String> environment, PointHook hook, java.io.PrintWriter console) {

    /** A context without a hook and without a console table. */
    public RunContext(final String version, final Path specFile, final String jobId, final RankInfo rank,
                      final Path outputDir, final Map<String, String> environment) {
        this(version, specFile, jobId, rank, outputDir, environment, PointHook.NONE, null);
    }

    /** This context for a rank described otherwise (the GPU it drives, the NICs that carry its links). */
    public RunContext withRank(final RankInfo other) {
        return new RunContext(version, specFile, jobId, other, outputDir, environment, hook, console);
    }
}
