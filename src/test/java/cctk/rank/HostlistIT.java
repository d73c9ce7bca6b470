package cctk.rank;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.SlurmTests;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Compares {@link Hostlist} with the real {@code scontrol show hostnames} (needs no Slurm daemon). */
@Tag("slurm")
@Timeout(120)
class HostlistIT {

    private static final List<String> FIXED = List.of("nid[001-004,007]", "gpu-[01-02]x[1-2]",
            "rack[1-2]-node[01-03]", "lrdn[0001-0003],lrdn1234", "nid[001049,001052]", "nid[8-11]", "nid[1-010]",
            "n[09-11]", "n[01-3]", "nid[3,1,3]", "a b,c", "n[1-2][3-4]", "a[1-2]b[1-2]c[1-2]",
            "a[1-2]b[1-2]c[1-2]d[1-2]", "nid001.local", "n[1-2],n[2-3]", "a,,b", "n[001-1000]", "x[1,3]y[5-6]z[7,9]",
            "nid[0-3,10-12,099-101]", "node1,node[2-3] node4");

    @Test
    void matchesScontrolOnFixedAndGeneratedExpressions() throws Exception {
        requireScontrol();
        final List<String> expressions = new ArrayList<>(FIXED);
        final Random random = new Random(42);
        for (int i = 0; i < 60; i++) {
            expressions.add(generate(random));
        }
        for (final String e : expressions) {
            assertThat(Hostlist.expand(e)).as(e).containsExactlyElementsOf(scontrol(e));
        }
    }

    @Test
    void rejectsWhatScontrolCallsInvalid() throws Exception {
        requireScontrol();
        for (final String e : List.of("nid[5-3]", "n[]", "n[-1]", "n[1x2]", "n[1-2]]")) {
            assertThat(String.join(" ", scontrol(e))).as(e).containsIgnoringCase("invalid");
            assertThat(catchFailure(e)).as(e).isTrue();
        }
    }

    private static boolean catchFailure(final String e) {
        try {
            Hostlist.expand(e);
            return false;
        } catch (final cctk.CctkException ex) {
            return true;
        }
    }

    /** A random expression: 1-3 items of 1-3 bracket groups with lists, ranges and padding. */
    private static String generate(final Random r) {
        final StringBuilder s = new StringBuilder();
        final int items = 1 + r.nextInt(3);
        for (int i = 0; i < items; i++) {
            s.append(i == 0 ? "" : r.nextBoolean() ? "," : " ");
            s.append(List.of("nid", "gpu-", "lrdn", "x").get(r.nextInt(4)));
            final int groups = 1 + r.nextInt(3);
            for (int g = 0; g < groups; g++) {
                if (g > 0) {
                    s.append(List.of("x", "-n", "b").get(r.nextInt(3)));
                }
                s.append('[');
                final int parts = 1 + r.nextInt(2);
                for (int p = 0; p < parts; p++) {
                    final int width = 1 + r.nextInt(4);
                    final int lo = r.nextInt(120);
                    s.append(p == 0 ? "" : ",").append(String.format("%0" + width + "d", lo));
                    if (r.nextBoolean()) {
                        s.append('-').append(lo + r.nextInt(4));
                    }
                }
                s.append(']');
            }
        }
        return s.toString();
    }

    /** scontrol needs no daemon, only Slurm's packages: install them (as root) or fail/skip loudly. */
    private static void requireScontrol() {
        if (!scontrolRuns()) {
            SlurmTests.ensure("local", "HostlistIT");
        }
    }

    private static boolean scontrolRuns() {
        try {
            return !scontrol("a").isEmpty();
        } catch (final IOException | InterruptedException e) {
            return false;
        }
    }

    private static List<String> scontrol(final String expression) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder("scontrol", "show", "hostnames", expression)
                .redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("scontrol did not finish");
        }
        return out.lines().filter(l -> !l.isBlank()).toList();
    }
}
