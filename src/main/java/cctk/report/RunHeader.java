package cctk.report;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

/**
 * What the result files say about the run before the first row.
 *
 * @param version     cctk version
 * @param specFile    the spec the run came from
 * @param jobId       Slurm job id or local run id
 * @param backend     backend name
 * @param world       ranks
 * @param start       rank 0's clock at the start; also in the file names
 * @param rankLines   one line per rank, in rank order
 * @param environment NCCL_* and CCTK_* variables of rank 0
 * @param args        the benchmark settings, for the JSON {@code args} object
 */
public record RunHeader(String version, String specFile, String jobId, String backend, int world,
                        LocalDateTime start, List<String> rankLines, Map<String, String> environment,
                        Map<String, Object> args) {
}
