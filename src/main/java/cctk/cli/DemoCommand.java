package cctk.cli;

import cctk.CctkException;
import cctk.Environment;
import cctk.ExitCode;
import cctk.comm.Communicator;
import cctk.demo.Demo;
import cctk.launch.LauncherWatch;
import cctk.launch.LocalCapacity;
import cctk.launch.LocalLauncher;
import cctk.rank.Backends;
import cctk.rank.RankConfiguration;
import cctk.rank.RankIdentity;
import cctk.rank.Rendezvous;
import cctk.spec.MessageSize;
import cctk.spec.RankJvm;
import cctk.spec.Sizes;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cctk demo}: the seeds' teaching examples, on local processes or as the ranks of srun/torchrun. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Runs one of the teaching demos: 'hello' (each rank says who and where it is), 'broadcast' "
            + "(rank 0's 42s reach every rank; before/after table), 'allreduce' (ones summed to W on every rank) or "
            + "'alltoall' (a uniform all-to-all with timestamped steps, bytes per peer and an exact check).",
            "Started by hand it launches --nproc local ranks itself; started under srun, torchrun or mpirun it is one"
            + " rank (CCTK_SECRET must then be the same on every rank)."},
        footerHeading = "%nExamples:%n",
        footer = {"  cctk demo broadcast --nproc 4", "  cctk demo alltoall --nproc 2 --msg-bytes 16MiB"})
final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", completionCandidates = Candidates.Demos.class,
            description = "The demo: ${COMPLETION-CANDIDATES}.")
    String name;

    @Option(names = "--nproc", paramLabel = "N", defaultValue = "2",
            description = "Ranks to launch when not started as a rank (default: ${DEFAULT-VALUE}).")
    int nproc;

    @Option(names = "--backend", paramLabel = "B", defaultValue = "tcp",
            completionCandidates = Candidates.Backends.class,
            description = "Backend: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    String backend;

    @Option(names = "--msg-bytes", paramLabel = "SIZE", defaultValue = "4MiB",
            description = "alltoall: bytes sent to every peer (default: ${DEFAULT-VALUE}).")
    String msgBytes;

    @Option(names = "--nic", split = ",", paramLabel = "IF", description = "NICs to use, e.g. eth0,eth1.")
    List<String> nics = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "Deadline of every wait on a peer (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = LocalCapacity.OVERRIDE, description = "Start the ranks even when this machine cannot hold"
            + " them (by cores, memory or process limits).")
    boolean oversubscribe;

    /** The demos there are. */
    static final List<String> NAMES = List.of("hello", "broadcast", "allreduce", "alltoall");

    @Override
    public Integer call() {
        if (!NAMES.contains(name)) {
            throw CctkException.usage("unknown demo '" + name + "'; the demos are hello, broadcast, allreduce and"
                    + " alltoall.");
        }
        final Environment env = Environment.process();
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        return RankConfiguration.startedAsRank(env) ? asRank(out, err, env, name, backend, msgBytes, nics,
                timeoutSeconds).code() : new Launch(name, nproc, backend, msgBytes, nics, timeoutSeconds,
                oversubscribe, !Main.stacktraceFlag(spec).isEmpty()).run(out, err);
    }

    /** A demo's launch: its options, as picocli or {@link RankFastPath} read them. */
    record Launch(String name, int nproc, String backend, String msgBytes, List<String> nics, int timeoutSeconds,
                  boolean oversubscribe, boolean stacktrace) {

        /** Starts the ranks; the worst exit code. */
        int run(final PrintWriter out, final PrintWriter err) {
            return launch(out, err, this);
        }
    }

    private static int launch(final PrintWriter out, final PrintWriter err, final Launch l) {
        final String name = l.name();
        final int nproc = l.nproc();
        final String backend = l.backend();
        final String msgBytes = l.msgBytes();
        final List<String> nics = l.nics();
        final int timeoutSeconds = l.timeoutSeconds();
        if (nproc < 1) {
            throw CctkException.usage("--nproc must be at least 1.");
        }
        Main.checkTimeout(timeoutSeconds);
        LocalCapacity.probe().check(nproc, LocalCapacity.RANK_BASE_BYTES + 2 * bytes(msgBytes), l.oversubscribe(),
                "--nproc");
        final List<String> args = new ArrayList<>(List.of("demo", name, "--backend", backend, "--msg-bytes",
                msgBytes, "--timeout", Integer.toString(timeoutSeconds)));
        if (!nics.isEmpty()) {
            args.addAll(List.of("--nic", String.join(",", nics)));
        }
        if (l.stacktrace()) {
            args.add("--stacktrace");
        }
        final List<String> jvm = RankJvm.options(RankJvm.tcpDirectBytes(bytes(msgBytes) * nproc, nproc,
                Math.max(1, nics.size())), nproc, !"tcp".equals(backend), LocalLauncher.jar());
        return new LocalLauncher(out, err, Duration.ofSeconds(10)).run(nproc, LocalLauncher.cctkCommand(jvm, args));
    }

    /** One rank of a demo (also {@link RankFastPath}'s, without picocli). */
    static ExitCode asRank(final PrintWriter out, final PrintWriter err, final Environment env, final String name,
                           final String backend, final String msgBytes, final List<String> nics,
                           final int timeoutSeconds) {
        LauncherWatch.startIfLaunched(env, err);
        final RankIdentity id = RankIdentity.fromEnvironment(env);
        final Duration deadline = Duration.ofSeconds(timeoutSeconds);
        final String host = Rendezvous.localHostName(env);
        try (Rendezvous store = Rendezvous.join(id, Rendezvous.secret(env), host, deadline, err::println);
             Communicator comm = new Backends(env).connect(backend, id, store, nics, deadline)) {
            final Demo demo = new Demo(comm, out, "host " + host + ", cpu");
            final ExitCode code = switch (name) {
                case "hello" -> demo.hello();
                case "broadcast" -> demo.broadcast();
                case "allreduce" -> demo.allReduce();
                default -> demo.allToAll(bytes(msgBytes));
            };
            out.flush();
            return code;
        }
    }

    private static long bytes(final String text) {
        try {
            final MessageSize size = Sizes.parse(text);
            return size.elements() ? size.value() * 4 : size.value();
        } catch (final IllegalArgumentException e) {
            throw CctkException.usage("--msg-bytes: expected " + e.getMessage() + ", found '" + text + "'.");
        }
    }
}
