package cctk.cli;

import cctk.diagnose.DiagnoseJob;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cctk diagnose}: find the slow node, NIC, pair of nodes or rank of an allocation. */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = {"Submits SPEC as a diagnosing job (its diagnose: section, or the defaults) and prints the"
            + " verdict: one Slurm step in which each node's ranks measure among themselves, then one rank per node"
            + " meets every other node in round-robin pairs, on each NIC and striped over all of them; a figure below"
            + " the threshold x its peers' median, slow again when measured a second time, names a suspect: a node,"
            + " a NIC of a node, a pair of nodes, or a rank that arrives late.",
            "Exit code: 0 healthy within the run's stated sensitivity, 1 a suspect (or the job ended without a"
            + " verdict), 2 bad input, 3 Slurm could not be reached or refused the job, 5 inconclusive (fewer than"
            + " three nodes, or figures too scattered to judge)."},
        footer = {"%nExamples:", "  cctk diagnose configs/diagnose-4node.yaml",
            "  cctk diagnose configs/perlmutter-4gpu.yaml -- -A m1234 --qos=debug"})
final class DiagnoseCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    JobOptions options;

    @Option(names = "--no-wait", description = "Submit and return; the verdict lands in the job's output directory.")
    boolean noWait;

    @Override
    public Integer call() {
        final DiagnoseJob.Request request = new DiagnoseJob.Request(options.specFile, options.jobDir,
                List.copyOf(options.sbatchArgs), options.dryRun, !noWait, options.waitLimit(),
                VersionProvider.version());
        return DiagnoseJob.run(request, spec.commandLine().getOut(), spec.commandLine().getErr()).code();
    }
}
