package cctk.bench;

import cctk.ExitCode;
import cctk.results.Result;
import java.util.List;

/**
 * How one backend's sweep ended on this rank.
 *
 * @param code    OK, or FAILED when any check found a wrong element (the same on every rank)
 * @param results rank 0: every measurement, for references to be judged in memory; other ranks: none
 */
public record SweepResult(ExitCode code, List<Result> results) {

    public SweepResult {
        results = List.copyOf(results);
    }
}
