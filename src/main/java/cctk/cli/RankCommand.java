package cctk.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder until its issue lands. */
@Command(name = "rank", description = "Not implemented yet.")
final class RankCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw cctk.CctkException.usage("'cctk rank' is not implemented yet");
    }
}
