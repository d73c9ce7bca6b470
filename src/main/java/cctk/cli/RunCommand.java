package cctk.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder until its issue lands. */
@Command(name = "run", description = "Not implemented yet.")
final class RunCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw cctk.CctkException.usage("'cctk run' is not implemented yet");
    }
}
