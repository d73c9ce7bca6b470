package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.comm.DType;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(10)
class SizesTest {

    @ParameterizedTest
    @CsvSource({"4MiB,4194304,false", "1KiB,1024,false", "2GiB,2147483648,false", "1KB,1000,false",
        "3MB,3000000,false", "1GB,1000000000,false", "512B,512,false", "1 MiB,1048576,false",
        "1048576,1048576,true", "16GiB,17179869184,false"})
    void parses(final String text, final long value, final boolean elements) {
        assertThat(Sizes.parse(text)).isEqualTo(new MessageSize(value, elements));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0", "0B", "4mib", "4 MiBs", "1.5MiB", "-1KiB", "17GiB", "08", "1e6", "99999999999999GiB"})
    void rejects(final String text) {
        assertThatThrownBy(() -> Sizes.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("4MiB");
    }

    @Test
    void formatsBackToWhatParses() {
        for (final String s : new String[] {"4MiB", "1536KiB", "1KB", "400MB", "3GiB", "7B", "123", "1000KiB"}) {
            assertThat(Sizes.parse(s).specText()).isEqualTo(s);
        }
        // as asked, in the unit that leaves the smaller number (old: 1000000B, 390625KiB, 1000B)
        assertThat(Sizes.parse("1MB").specText()).isEqualTo("1MB");
        assertThat(Sizes.parse("400000000B").specText()).isEqualTo("400MB");
        assertThat(Sizes.parse("1000B").specText()).isEqualTo("1KB");
        assertThat(Sizes.parse("1499999B").specText()).isEqualTo("1499999B");
        assertThat(Sizes.parse("1MB").specText()).satisfies(t -> assertThat(Sizes.parse(t)).isEqualTo(Sizes.parse("1MB")));
    }

    @Test
    void theFrozenSpecWritesSizesAndReferencesAsAsked(@TempDir final Path dir) {
        // old: sizes: ["4000000B", "390625KiB"] and min_size: "390625KiB" in the spec a 400 MB run froze
        final JobSpec s = SpecParser.parse(SpecFiles.write(dir, "a.yaml", "resources: {nodes: 1, tasks_per_node:"
            + " 2}\nbenchmark: {backends: [tcp], sizes: [4MB, 400MB, 4MiB, 1048576]}\nreferences:\n  - {collective:"
            + " all_reduce, min_size: 400MB, max_size: 1GB, busbw_gbps: 10}\n"));
        final String yaml = SpecWriter.toYaml(s);
        assertThat(yaml).contains("sizes: [\"4MB\", \"400MB\", \"4MiB\", 1048576]", "min_size: \"400MB\"",
            "max_size: \"1GB\"").doesNotContain("390625", "4000000B");
        assertThat(s.references().get(0).describe()).contains("all_reduce 400MB-1GB busbw");
        final JobSpec again = SpecParser.parse(SpecFiles.write(dir, "frozen.yaml", yaml));
        assertThat(again.benchmark().sizes()).isEqualTo(s.benchmark().sizes());
        assertThat(again.references()).isEqualTo(s.references());
    }

    @Test
    void elementsScaleWithTheType() {
        assertThat(new MessageSize(1024, true).bytes(DType.FLOAT64)).isEqualTo(8192);
        assertThat(new MessageSize(1024, false).bytes(DType.FLOAT64)).isEqualTo(1024);
    }

    @Test
    void sweeps() {
        assertThat(Sizes.sweep(Sizes.parse("1KiB"), Sizes.parse("1MiB"), 4)).extracting(MessageSize::specText)
                .containsExactly("1KiB", "4KiB", "16KiB", "64KiB", "256KiB", "1MiB");
        assertThat(Sizes.sweep(Sizes.parse("8B"), Sizes.parse("100B"), 2)).extracting(MessageSize::value)
                .containsExactly(8L, 16L, 32L, 64L);
        assertThat(Sizes.sweep(Sizes.parse("1"), Sizes.parse("8"), 2)).allMatch(MessageSize::elements).hasSize(4);
        assertThat(Sizes.sweep(Sizes.parse("1MiB"), Sizes.parse("1MiB"), 2)).hasSize(1);
        assertThat(Sizes.sweep(Sizes.parse("8B"), Sizes.parse("16GiB"), 2)).hasSize(32);
    }

    @Test
    void badSweeps() {
        assertThatThrownBy(() -> Sizes.sweep(Sizes.parse("1KiB"), Sizes.parse("8"), 2)).hasMessageContaining("same unit");
        assertThatThrownBy(() -> Sizes.sweep(Sizes.parse("1MiB"), Sizes.parse("1KiB"), 2)).hasMessageContaining("min <= max");
        assertThatThrownBy(() -> Sizes.sweep(Sizes.parse("1B"), Sizes.parse("1KiB"), 1)).hasMessageContaining(">= 2");
    }
}
