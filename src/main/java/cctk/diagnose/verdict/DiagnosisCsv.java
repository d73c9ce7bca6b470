package cctk.diagnose.verdict;

import cctk.results.CsvOut;

/**
 * The rows of a diagnosis's three CSV files. Figures in GB/s of bus bandwidth (µs for arrival skew), each beside
 * the peers' median it was judged against and the ratio of the two (a rank's compute rate in kernel rounds per
 * second); cells of what was not measured are empty.
 * <b>Note:</b> threadsafe (no state).
 */
final class DiagnosisCsv {

    /** Columns of the nodes file. */
    static final String[] NODES = {"node", "test", "busbw_gbps", "peers_median_gbps", "ratio", "slow_pairs", "pairs"};
    /** Columns of the ranks file. */
    static final String[] RANKS = {"rank", "node", "pass", "iterations", "last", "late_us", "iteration_us", "ratio",
        "cpu_rounds_per_s", "cpu_ratio"};

    private DiagnosisCsv() {
    }

    /** Each node on each pair test (the median of its pairs), then inside, per pass. */
    static void nodes(final CsvOut w, final Figures f, final Findings found, final double threshold) {
        w.writeRecord(NODES);
        final double[] intra = {Judge.intra(f, 0, threshold).median(), Judge.intra(f, 1, threshold).median()};
        for (int i = 0; i < f.nodes().size(); i++) {
            for (int t = 0; t < f.tests(); t++) {
                final double v = found.nodeFigure()[t][i];
                w.writeRecord(f.nodes().get(i), f.testName(t), DiagnosisFiles.cell(v),
                        DiagnosisFiles.cell(found.nodeReference()[t]),
                        DiagnosisFiles.cell(v / found.nodeReference()[t]),
                        Integer.toString(found.slowPairs()[t][i]), Integer.toString(found.measuredPairs()[t][i]));
            }
            for (int p = 0; p < Figures.PASSES; p++) {
                final double v = f.intra(p, i);
                w.writeRecord(f.nodes().get(i), "intra-node all_reduce pass " + (p + 1), DiagnosisFiles.cell(v),
                        DiagnosisFiles.cell(intra[p]), DiagnosisFiles.cell(v / intra[p]), "", "");
            }
        }
    }

    /** One row per pair and mode: both operations, their ratios to the pair median and their repeats. */
    static void pairs(final CsvOut w, final Figures f, final Findings found) {
        final String[] head = new String[3 + 3 * Figures.PAIR_OPS.size()];
        head[0] = "node_a";
        head[1] = "node_b";
        head[2] = "mode";
        final int ops = Figures.PAIR_OPS.size();
        for (int op = 0; op < ops; op++) {
            head[3 + op] = Figures.PAIR_OPS.get(op) + "_gbps";
            head[3 + ops + op] = Figures.PAIR_OPS.get(op) + "_ratio";
            head[3 + 2 * ops + op] = "repeat_" + Figures.PAIR_OPS.get(op) + "_gbps";
        }
        w.writeRecord(head);
        final int n = f.nodes().size();
        final String[] row = new String[head.length];
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                for (int m = 0; m < f.modes().size(); m++) {
                    row[0] = f.nodes().get(a);
                    row[1] = f.nodes().get(b);
                    row[2] = f.modes().get(m);
                    for (int op = 0; op < ops; op++) {
                        final int t = Figures.test(m, op);
                        final double v = f.pair(t, a, b);
                        row[3 + op] = DiagnosisFiles.cell(v);
                        row[3 + ops + op] = DiagnosisFiles.cell(v / found.pairReference()[t]);
                        row[3 + 2 * ops + op] = DiagnosisFiles.cell(f.repeat(t, a, b));
                    }
                    w.writeRecord(row);
                }
            }
        }
    }

    /** Each rank's arrival skew (ranks of a node of two or more) and compute rate, per pass. */
    static void ranks(final CsvOut w, final Figures f, final double threshold) {
        w.writeRecord(RANKS);
        final java.util.TreeSet<Integer> all = new java.util.TreeSet<>(f.ranks().keySet());
        all.addAll(f.cpus().keySet());
        final double[] cpuMedian = {Starved.spread(f, 0, threshold).median(), Starved.spread(f, 1, threshold).median()};
        for (final int r : all) {
            final RankSkew[] skews = f.ranks().getOrDefault(r, new RankSkew[Figures.PASSES]);
            final CpuRate[] cpus = f.cpus().getOrDefault(r, new CpuRate[Figures.PASSES]);
            for (int p = 0; p < Figures.PASSES; p++) {
                final RankSkew s = skews[p];
                final CpuRate c = cpus[p];
                if (s == null && c == null) {
                    continue;
                }
                final int node = s != null ? s.node() : c.node();
                final double rate = c == null ? Double.NaN : c.rate();
                w.writeRecord(Integer.toString(r), f.nodes().get(node), Integer.toString(p + 1),
                        s == null ? "" : Integer.toString(s.iterations()), s == null ? "" : Integer.toString(s.last()),
                        DiagnosisFiles.cell(s == null ? Double.NaN : s.lateUs()),
                        DiagnosisFiles.cell(s == null ? Double.NaN : s.iterUs()),
                        DiagnosisFiles.cell(s == null ? Double.NaN : s.ratio()), DiagnosisFiles.cell(rate),
                        DiagnosisFiles.cell(rate / cpuMedian[p]));
            }
        }
    }
}
