package cctk.store;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A store of world size 2 as its own process, for {@link StoreDescriptorsIT}: args SPARE_DESCRIPTORS. It fills its
 * descriptor table (ulimit -n) up to SPARE free ones, prints "port N", logs to stderr, and ends when stdin closes.
 */
public final class StoreServerMain {

    private StoreServerMain() {
    }

    public static void main(final String[] args) throws IOException {
        final int spare = Integer.parseInt(args[0]);
        final byte[] secret = System.getenv("CCTK_SECRET").getBytes(StandardCharsets.UTF_8);
        final StoreServer server = StoreServer.start("localhost", StoreTest.LOOPBACK, 0, 2, secret,
                Duration.ofSeconds(120), line -> {
                    System.err.println(line);
                    System.err.flush();
                });
        final long limit = Long.parseLong(args[1]);
        final List<FileInputStream> ballast = new ArrayList<>();
        while (openDescriptors() < limit - spare) {
            ballast.add(new FileInputStream("/dev/null"));
        }
        System.out.println("port " + server.port());
        System.out.flush();
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        while (in.readLine() != null) {
            // wait for the test to close stdin
        }
        server.close();
        for (final FileInputStream f : ballast) {
            f.close();
        }
    }

    private static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }
}
