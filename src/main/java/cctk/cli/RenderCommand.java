package cctk.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder until its issue lands. */
@Command(name = "render", description = "Not implemented yet.")
final class RenderCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw cctk.CctkException.usage("'cctk render' is not implemented yet");
    }
}
