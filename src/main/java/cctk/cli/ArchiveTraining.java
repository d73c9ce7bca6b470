package cctk.cli;

import cctk.EnvVar;
import cctk.Environment;
import cctk.comm.Communicator;
import cctk.demo.Demo;
import cctk.launch.LocalLauncher;
import cctk.rank.Backends;
import cctk.rank.RankIdentity;
import cctk.rank.RankMain;
import cctk.rank.Rendezvous;
import cctk.spec.SpecParser;
import cctk.spec.SpecWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * What the build runs once, under {@code -XX:ArchiveClassesAtExit}, so that the class-data sharing archive beside
 * the jar ({@code target/cctk.jsa}, made by the pom's {@code cds-archive} step) holds the classes a launcher and its
 * ranks load: the command line of the common commands, {@code cctk demo} launching a rank (the launcher's path), and
 * in this JVM two ranks as threads that meet, sweep every collective at two small sizes and run the demos (the
 * ranks' path). Its output goes nowhere; a failure only makes the archive smaller, so it never fails the build.
 * Not a command: {@code java -cp cctk.jar cctk.cli.ArchiveTraining}.
 */
public final class ArchiveTraining {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private ArchiveTraining() {
    }

    public static void main(final String[] args) {
        final java.io.PrintStream err = System.err;
        System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        final PrintWriter sink = new PrintWriter(Writer.nullWriter());
        for (final String[] a : List.of(new String[] {"--version"}, new String[] {"--help"},
                new String[] {"run", "--help"}, new String[] {"demo", "--help"}, new String[] {"rank", "--help"},
                new String[] {"demo", "hello", "--nproc", "1", "--timeout", "30"})) {
            Main.run(sink, sink, a);
        }
        // what runs before picocli in every JVM (Main.main), and on ranks instead of it
        RankFastPath.run(sink, sink, Environment.of(Map.of()), new String[] {"--version"});
        try {
            final Path dir = Files.createTempDirectory("cctk-archive-");
            try {
                final Path spec = dir.resolve("training.yaml");
                Files.writeString(spec, "job: {name: training, output_dir: " + dir.resolve("results") + "}\n"
                    + "resources: {nodes: 1, tasks_per_node: 2}\n"
                    + "benchmark: {backends: [tcp], tasks: [2], collectives: all, sizes: [4B, 4KiB], dtypes: [float32,"
                    + " bfloat16], warmup: 1, iters: 2, check_iters: 1, in_place: both, jit_warmup: 0}\n");
                // the launcher's path: cctk run parses the spec and writes it back, frozen, for its ranks
                SpecWriter.toYaml(SpecParser.parse(spec, null));
                ranks(env -> new RankMain(env, sink, sink).run(spec, null, new Backends(env)).code());
                ranks(env -> demos(env, sink));
            } finally {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        } catch (final IOException | RuntimeException e) {
            err.println("cctk: the class-data sharing training stopped early (" + e + "); the archive holds"
                + " what it loaded so far");
        }
        System.exit(0);
    }

    /** Runs {@code body} as ranks 0 and 1 of a local world, threads of this JVM. */
    private static void ranks(final java.util.function.Function<Environment, Integer> body) throws IOException {
        final int port = LocalLauncher.freePort();
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            final List<Future<Integer>> done = new ArrayList<>();
            final IntFunction<Environment> env = r -> Environment.of(Map.of(EnvVar.RANK.name(), Integer.toString(r),
                EnvVar.WORLD_SIZE.name(), "2", EnvVar.LOCAL_RANK.name(), Integer.toString(r),
                EnvVar.MASTER_ADDR.name(), "127.0.0.1", EnvVar.MASTER_PORT.name(), Integer.toString(port),
                EnvVar.CCTK_SECRET.name(), "training", EnvVar.CCTK_LAUNCH_ID.name(), "training"));
            for (int r = 0; r < 2; r++) {
                final Environment e = env.apply(r);
                done.add(pool.submit(() -> body.apply(e)));
            }
            for (final Future<Integer> f : done) {
                f.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (final Exception e) {
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static int demos(final Environment env, final PrintWriter out) {
        final RankIdentity id = RankIdentity.fromEnvironment(env);
        try (Rendezvous store = Rendezvous.join(id, Rendezvous.secret(env), "localhost", TIMEOUT, s -> { });
             Communicator comm = new Backends(env).connect("tcp", id, store, List.of(), TIMEOUT)) {
            final Demo demo = new Demo(comm, out, "host localhost, cpu");
            demo.hello();
            demo.broadcast();
            demo.allReduce();
            return demo.allToAll(4096).code();
        }
    }
}
