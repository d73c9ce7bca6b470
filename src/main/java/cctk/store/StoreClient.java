package cctk.store;

import cctk.CctkException;
import cctk.IoErrors;
import cctk.EnvVar;
import cctk.comm.Store;
import cctk.store.StoreFrame.Type;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A rank's handle on rank 0's store. Connects with retries and back-off while rank 0 starts; a reader thread
 * matches answers to requests, so a failure pushed by rank 0, or rank 0 going away, reaches every waiting call
 * at once. The server enforces the deadlines; the client waits a little longer as a backstop.
 * <b>Note:</b> threadsafe.
 */
public final class StoreClient implements Store {

    private static final long BACKSTOP_MILLIS = 5_000;
    /** The longest wait between tries to join; each wait is jittered by ±50 % so that ranks do not retry in step. */
    private static final long MAX_BACKOFF_MILLIS = 200;

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final String server;
    private final Duration timeout;
    private final Map<Integer, CompletableFuture<StoreFrame>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger nextId = new AtomicInteger(1);
    private volatile String failure;
    /** The rank the store lost without a goodbye (0 when this client lost the store itself), or -1. */
    private volatile int departed = -1;
    private volatile boolean closed;
    private volatile Consumer<String> onFailure = why -> { };

    private StoreClient(final Socket socket, final DataInputStream in, final DataOutputStream out,
                        final String server, final Duration timeout) {
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.server = server;
        this.timeout = timeout;
    }

    /**
     * Joins the store at {@code host:port} as {@code rank} of {@code worldSize}, retrying until {@code timeout};
     * {@code myHost} names this rank in rank 0's errors.
     */
    public static StoreClient connect(final String host, final int port, final int rank, final int worldSize,
                                      final String myHost, final byte[] secret, final Duration timeout) {
        final String server = "rank 0's store at " + host + ":" + port;
        final long deadline = System.nanoTime() + timeout.toNanos();
        long backoff = 5;
        IOException last = null;
        while (System.nanoTime() < deadline) {
            final Socket s = new Socket();
            try {
                final long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                s.connect(new InetSocketAddress(host, port), (int) Math.min(left, 5_000));
                return handshake(s, server, rank, worldSize, myHost, new JoinProof(secret), deadline, timeout);
            } catch (final UnknownHostException e) {
                closeQuietly(s);
                throw CctkException.environment("rank " + rank + " cannot resolve the rendezvous host '" + host
                        + "'; set " + EnvVar.MASTER_ADDR + " to an address of rank 0's node.", e);
            } catch (final ConnectException | NoRouteToHostException | SocketTimeoutException e) {
                closeQuietly(s);
                last = e;
            } catch (final IOException e) {
                closeQuietly(s);
                last = e;
            }
            final long jittered = backoff / 2 + java.util.concurrent.ThreadLocalRandom.current().nextLong(backoff);
            sleep(Math.min(jittered, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
            backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
        }
        throw CctkException.environment("rank " + rank + " could not reach " + server + " within "
                + timeout.toSeconds() + " s (" + why(last) + "): rank 0 did"
                + " not start, or the address is not reachable from this node.");
    }

    private static StoreClient handshake(final Socket s, final String server, final int rank, final int worldSize,
                                         final String myHost, final JoinProof proof, final long deadline,
                                         final Duration timeout) throws IOException {
        s.setTcpNoDelay(true);
        s.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        final DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
        final DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
        final StoreFrame challenge = StoreFrame.readFrom(in, StoreFrame.MAX_HANDSHAKE_LENGTH);
        if (challenge.type() != Type.CHALLENGE) {
            throw notOurs(s, server, "it does not speak the cctk store protocol");
        }
        final byte[] serverNonce = challenge.fields().getBytes();
        final byte[] myNonce = JoinProof.nonce();
        new StoreFrame.Builder().putInt(rank).putInt(worldSize).putString(myHost)
                .putBytes(proof.rankProof(serverNonce, rank, worldSize)).putBytes(myNonce)
                .frame(Type.JOIN, 0).writeTo(out);
        final StoreFrame answer = StoreFrame.readFrom(in, StoreFrame.MAX_HANDSHAKE_LENGTH);
        if (answer.type() == Type.REFUSED) {
            closeQuietly(s);
            throw CctkException.environment(server + " refused rank " + rank + ": " + answer.fields().getString()
                    + ".");
        }
        if (answer.type() != Type.WELCOME || !JoinProof.same(answer.fields().getBytes(), proof.serverProof(myNonce))) {
            throw notOurs(s, server, "it does not know this job's secret");
        }
        s.setSoTimeout(0);
        final StoreClient c = new StoreClient(s, in, out, server, timeout);
        final Thread reader = new Thread(c::readLoop, "cctk-store-client");
        reader.setDaemon(true);
        reader.start();
        return c;
    }

    /** Called once, on the reader thread, when the store fails (pushed by rank 0 or rank 0 gone). */
    public void onFailure(final Consumer<String> listener) {
        this.onFailure = listener;
        final String why = failure;
        if (why != null) {
            listener.accept(why);
        }
    }

    @Override
    public int departed() {
        return departed;
    }

    /** Why the store failed (pushed by rank 0, or rank 0 gone), or null while it works. */
    @Override
    public String failure() {
        return failure;
    }

    @Override
    public void set(final String key, final byte[] value) {
        call(new StoreFrame.Builder().putString(key).putBytes(value), Type.SET, "set '" + key + "'");
    }

    @Override
    public byte[] get(final String key) {
        final StoreFrame f = call(new StoreFrame.Builder().putString(key), Type.GET, "get '" + key + "'");
        try {
            return f.fields().getBytes();
        } catch (final IOException e) {
            throw CctkException.environment(server + " sent a garbled value for '" + key + "'.", e);
        }
    }

    @Override
    public void drop(final String prefix) {
        call(new StoreFrame.Builder().putString(prefix), Type.DROP, "drop '" + prefix + "'");
    }

    @Override
    public void barrier(final String name) {
        call(new StoreFrame.Builder().putString(name), Type.BARRIER, "barrier '" + name + "'");
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (failure == null) {
            try {
                synchronized (out) {
                    new StoreFrame.Builder().frame(Type.BYE, 0).writeTo(out);
                }
            } catch (final IOException e) {
                // leaving anyway
            }
        }
        closeQuietly(socket);
    }

    private StoreFrame call(final StoreFrame.Builder body, final Type type, final String what) {
        final String why = failure;
        if (why != null) {
            throw CctkException.environment(why);
        }
        if (closed) {
            throw new IllegalStateException("store used after close");
        }
        final int id = nextId.getAndIncrement();
        final CompletableFuture<StoreFrame> answer = new CompletableFuture<>();
        pending.put(id, answer);
        try {
            if (failure != null) {
                throw CctkException.environment(failure);
            }
            synchronized (out) {
                body.frame(type, id).writeTo(out);
            }
            final StoreFrame f = answer.get(timeout.toMillis() + BACKSTOP_MILLIS, TimeUnit.MILLISECONDS);
            if (f.type() == Type.FAIL) {
                throw CctkException.environment(f.fields().getString());
            }
            return f;
        } catch (final IOException e) {
            final String gone = failure;
            throw CctkException.environment(gone != null ? gone : "lost " + server + " during " + what + ": "
                    + e.getMessage() + ".", e);
        } catch (final ExecutionException e) {
            throw CctkException.environment(IoErrors.why(e.getCause()), e.getCause());
        } catch (final TimeoutException e) {
            throw CctkException.environment(server + " did not answer " + what + " within "
                    + (timeout.toSeconds() + BACKSTOP_MILLIS / 1000) + " s.");
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CctkException.environment("interrupted during " + what + ".", e);
        } finally {
            pending.remove(id);
        }
    }

    private void readLoop() {
        try {
            while (true) {
                final StoreFrame f = StoreFrame.readFrom(in, StoreFrame.MAX_LENGTH);
                if (f.requestId() == 0) {
                    if (f.type() == Type.FAIL) {
                        final StoreFrame.Fields fields = f.fields();
                        final String why = fields.getString();
                        int gone = -1;
                        try {
                            gone = fields.getInt();
                        } catch (final IOException e) {
                            gone = -1; // a failure of the store itself names no rank
                        }
                        failed(why, gone);
                    }
                    continue;
                }
                final CompletableFuture<StoreFrame> answer = pending.get(f.requestId());
                if (answer != null) {
                    answer.complete(f);
                }
            }
        } catch (final IOException e) {
            if (!closed) {
                failed("lost the connection to " + server + ": rank 0 exited or failed (" + IoErrors.why(e) + ").", 0);
            }
        }
    }

    private void failed(final String why, final int gone) {
        if (failure != null) {
            return;
        }
        departed = gone;
        failure = why;
        final CctkException ex = CctkException.environment(why);
        pending.values().forEach(p -> p.completeExceptionally(ex));
        onFailure.accept(why);
    }

    private static CctkException notOurs(final Socket s, final String server, final String why) {
        closeQuietly(s);
        return CctkException.environment(server + " is not this job's rank 0: " + why + ". Another job may use the"
                + " same port; set " + EnvVar.MASTER_PORT + " to a free port.");
    }

    /** The last try's failure in words; never "null" (an end of stream has no message of its own). */
    private static String why(final IOException last) {
        if (last == null) {
            return "no attempt";
        }
        if (last instanceof java.io.EOFException) {
            return "rank 0's store closed each connection before the handshake ended: it is busy, or flooded with"
                    + " strangers' connections";
        }
        return IoErrors.why(last);
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CctkException.environment("interrupted while waiting for rank 0's store.", e);
        }
    }

    private static void closeQuietly(final Socket s) {
        try {
            s.close();
        } catch (final IOException e) {
            // nothing to add
        }
    }
}
