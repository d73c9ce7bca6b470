package cctk.store;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The flooding stranger of the adversarial suite, in this JVM: every 20 ms it reads /proc/net/tcp and /proc/net/tcp6
 * for listening sockets (as an attacker on the node does) and keeps {@code perPort} silent connections on each,
 * reconnecting the moment the other end closes one. It floods only the ports this JVM itself listens on (their
 * socket inodes appear in /proc/self/fd), so it never touches another process's sockets.
 * <b>Note:</b> runs on its own thread; {@link #close} stops it.
 */
final class PersistentStranger implements AutoCloseable {

    private final int perPort;
    private final Set<Integer> spared;
    private final Thread thread;
    private final AtomicLong connects = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private volatile boolean stop;

    /** Starts flooding every listening port of this JVM except {@code spared}. */
    PersistentStranger(final int perPort, final Set<Integer> spared) {
        this.perPort = perPort;
        this.spared = spared;
        this.thread = new Thread(this::run, "persistent-stranger");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    long connects() {
        return connects.get();
    }

    /** Connections the other end closed, each reopened at once. */
    long reconnects() {
        return reconnects.get();
    }

    private void run() {
        final Map<Integer, Set<SocketChannel>> held = new HashMap<>();
        final ByteBuffer sink = ByteBuffer.allocate(4096);
        try (Selector selector = Selector.open()) {
            long nextScan = 0;
            while (!stop) {
                final long now = System.nanoTime();
                if (now - nextScan >= 0) {
                    final Set<Integer> ports = listeningPorts();
                    for (final Integer p : ports) {
                        held.computeIfAbsent(p, x -> new HashSet<>());
                    }
                    nextScan = now + 20_000_000L;
                }
                for (final Map.Entry<Integer, Set<SocketChannel>> e : held.entrySet()) {
                    while (e.getValue().size() < perPort && !stop) {
                        final SocketChannel c = open(e.getKey());
                        if (c == null) {
                            break;
                        }
                        c.register(selector, SelectionKey.OP_READ, e.getKey());
                        e.getValue().add(c);
                        connects.incrementAndGet();
                    }
                }
                selector.select(5);
                for (final SelectionKey k : selector.selectedKeys()) {
                    final SocketChannel c = (SocketChannel) k.channel();
                    int n;
                    try {
                        n = c.read(sink.clear());
                    } catch (final IOException ex) {
                        n = -1;
                    }
                    if (n < 0) {
                        k.cancel();
                        c.close();
                        held.get((Integer) k.attachment()).remove(c);
                        reconnects.incrementAndGet();
                    }
                }
                selector.selectedKeys().clear();
            }
            for (final Set<SocketChannel> cs : held.values()) {
                for (final SocketChannel c : cs) {
                    c.close();
                }
            }
        } catch (final IOException e) {
            throw new IllegalStateException("the stranger failed: " + e.getMessage(), e);
        }
    }

    private static SocketChannel open(final int port) {
        try {
            final SocketChannel c = SocketChannel.open();
            c.configureBlocking(false);
            c.connect(new InetSocketAddress("127.0.0.1", port));
            c.finishConnect();
            return c;
        } catch (final IOException e) {
            return null; // the port went away, or descriptors ran out: try again later
        }
    }

    /** Ports in LISTEN state whose sockets belong to this JVM, except the spared ones. */
    private Set<Integer> listeningPorts() throws IOException {
        final Set<String> mine = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (final Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    final String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        mine.add(target.substring(8, target.length() - 1));
                    }
                } catch (final IOException e) {
                    // closed meanwhile
                }
            }
        }
        final Set<Integer> ports = new HashSet<>();
        for (final String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            final List<String> lines = Files.readAllLines(Path.of(table));
            for (final String line : lines.subList(1, lines.size())) {
                final String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[3].equals("0A") && mine.contains(f[9])) {
                    final int port = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16);
                    if (!spared.contains(port)) {
                        ports.add(port);
                    }
                }
            }
        }
        return ports;
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join(10_000);
    }
}
