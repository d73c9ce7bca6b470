package cctk.comm.tcp;

import cctk.CctkException;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.FileStore;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;

/** One rank as its own process, for {@link TcpProcessesIT}: args RANK WORLD STORE_DIR (check|loop). */
public final class TcpRankMain {

    private TcpRankMain() {
    }

    public static void main(final String[] args) {
        final int rank = Integer.parseInt(args[0]);
        final int world = Integer.parseInt(args[1]);
        final TcpOptions options = TcpOptions.local(Duration.ofSeconds(10), "proc", LocalWorld.SECRET);
        try (TcpCommunicator comm = TcpCommunicator.connect(options, rank, world,
                new FileStore(Path.of(args[2]), rank, Duration.ofSeconds(30)))) {
            final int count = 1 << 20;
            final CommBuffer b = comm.allocate(4L * count);
            final ByteBuffer h = ByteBuffer.allocate(4 * count).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < count; i++) {
                h.putFloat(i * 4, rank + i % 5);
            }
            b.upload(h, 0);
            comm.allReduce(b, b, count, DType.FLOAT32, ReduceOp.SUM);
            h.clear();
            b.download(0, h);
            for (int i = 0; i < count; i++) {
                final float want = world * (world - 1) / 2f + world * (i % 5);
                if (h.getFloat(i * 4) != want) {
                    System.err.println("rank " + rank + ": element " + i + " is " + h.getFloat(i * 4) + ", not "
                            + want);
                    System.exit(1);
                }
            }
            System.out.println("rank " + rank + " ready");
            System.out.flush();
            while ("loop".equals(args[3])) {
                comm.allReduce(b, b, count, DType.FLOAT32, ReduceOp.MAX);
            }
        } catch (final CctkException e) {
            System.err.println(e.getMessage());
            System.exit(e.exitCode().ordinal() == 0 ? 1 : exitStatus(e));
        }
    }

    private static int exitStatus(final CctkException e) {
        return switch (e.exitCode()) {
            case ENVIRONMENT -> 3;
            case USAGE -> 2;
            default -> 1;
        };
    }
}
