package cctk.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder until its issue lands. */
@Command(name = "status", description = "Not implemented yet.")
final class StatusCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw cctk.CctkException.usage("'cctk status' is not implemented yet");
    }
}
