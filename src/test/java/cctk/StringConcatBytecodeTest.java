package cctk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * cctk's classes concatenate strings with StringBuilder (javac's {@code -XDstringConcat=inline}, in the pom), not
 * with invokedynamic: every indy concatenation site makes java.lang.invoke spin classes the first time it runs,
 * which class-data sharing does not keep. A rank spun 243 such classes before its sweep began; the launcher, its
 * spec parse and its header took 0.2 s longer on 2 vCPUs (bench/RESULTS.md, issue 22 set Q). This reads every
 * compiled class of the product (and of the gloo module, where it was built) for the bootstrap's name.
 */
@Timeout(60)
class StringConcatBytecodeTest {

    private static final byte[] BOOTSTRAP = "makeConcatWithConstants".getBytes(StandardCharsets.US_ASCII);

    @Test
    void noProductClassConcatenatesThroughInvokedynamic() throws IOException {
        final Path classes = Path.of("target", "classes", "cctk");
        assertThat(classes).as("the compiled product (mvn compile)").isDirectory();
        final List<String> found = new ArrayList<>();
        int read = 0;
        for (final Path root : new Path[] {classes, Path.of("target", "gloo-classes", "cctk")}) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(root)) {
                for (final Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                    read++;
                    if (contains(Files.readAllBytes(f), BOOTSTRAP)) {
                        found.add(f.toString());
                    }
                }
            }
        }
        assertThat(read).as("class files read").isGreaterThan(100);
        assertThat(found).as("classes that concatenate through StringConcatFactory").isEmpty();
    }

    @Test
    void theSearchFindsTheBootstrapWhereItIs() {
        final byte[] pool = "\u0001\u0000\u0017makeConcatWithConstants\u0001".getBytes(StandardCharsets.US_ASCII);
        assertThat(contains(pool, BOOTSTRAP)).isTrue();
        assertThat(contains("makeConcatWithConstant".getBytes(StandardCharsets.US_ASCII), BOOTSTRAP)).isFalse();
    }

    private static boolean contains(final byte[] hay, final byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
