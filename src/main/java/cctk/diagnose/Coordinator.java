package cctk.diagnose;

import cctk.ExitCode;
import cctk.IoErrors;
import cctk.comm.Store;
import cctk.diagnose.verdict.CpuRate;
import cctk.diagnose.verdict.DiagnosisFiles;
import cctk.diagnose.verdict.Figures;
import cctk.diagnose.verdict.Findings;
import cctk.diagnose.verdict.Judge;
import cctk.diagnose.verdict.RankSkew;
import cctk.diagnose.verdict.RecheckRounds;
import cctk.diagnose.verdict.Suspect;
import cctk.diagnose.verdict.Tournament;
import cctk.diagnose.verdict.VerdictText;
import cctk.report.DiagnosisPage;
import cctk.report.DiagnosisRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Rank 0's side of a diagnosis: plans (which ranks share a node), collects every node's figures from the store,
 * asks for the repeats that would confirm its first suspects, then judges, writes the files and prints the
 * verdict. What goes through the store: one key per rank (its host), one per node for the plan and four per
 * node leader for its results, two per rank for its compute rates, one for the repeat plan and one to start the
 * second per-node pass, plus two endpoint keys per pair, mode and pass (the pair communicators' own rendezvous).
 * <b>Note:</b> not threadsafe: rank 0's main thread.
 */
public final class Coordinator {

    private final Store store;
    private final Settings settings;
    private final NodeLayout layout;
    private final PrintWriter out;
    private final int world;
    private final LocalDateTime started = LocalDateTime.now();
    private Figures figures;
    private Findings findings;

    private Coordinator(final Store store, final Settings settings, final NodeLayout layout, final PrintWriter out,
                        final int world) {
        this.store = store;
        this.world = world;
        this.settings = settings;
        this.layout = layout;
        this.out = out;
    }

    /** Reads where every rank is, publishes each node's entry and the node names; says what will run. */
    public static Coordinator plan(final Store store, final int world, final Settings settings, final PrintWriter out) {
        final List<String> hosts = new ArrayList<>(world);
        final List<String> kernels = new ArrayList<>(world);
        for (int r = 0; r < world; r++) {
            final String[] who = Keys.take(store, Keys.who(r)).split("\n", 2);
            hosts.add(who[0]);
            kernels.add(who.length > 1 && !who[1].isEmpty() ? who[1] : who[0]);
        }
        final NodeLayout layout = NodeLayout.of(hosts, kernels);
        for (int i = 0; i < layout.nodes(); i++) {
            Keys.put(store, Keys.plan(layout.names().get(i)), layout.entry(i));
        }
        Keys.put(store, Keys.names(), String.join("\n", layout.names()));
        final Tournament t = new Tournament(layout.nodes());
        out.println("cctk diagnose: " + layout.nodes() + " node(s), " + world + " rank(s); per node: all-reduce"
                + " among each node's ranks, at the start and at the end" + (layout.turns() == 1 ? ""
                : ", in " + layout.turns() + " turns (nodes that run on one kernel share its cores)") + "; pairs: "
                + t.rounds() + " round(s) of "
                + t.pairsPerRound() + " pair(s) on " + String.join(", ", settings.modes()) + " (sendrecv,"
                + " all_reduce); message " + cctk.results.Numbers.size(settings.diagnose().bytes()) + ", threshold "
                + settings.diagnose().threshold() + " x the peers' median"
                + (settings.diagnose().confirm() ? ", suspects measured again" : ""));
        out.flush();
        return new Coordinator(store, settings, layout, out, world);
    }

    /** Collects the figures of both phases, finds the first suspects and publishes the repeat rounds. */
    public List<List<RecheckRounds.Item>> judge() {
        figures = new Figures(layout.names(), settings.modes());
        figures.oneKernel(layout.turns() > 1);
        for (int i = 0; i < layout.nodes(); i++) {
            read(Keys.take(store, Keys.nodeResults(i, 0)));
            read(Keys.take(store, Keys.pairResults(i)));
        }
        for (int r = 0; r < world; r++) {
            read(Keys.take(store, Keys.cpu(0, r)));
        }
        findings = Judge.tentative(figures, settings.diagnose().threshold());
        final List<List<RecheckRounds.Item>> rounds = settings.diagnose().confirm()
                ? RecheckRounds.schedule(findings.allRechecks()) : List.of();
        if (!findings.suspects().isEmpty() || !rounds.isEmpty()) {
            out.println("cctk diagnose: " + findings.suspects().size() + " suspect(s) at first look"
                    + (findings.watched().isEmpty() ? "" : ", " + findings.watched().size() + " node(s) below the"
                    + " threshold on one operation to watch")
                    + (rounds.isEmpty() ? "" : "; measuring " + findings.allRechecks().size() + " pair(s) and mode(s)"
                    + " again in " + rounds.size() + " round(s)"));
            out.flush();
        }
        Keys.put(store, Keys.recheck(), RecheckRounds.text(rounds));
        return rounds;
    }

    /** Collects the pairs' repeats, then lets every node measure its ranks the second time. */
    public void repeats() {
        for (int i = 0; i < layout.nodes(); i++) {
            read(Keys.take(store, Keys.repeatResults(i)));
        }
        Keys.put(store, Keys.secondPass(), "");
    }

    /** Collects the second per-node pass, confirms, writes the files and prints the verdict; FAILED on a suspect. */
    public ExitCode verdict(final double seconds) {
        for (int i = 0; i < layout.nodes(); i++) {
            read(Keys.take(store, Keys.nodeResults(i, 1)));
        }
        for (int r = 0; r < world; r++) {
            read(Keys.take(store, Keys.cpu(1, r)));
        }
        final List<Suspect> verdict = Judge.ordered(Judge.confirm(findings, figures, settings.diagnose().threshold(),
                settings.diagnose().confirm()));
        findings = Judge.afterRepeat(findings, figures, settings.diagnose().threshold(), settings.diagnose().confirm(),
                verdict);
        final DiagnosisFiles.Header header = new DiagnosisFiles.Header(settings.jobName(), started,
                settings.diagnose().bytes(), settings.diagnose().threshold(), settings.diagnose().confirm(), seconds,
                settings.nics());
        final List<Path> files = DiagnosisFiles.write(settings.outputDir(), header, figures, findings, verdict);
        VerdictText.lines(header, figures, findings, verdict).forEach(out::println);
        out.println("cctk diagnose: wrote " + String.join(", ", files.stream().map(Path::toString).toList()));
        out.println(page(files.get(files.size() - 1)));
        out.flush();
        return switch (findings.sensitivity().status(verdict)) {
            case "SUSPECT" -> ExitCode.FAILED;
            case "INCONCLUSIVE" -> ExitCode.INCONCLUSIVE;
            default -> ExitCode.OK;
        };
    }

    /**
     * The diagnosis's page (heat maps per mode, the nodes' bars, the verdict) beside its record {@code json}, in the
     * directory named after it: what was written, or why not (the verdict stands either way).
     */
    static String page(final Path json) {
        final String name = json.getFileName().toString();
        final Path dir = json.resolveSibling(name.substring(0, name.length() - ".json".length()));
        try {
            return "cctk diagnose: page " + DiagnosisPage.write(DiagnosisRecord.read(json), dir).get(0);
        } catch (final IOException | RuntimeException | LinkageError e) {
            return noPage(dir, json, e);
        } catch (final Error e) { // AWT's "no fonts" on a bare compute node; a JVM in trouble is not ours to hide
            if (e instanceof VirtualMachineError && !(e instanceof InternalError)) {
                throw e;
            }
            return noPage(dir, json, e);
        }
    }

    private static String noPage(final Path dir, final Path json, final Throwable e) {
        return "cctk diagnose: no page was written in " + dir + " (" + IoErrors.why(e) + "); the verdict stands, and"
                + " 'cctk report " + json + "' makes the page from the record.";
    }

    /** Reads result lines of any phase into the figures. */
    private void read(final String text) {
        for (final String line : text.split("\n")) {
            final String[] f = line.trim().split(" ");
            switch (f[0]) {
                case "intra" -> figures.intra(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Double.parseDouble(f[3]));
                case "rank" -> figures.rank(Integer.parseInt(f[1]), new RankSkew(Integer.parseInt(f[2]),
                        Integer.parseInt(f[3]), Integer.parseInt(f[4]), Integer.parseInt(f[5]),
                        Double.parseDouble(f[6]), Double.parseDouble(f[7])));
                case "cpu" -> figures.cpu(Integer.parseInt(f[1]), new CpuRate(Integer.parseInt(f[2]),
                        Integer.parseInt(f[3]), "1".equals(f[4]), Double.parseDouble(f[5])));
                case "pair" -> figures.pair(Figures.test(Integer.parseInt(f[1]), Integer.parseInt(f[4])),
                        Integer.parseInt(f[2]), Integer.parseInt(f[3]), Double.parseDouble(f[5]));
                case "repeat" -> figures.repeat(Figures.test(Integer.parseInt(f[1]), Integer.parseInt(f[4])),
                        Integer.parseInt(f[2]), Integer.parseInt(f[3]), Double.parseDouble(f[5]));
                default -> {
                    // blank line
                }
            }
        }
    }
}
