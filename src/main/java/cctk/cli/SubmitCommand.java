package cctk.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder until its issue lands. */
@Command(name = "submit", description = "Not implemented yet.")
final class SubmitCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw cctk.CctkException.usage("'cctk submit' is not implemented yet");
    }
}
