package cctk.diagnose.probe;

import cctk.EnvVar;
import cctk.Environment;
import cctk.ExitCode;
import cctk.comm.Store;
import cctk.diagnose.Coordinator;
import cctk.diagnose.Keys;
import cctk.diagnose.NodeLayout;
import cctk.diagnose.Settings;
import cctk.diagnose.verdict.RecheckRounds;
import cctk.rank.RankIdentity;
import cctk.rank.Rendezvous;
import cctk.spec.JobSpec;
import cctk.spec.SpecParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What every rank of a diagnosing job runs ({@code cctk rank --spec} on a spec with a {@code diagnose:} section),
 * in one Slurm step. Every rank says which node and kernel it is on and rank 0 plans ({@link NodeLayout}). Per
 * node: the node's ranks alone, all nodes at once (nodes on one kernel in turns), measure an all-reduce
 * ({@link NodePhase}); the leader keeps the node's figure
 * and each rank's arrival skew. Then the node leaders play the tournament ({@link Pairs}) while the other ranks
 * wait for them, hand their figures to rank 0, run the repeats rank 0 asks for; then every node measures its
 * ranks a second time, all at once, and rank 0 judges and writes the files ({@link Coordinator}). Exit code on rank 0:
 * 1 when a suspect is confirmed, 5 when the run cannot tell (too few nodes, too scattered), else 0.
 * <b>Note:</b> one call per process.
 */
public final class DiagnoseRank {

    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

    private final Environment env;
    private final PrintWriter out;
    private final PrintWriter err;

    public DiagnoseRank(final Environment env, final PrintWriter out, final PrintWriter err) {
        this.env = env;
        this.out = out;
        this.err = err;
    }

    /** Whether the spec in {@code specFile} asks for a diagnosis (it has a {@code diagnose:} section). */
    public static boolean wanted(final Path specFile) {
        return SpecParser.parse(specFile).diagnose() != null;
    }

    /** The rank's whole part: identity from the environment, rank 0's store, the phases. */
    public ExitCode run(final Path specFile) {
        final RankIdentity id = RankIdentity.fromEnvironment(env);
        final JobSpec spec = SpecParser.parse(specFile, env.optional(EnvVar.CCTK_SPEC_SHA256));
        final Duration timeout = Duration.ofSeconds(spec.benchmark().timeoutSeconds());
        final String host = Rendezvous.localHostName(env);
        try (Rendezvous store = Rendezvous.join(id, Rendezvous.secret(env), host, timeout, this::note)) {
            if (id.rank() == 0) {
                out.println(id.describe());
                out.flush();
            }
            final boolean multiNode = id.nodes().stream().distinct().count() > 1;
            final GroupLinks links = new GroupLinks(store, Rendezvous.secret(env), timeout, multiNode, this::note);
            return run(Settings.of(spec), id.rank(), id.worldSize(), host, store, links);
        }
    }

    /** The phases, on a store and links given (tests run ranks as threads with their own). */
    ExitCode run(final Settings settings, final int rank, final int world, final String host, final Store store,
                 final GroupLinks links) {
        final long start = System.nanoTime();
        Keys.put(store, Keys.who(rank), host + "\n" + kernel());
        final Coordinator collector = rank == 0 ? Coordinator.plan(store, world, settings, out) : null;
        final NodeLayout.Place me = NodeLayout.place(Keys.take(store, Keys.plan(host)), rank);
        store.barrier(Keys.PREFIX + "ready");
        try (NodePhase node = NodePhase.open(settings, me, host, links,
                settings.longestPairPhase(me.nodes(), links.deadline()))) {
            final String first = node.pass(0, store);
            if (me.leader()) {
                Keys.put(store, Keys.nodeResults(me.node(), 0), first);
            }
            store.barrier(Keys.PREFIX + "nodes-done");
            if (!me.leader()) {
                node.meet();
                node.pass(1, store);
                return ExitCode.OK;
            }
            final List<String> names = List.of(Keys.take(store, Keys.names()).split("\n"));
            final Pairs pairs = new Pairs(links, settings, me.node(), names);
            Keys.put(store, Keys.pairResults(me.node()), pairs.tournament());
            final List<List<RecheckRounds.Item>> rounds = collector != null ? collector.judge()
                    : RecheckRounds.parse(Keys.take(store, Keys.recheck()));
            Keys.put(store, Keys.repeatResults(me.node()), pairs.repeats(rounds));
            if (collector != null) {
                collector.repeats();
            } else {
                Keys.take(store, Keys.secondPass());
            }
            node.meet();
            Keys.put(store, Keys.nodeResults(me.node(), 1), node.pass(1, store));
        }
        return collector == null ? ExitCode.OK : collector.verdict((System.nanoTime() - start) / 1e9);
    }

    /** This kernel's boot id (one per booted machine, shared by its network namespaces and containers), or "". */
    static String kernel() {
        try {
            return Files.readString(BOOT_ID, StandardCharsets.US_ASCII).strip();
        } catch (final IOException | RuntimeException e) {
            return "";
        }
    }

    private void note(final String line) {
        err.println(line);
        err.flush();
    }
}
