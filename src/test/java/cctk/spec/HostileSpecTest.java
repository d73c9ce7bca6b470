package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Files that are no spec at all fail fast, with one clear problem and no stack trace. */
@Timeout(10)
class HostileSpecTest {

    @TempDir
    Path dir;

    private String rejected(final String yaml) {
        return SpecFiles.problemsOf(SpecFiles.write(dir, "hostile.yaml", yaml));
    }

    @Test
    void emptyFile() {
        assertThat(rejected("")).contains("1 problem in").contains("the file is empty");
    }

    @Test
    void onlyComments() {
        assertThat(rejected("# nothing here\n\n# still nothing\n")).contains("no YAML content");
    }

    @Test
    void binaryFile() {
        final byte[] bytes = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0};
        assertThat(SpecFiles.problemsOf(SpecFiles.write(dir, "a.out", bytes))).contains("binary file");
    }

    @Test
    void notUtf8() {
        final byte[] bytes = "job: {name: caf\u00e9}\n".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(SpecFiles.problemsOf(SpecFiles.write(dir, "latin1.yaml", bytes))).contains("not UTF-8");
    }

    @Test
    void hugeFileIsRefusedBeforeParsing() {
        final String huge = "# " + "x".repeat(SpecParser.MAX_BYTES) + "\n";
        assertThat(rejected(huge)).contains("a spec is at most 1048576 bytes");
    }

    @Test
    void aliasBombIsRefused() {
        final StringBuilder b = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char c = 'b'; c <= 'j'; c++) {
            final String prev = "*" + (char) (c - 1);
            b.append(c).append(": &").append(c).append(" [").append(String.join(",",
                    prev, prev, prev, prev, prev, prev, prev, prev)).append("]\n");
        }
        assertThat(rejected(b.toString())).contains("refused").contains("aliases");
    }

    @Test
    void deepNestingIsRefused() {
        assertThat(rejected("a: " + "[".repeat(500) + "]".repeat(500) + "\n")).contains("refused").contains("levels");
    }

    @Test
    void recursiveAliasIsRefused() {
        assertThat(rejected("job: &a {name: *a}\n")).doesNotContain("Exception");
    }

    @Test
    void listAtTopLevel() {
        assertThat(rejected("- job\n- resources\n")).contains(":1:1: expected a mapping of keys")
                .contains("found a list");
    }

    @Test
    void scalarAtTopLevel() {
        assertThat(rejected("just some words\n")).contains("found a string");
    }

    @Test
    void duplicateTopLevelKeys() {
        assertThat(rejected("resources: {nodes: 1, tasks_per_node: 1}\nresources: {nodes: 2}\n"))
                .contains(":2:1: resources: duplicate key; first written at line 1");
    }

    @Test
    void brokenYamlNamesTheLine() {
        assertThat(rejected("job:\n  name: x\nresources: {nodes: 1, tasks_per_node: [1\n"))
                .contains("hostile.yaml:").contains("not valid YAML");
    }

    @Test
    void twoDocuments() {
        assertThat(rejected("job: {name: a}\n---\njob: {name: b}\n")).contains("not valid YAML");
    }

    @Test
    void missingFileAndDirectory() {
        assertThat(SpecFiles.problemsOf(dir.resolve("nope.yaml"))).contains("no such file");
        assertThat(SpecFiles.problemsOf(dir)).contains("it is a directory");
    }

    @Test
    void mergeKeysAreNotSupported() {
        assertThat(rejected("base: &b {nodes: 1}\nresources:\n  <<: *b\n  tasks_per_node: 1\n"))
                .contains("merge keys");
    }
}
