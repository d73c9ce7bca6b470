package cctk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Descriptor exhaustion: a store under {@code ulimit -n 200} with 239 held stranger connections keeps its log to a
 * handful of lines (the issue saw 1.77 million "accept failed" lines in 10 s), and the ranks join once the
 * strangers leave.
 */
@Tag("slow")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StoreDescriptorsIT {

    private static final String SECRET = "descriptor-test-secret";

    @TempDir
    Path dir;

    @Test
    void descriptorExhaustionIsLoggedOnceAndTheRanksJoinAfterwards() throws Exception {
        final Path log = dir.resolve("store.log");
        final ProcessBuilder pb = new ProcessBuilder("bash", "-c", "ulimit -n 200; exec \"$0\" -cp \"$1\" "
                + StoreServerMain.class.getName() + " 30 200",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), classesOnly())
                .redirectError(log.toFile());
        pb.environment().put("CCTK_SECRET", SECRET);
        final Process store = pb.start();
        try {
            final BufferedReader out = new BufferedReader(new InputStreamReader(store.getInputStream(),
                    StandardCharsets.UTF_8));
            final String first = out.readLine();
            assertThat(first).as(Files.readString(log)).startsWith("port ");
            final int port = Integer.parseInt(first.substring(5).trim());
            final List<SocketChannel> strangers = new ArrayList<>();
            for (int i = 0; i < 239; i++) {
                final SocketChannel s = SocketChannel.open();
                s.configureBlocking(false);
                s.connect(new InetSocketAddress("127.0.0.1", port));
                strangers.add(s);
            }
            awaitLine(log, "accept failed", store);
            for (final SocketChannel s : strangers) {
                s.close();
            }
            final byte[] secret = SECRET.getBytes(StandardCharsets.UTF_8);
            try (StoreClient r1 = StoreClient.connect("127.0.0.1", port, 1, 2, "h1", secret, Duration.ofSeconds(60));
                 StoreClient r0 = StoreClient.connect("127.0.0.1", port, 0, 2, "h0", secret,
                         Duration.ofSeconds(60))) {
                r1.set("k", new byte[] {42});
                assertThat(r0.get("k")).containsExactly(42);
            }
            store.getOutputStream().close();
            assertThat(store.waitFor(60, TimeUnit.SECONDS)).isTrue();
            final List<String> lines = Files.readAllLines(log);
            System.out.println("store log under ulimit -n 200 with 239 strangers: " + lines.size() + " lines:\n  "
                    + String.join("\n  ", lines));
            assertThat(lines).as("the store's log").hasSizeLessThan(30)
                    .noneMatch(l -> l.contains("\tat ") || l.contains("Exception in thread"));
            assertThat(lines.stream().filter(l -> l.contains("accept failed")).count()).isEqualTo(1);
        } finally {
            store.destroyForcibly();
        }
    }

    private static void awaitLine(final Path log, final String text, final Process store) throws Exception {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end && store.isAlive()) {
            if (Files.readString(log).contains(text)) {
                return;
            }
            store.waitFor(50, TimeUnit.MILLISECONDS);
        }
        throw new AssertionError("the store never logged '" + text + "': " + Files.readString(log));
    }

    /** The class directories only: few descriptors for jars under the low limit. */
    private static String classesOnly() {
        try (Stream<String> entries = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))) {
            return entries.filter(e -> e.endsWith("classes") || e.contains("target" + File.separator)).collect(Collectors.joining(File.pathSeparator));
        }
    }
}
