package cctk.store;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One message of the rendezvous store protocol. Frames are length-prefixed; fields are big-endian ints,
 * and strings and byte strings carry an int length first (strings in UTF-8). No Java serialization.
 * <pre>
 *   0          4      5              9
 *   +----------+------+--------------+---------------------------+
 *   | length   | type | request id   | fields of the type ...    |
 *   +----------+------+--------------+---------------------------+
 *   length counts everything after itself. Request id 0 is a message nobody asked for (an abort).
 * </pre>
 * <b>Note:</b> immutable; the reader keeps a cursor, so one frame is read by one thread.
 *
 * @param type      what the frame means
 * @param requestId the request it answers, or 0
 * @param body      the fields
 */
record StoreFrame(Type type, int requestId, byte[] body) {

    /** Frame types, with their fields. */
    enum Type {
        /** server: nonce. */
        CHALLENGE,
        /** client: rank, world size, host, proof, client nonce. */
        JOIN,
        /** server: proof of the server over the client nonce. */
        WELCOME,
        /** server: why the join was refused. */
        REFUSED,
        /** client: key, value. */
        SET,
        /** client: key. */
        GET,
        /** client: barrier name. */
        BARRIER,
        /** server: done (set, barrier). */
        OK,
        /** server: the value of a get. */
        VALUE,
        /** server: why the request (or, with id 0, the whole store) failed. */
        FAIL,
        /** client: leaving in order. */
        BYE,
        /** client: key prefix; the store forgets those keys (answered OK). */
        DROP
    }

    /** Largest frame accepted from a rank that has joined. */
    static final int MAX_LENGTH = 16 << 20;
    /** Largest frame accepted before a peer has proven it belongs to the job. */
    static final int MAX_HANDSHAKE_LENGTH = 4096;

    /** Writes the frame; callers serialise writers on the stream. */
    void writeTo(final DataOutputStream out) throws IOException {
        out.writeInt(1 + 4 + body.length);
        out.writeByte(type.ordinal());
        out.writeInt(requestId);
        out.write(body);
        out.flush();
    }

    /** The frame as it goes on the wire, ready to write. */
    ByteBuffer toBuffer() {
        return ByteBuffer.allocate(4 + 1 + 4 + body.length).putInt(1 + 4 + body.length).put((byte) type.ordinal())
                .putInt(requestId).put(body).flip();
    }

    /** Parses the part after the length word ({@code type, request id, fields}); IOException when garbled. */
    static StoreFrame parse(final ByteBuffer rest) throws IOException {
        if (rest.remaining() < 5) {
            throw new IOException("bad frame length " + rest.remaining());
        }
        final int type = rest.get() & 0xff;
        if (type >= Type.values().length) {
            throw new IOException("unknown frame type " + type);
        }
        final int id = rest.getInt();
        final byte[] body = new byte[rest.remaining()];
        rest.get(body);
        return new StoreFrame(Type.values()[type], id, body);
    }

    /** Reads one frame no longer than {@code maxLength}; EOFException at a clean end of stream. */
    static StoreFrame readFrom(final DataInputStream in, final int maxLength) throws IOException {
        final int length = in.readInt();
        if (length < 5 || length > maxLength) {
            throw new IOException("bad frame length " + length);
        }
        final int type = in.readUnsignedByte();
        if (type >= Type.values().length) {
            throw new IOException("unknown frame type " + type);
        }
        final int id = in.readInt();
        final byte[] body = new byte[length - 5];
        in.readFully(body);
        return new StoreFrame(Type.values()[type], id, body);
    }

    /** Builds the fields of a frame. */
    static final class Builder {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(bytes);

        Builder putInt(final int v) {
            try {
                out.writeInt(v);
            } catch (final IOException e) {
                throw new IllegalStateException(e);
            }
            return this;
        }

        Builder putBytes(final byte[] v) {
            putInt(v.length);
            bytes.write(v, 0, v.length);
            return this;
        }

        Builder putString(final String v) {
            return putBytes(v.getBytes(StandardCharsets.UTF_8));
        }

        StoreFrame frame(final Type type, final int requestId) {
            return new StoreFrame(type, requestId, bytes.toByteArray());
        }
    }

    /** Reads the fields of this frame in order. */
    Fields fields() {
        return new Fields(ByteBuffer.wrap(body));
    }

    /** A cursor over a frame's fields; a short or garbled body throws IOException. */
    static final class Fields {
        private final ByteBuffer buf;

        Fields(final ByteBuffer buf) {
            this.buf = buf;
        }

        int getInt() throws IOException {
            if (buf.remaining() < 4) {
                throw new EOFException("frame too short");
            }
            return buf.getInt();
        }

        byte[] getBytes() throws IOException {
            final int n = getInt();
            if (n < 0 || n > buf.remaining()) {
                throw new EOFException("frame too short");
            }
            final byte[] v = new byte[n];
            buf.get(v);
            return v;
        }

        String getString() throws IOException {
            return new String(getBytes(), StandardCharsets.UTF_8);
        }
    }
}
