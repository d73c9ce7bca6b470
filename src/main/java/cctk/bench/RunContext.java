package cctk.bench;

import java.nio.file.Path;
import java.util.Map;

/**
 * What the harness needs to know about the process it runs in, for result headers and file names.
 *
 * @param version    cctk version
 * @param specFile   the spec the run came from (frozen copy under Slurm)
 * @param jobId      Slurm job id, or a local run id
 * @param rankLine   this rank's header line: host, pid, device, NIC (gathered to rank 0)
 * @param outputDir  where rank 0 writes the result files
 * @param environment NCCL_* and CCTK_* variables of this rank, for the header
 */
public record RunContext(String version, Path specFile, String jobId, String rankLine, Path outputDir,
                         Map<String, String> environment) {
}
