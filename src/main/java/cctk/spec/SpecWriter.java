package cctk.spec;

import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.results.Numbers;
import cctk.results.Reference;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions.FlowStyle;
import org.yaml.snakeyaml.DumperOptions.ScalarStyle;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Writes a resolved {@link JobSpec} back as YAML that {@link SpecParser} reads to an equal spec. Builds the node
 * tree itself so that every string is double-quoted (escaped by SnakeYAML's emitter) and numbers stay plain.
 */
public final class SpecWriter {

    private SpecWriter() {
    }

    /** The frozen, fully resolved spec (no {@code extends:}) as YAML text. */
    public static String toYaml(final JobSpec spec) {
        final List<NodeTuple> top = new ArrayList<>();
        top.add(entry("job", job(spec.job())));
        top.add(entry("cluster", cluster(spec.cluster())));
        top.add(entry("resources", resources(spec.resources())));
        top.add(entry("nccl_env", env(spec.ncclEnv())));
        top.add(entry("env", env(spec.env())));
        top.add(entry("benchmark", benchmark(spec.benchmark())));
        top.add(entry("references", references(spec.references())));
        top.add(entry("nccl", nccl(spec.nccl())));
        final List<NodeTuple> tcp = new ArrayList<>();
        put(tcp, "shm", spec.tcp().shm().specName());
        put(tcp, "algorithm", spec.tcp().algorithm().specName());
        top.add(entry("tcp", map(tcp)));
        if (spec.diagnose() != null) {
            top.add(entry("diagnose", diagnose(spec.diagnose())));
        }
        final DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(FlowStyle.BLOCK);
        options.setIndent(2);
        options.setWidth(1000);
        final StringWriter out = new StringWriter();
        out.write("# frozen by cctk from " + Problems.printable(String.valueOf(spec.source())).replace('\n', ' ')
                + "; every value resolved\n");
        new Yaml(options).serialize(map(top), out);
        return out.toString();
    }

    private static Node job(final Job j) {
        final List<NodeTuple> m = new ArrayList<>();
        put(m, "name", j.name());
        put(m, "output_dir", j.outputDir());
        put(m, "time_limit", j.timeLimit());
        return map(m);
    }

    private static Node cluster(final Cluster c) {
        final List<NodeTuple> m = new ArrayList<>();
        put(m, "name", c.name());
        put(m, "partition", c.partition());
        put(m, "account", c.account());
        put(m, "qos", c.qos());
        put(m, "constraint", c.constraint());
        put(m, "reservation", c.reservation());
        m.add(entry("sbatch_extra", strings(c.sbatchExtra())));
        m.add(entry("modules", strings(c.modules())));
        put(m, "env_script", c.envScript());
        put(m, "java", c.java());
        put(m, "jar", c.jar());
        if (c.srunExtra() != null && !c.srunExtra().isEmpty()) {
            m.add(entry("srun_extra", strings(c.srunExtra())));
        }
        return map(m);
    }

    private static Node resources(final Resources r) {
        final List<NodeTuple> m = new ArrayList<>();
        m.add(entry("nodes", number(r.nodes())));
        m.add(entry("tasks_per_node", number(r.tasksPerNode())));
        m.add(entry("gpus_per_node", number(r.gpusPerNode())));
        m.add(entry("cpus_per_task", number(r.cpusPerTask())));
        put(m, "gpu_bind", r.gpuBind());
        put(m, "distribution", r.distribution());
        m.add(entry("nics", strings(r.nics())));
        return map(m);
    }

    private static Node env(final Map<String, String> env) {
        final List<NodeTuple> m = new ArrayList<>();
        env.forEach((k, v) -> put(m, k, v));
        return map(m);
    }

    private static Node benchmark(final Benchmark b) {
        final List<NodeTuple> m = new ArrayList<>();
        m.add(entry("backends", strings(b.backends())));
        m.add(entry("tasks", new SequenceNode(Tag.SEQ, b.taskCounts().stream().map(SpecWriter::number).toList(),
                FlowStyle.FLOW)));
        m.add(entry("collectives", strings(b.collectives().stream().map(CollectiveType::specName).toList())));
        final List<Node> sizes = new ArrayList<>();
        for (final MessageSize s : b.sizes()) {
            sizes.add(s.elements() ? number(s.value()) : string(s.specText()));
        }
        m.add(entry("sizes", new SequenceNode(Tag.SEQ, sizes, FlowStyle.FLOW)));
        m.add(entry("dtypes", strings(b.dtypes().stream().map(DType::specName).toList())));
        m.add(entry("ops", strings(b.ops().stream().map(ReduceOp::specName).toList())));
        m.add(entry("warmup", number(b.warmupIters())));
        m.add(entry("iters", number(b.iters())));
        m.add(entry("check_iters", number(b.checkIters())));
        m.add(entry("in_place", b.inPlace() == Benchmark.InPlace.BOTH ? string("both")
                : plain(Tag.BOOL, Boolean.toString(b.inPlace() == Benchmark.InPlace.IN_PLACE))));
        m.add(entry("root", number(b.root())));
        final List<NodeTuple> a = new ArrayList<>();
        a.add(entry("spread", plain(Tag.FLOAT, Double.toString(b.alltoallv().spread()))));
        put(a, "matrix", b.alltoallv().matrixFile());
        m.add(entry("alltoallv", map(a)));
        m.add(entry("timeout", number(b.timeoutSeconds())));
        m.add(entry("jit_warmup", number(b.jitWarmupSeconds())));
        m.add(entry("repeats", number(b.repeats())));
        m.add(entry("retime", plain(Tag.BOOL, Boolean.toString(b.retime()))));
        m.add(entry("window_ms", number(b.windowMillis())));
        m.add(entry("time_across_ranks", string(b.timeAcrossRanks().specName())));
        return map(m);
    }

    private static Node references(final List<Reference> refs) {
        final List<Node> items = new ArrayList<>();
        for (final Reference r : refs == null ? List.<Reference>of() : refs) {
            final List<NodeTuple> m = new ArrayList<>();
            put(m, "collective", r.collective());
            put(m, "backend", r.backend());
            put(m, "dtype", r.dtype());
            put(m, "min_size", Numbers.specSize(r.minBytes()));
            put(m, "max_size", Numbers.specSize(r.maxBytes()));
            m.add(entry("busbw_gbps", plain(Tag.FLOAT, Double.toString(r.busBwGbps()))));
            m.add(entry("tolerance", plain(Tag.FLOAT, Double.toString(r.tolerance()))));
            items.add(map(m));
        }
        return new SequenceNode(Tag.SEQ, items, FlowStyle.BLOCK);
    }

    private static Node nccl(final NcclOptions n) {
        final List<NodeTuple> m = new ArrayList<>();
        put(m, "backend_name", n.backendName());
        put(m, "library", n.library());
        m.add(entry("devices", new SequenceNode(Tag.SEQ, n.devices().stream().map(d -> number(d)).toList(),
                FlowStyle.FLOW)));
        m.add(entry("debug", plain(Tag.BOOL, Boolean.toString(n.debug()))));
        put(m, "timing", n.timing().specName());
        put(m, "profiler", n.profiler().specName());
        return map(m);
    }

    private static Node diagnose(final Diagnose d) {
        final List<NodeTuple> m = new ArrayList<>();
        m.add(entry("size", d.size().elements() ? number(d.size().value()) : string(d.size().specText())));
        m.add(entry("warmup", number(d.warmup())));
        m.add(entry("iters", number(d.iters())));
        m.add(entry("threshold", plain(Tag.FLOAT, Double.toString(d.threshold()))));
        m.add(entry("confirm", plain(Tag.BOOL, Boolean.toString(d.confirm()))));
        m.add(entry("limit", number(d.limitSeconds())));
        m.add(entry("window_ms", number(d.windowMillis())));
        return map(m);
    }

    private static void put(final List<NodeTuple> m, final String key, final String value) {
        if (value != null) {
            m.add(entry(key, string(value)));
        }
    }

    private static NodeTuple entry(final String key, final Node value) {
        return new NodeTuple(plain(Tag.STR, key), value);
    }

    private static MappingNode map(final List<NodeTuple> tuples) {
        return new MappingNode(Tag.MAP, tuples, FlowStyle.BLOCK);
    }

    private static SequenceNode strings(final List<String> values) {
        return new SequenceNode(Tag.SEQ, values.stream().map(SpecWriter::string).toList(), FlowStyle.FLOW);
    }

    private static Node string(final String s) {
        return new ScalarNode(Tag.STR, s, null, null, ScalarStyle.DOUBLE_QUOTED);
    }

    private static Node number(final long n) {
        return plain(Tag.INT, Long.toString(n));
    }

    private static Node plain(final Tag tag, final String text) {
        return new ScalarNode(tag, text, null, null, ScalarStyle.PLAIN);
    }
}
