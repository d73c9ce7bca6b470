package cctk.comm.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Segment files: owner-only, unpredictable names, never following planted files, gone early, stale ones swept. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShmSegmentsTest {

    private static final byte[] NONCE = new byte[SegmentNames.NONCE_BYTES];
    private Path dir;

    @BeforeEach
    void directory() throws Exception {
        dir = ShmWorld.directory();
    }

    @AfterEach
    void clean() throws Exception {
        ShmWorld.delete(dir);
    }

    @Test
    void filesAreOwnerOnlyFromTheStart() throws Exception {
        final MappedByteBuffer m = SegmentFiles.create(dir, "cctk-shm-perm", 8192);
        assertThat(m.capacity()).isEqualTo(8192);
        assertThat(SegmentFiles.permissions(dir.resolve("cctk-shm-perm"))).isEqualTo("rw-------");
    }

    @Test
    void aLiveBuffersFileIsOwnerOnlyAndGoesOnceEveryPeerMappedIt() throws Exception {
        ShmWorld.run(3, ShmWorld.options(dir, Duration.ofSeconds(30)), comm -> {
            comm.barrier(); // every rank has connected
            assertThat(ShmWorld.files(dir)).as("control files unlinked after connect").isEmpty();
            comm.barrier();
            final CommBuffer b = comm.allocate(1 << 16);
            comm.barrier();
            final List<String> files = ShmWorld.files(dir);
            assertThat(files).hasSizeGreaterThanOrEqualTo(1).allMatch(n -> n.matches("cctk-shm-[0-9a-f]{40}"));
            for (final String f : files) {
                final Path p = dir.resolve(f);
                if (Files.exists(p)) { // a peer may unlink it meanwhile
                    assertThat(SegmentFiles.permissions(p)).isEqualTo("rw-------");
                }
            }
            comm.barrier();
            comm.allReduce(b, b, 1 << 14, DType.FLOAT32, ReduceOp.SUM); // every peer maps every buffer now
            comm.barrier();
            assertThat(ShmWorld.files(dir)).as("files left while the buffers live").isEmpty();
            comm.allReduce(b, b, 1 << 14, DType.FLOAT32, ReduceOp.SUM); // the mappings outlive the names
            return null;
        });
        assertThat(ShmWorld.files(dir)).isEmpty();
    }

    /**
     * Buffers freed through {@code Communicator.free} leave at once, without the garbage collector: 200 buffers of
     * 1 MiB allocated, used by every rank and freed one after another; after the next collective no rank holds or
     * maps any of them (counted by the communicators and in /proc/self/maps), and no file is left.
     */
    @Test
    void freedBuffersLeaveEveryRankAtTheirNextCollective() throws Exception {
        final int world = 3;
        final List<long[]> held = ShmWorld.run(world, ShmWorld.options(dir, Duration.ofSeconds(30)), comm -> {
            final CommBuffer small = comm.allocate(64);
            long most = 0;
            long mostMapped = 0;
            for (int i = 0; i < 200; i++) {
                final CommBuffer b = comm.allocate(1 << 20);
                comm.allReduce(b, b, 16, DType.INT32, ReduceOp.SUM); // every peer maps it
                most = Math.max(most, comm.liveBytes());
                comm.free(b);
                comm.allReduce(small, small, 16, DType.INT32, ReduceOp.SUM); // peers look at the table again
                mostMapped = Math.max(mostMapped, comm.peerMappings());
            }
            comm.barrier();
            final long maps = comm.rank() == 0 ? mappingsIn(dir) : -1;
            final long files = comm.rank() == 0 ? ShmWorld.files(dir).size() : -1;
            comm.barrier();
            return new long[] {most, mostMapped, comm.liveBytes(), comm.peerMappings(), maps, files};
        });
        for (final long[] h : held) {
            assertThat(h[0]).as("bytes of segments held at most").isEqualTo((1L << 20) + 64);
            assertThat(h[1]).as("peer segments mapped at most after a collective").isEqualTo(world - 1);
            assertThat(h[2]).as("bytes held at the end").isEqualTo(64);
            assertThat(h[3]).as("peer segments mapped at the end").isEqualTo(world - 1);
        }
        assertThat(held.get(0)[4]).as("mappings of the directory in this JVM: every rank's control segment and"
                + " small buffer, on every rank").isEqualTo(2L * world * world);
        assertThat(held.get(0)[5]).as("files left while the buffers live").isZero();
    }

    @Test
    void aFreedBufferCannotBeUsedAndFreeingIsForWholeBuffersOnly() throws Exception {
        final List<String> said = ShmWorld.run(2, ShmWorld.options(dir, Duration.ofSeconds(30)), comm -> {
            final CommBuffer b = comm.allocate(1 << 16);
            final CommBuffer other = comm.allocate(1 << 16);
            assertThatThrownBy(() -> comm.free(b.slice(64, 64))).isInstanceOf(CctkException.class)
                    .hasMessageContaining("only a whole buffer");
            assertThatThrownBy(() -> comm.free(ForeignBuffer.allocate(64))).isInstanceOf(CctkException.class)
                    .hasMessageContaining("only buffers it allocated");
            comm.free(b);
            comm.free(b); // twice: nothing more happens
            assertThatThrownBy(() -> b.upload(ByteBuffer.allocate(4), 0)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("used after it was freed");
            assertThatThrownBy(() -> comm.allReduce(b, other, 16, DType.INT32, ReduceOp.SUM))
                    .isInstanceOf(CctkException.class).hasMessageContaining("used after it was freed");
            comm.allReduce(other, other, 16, DType.INT32, ReduceOp.SUM); // the group is still whole
            return comm.liveBytes() + " bytes";
        });
        assertThat(said).containsOnly((1 << 16) + " bytes");
    }

    /** Lines of /proc/self/maps that map a file of {@code d}. */
    private static long mappingsIn(final Path d) throws java.io.IOException {
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.contains(d.toString())).count();
    }

    @Test
    void unmappingIsImmediate() throws Exception {
        final MappedByteBuffer m = SegmentFiles.create(dir, "cctk-shm-unmap", 1 << 20);
        final Path maps = Path.of("/proc/self/maps");
        assertThat(Files.readString(maps)).contains("cctk-shm-unmap");
        Unmapper.unmap(m);
        assertThat(Files.readString(maps)).doesNotContain("cctk-shm-unmap");
    }

    @Test
    void namesNeedTheSecret() {
        final SegmentNames a = new SegmentNames("secret-a".getBytes(StandardCharsets.UTF_8), "w4");
        final SegmentNames b = new SegmentNames("secret-b".getBytes(StandardCharsets.UTF_8), "w4");
        final SegmentNames c = new SegmentNames("secret-a".getBytes(StandardCharsets.UTF_8), "w2");
        final Set<String> names = new HashSet<>();
        for (final SegmentNames n : List.of(a, b, c)) {
            names.add(n.control(NONCE, 0));
            names.add(n.control(NONCE, 1));
            names.add(n.data(NONCE, 0, 0, 1));
            names.add(n.data(NONCE, 0, 0, 2));
            names.add(n.data(NONCE, 0, 1, 1));
            names.add(n.data(new byte[] {1}, 0, 1, 1));
        }
        assertThat(names).hasSize(18).allMatch(n -> n.matches("cctk-shm-[0-9a-f]{40}"));
        assertThat(a.data(NONCE, 2, 3, 4)).isEqualTo(a.data(NONCE.clone(), 2, 3, 4));
    }

    @Test
    void aHeaderSealedWithoutTheSecretIsRefused() {
        final SegmentNames mine = new SegmentNames("secret-a".getBytes(StandardCharsets.UTF_8), "w4");
        final SegmentNames stranger = new SegmentNames("guess".getBytes(StandardCharsets.UTF_8), "w4");
        final SegmentHeader h = new SegmentHeader().wrap(ByteBuffer.allocate(SegmentHeader.LENGTH))
                .fill(SegmentHeader.KIND_DATA, 42, 7, 1, 2, 3, 4, 100);
        h.mac(stranger.seal(NONCE, h, "cctk-shm-x"));
        assertThat(mine.sealed(NONCE, h, "cctk-shm-x")).isFalse();
        h.mac(mine.seal(NONCE, h, "cctk-shm-x"));
        assertThat(mine.sealed(NONCE, h, "cctk-shm-x")).isTrue();
        assertThat(mine.sealed(NONCE, h, "cctk-shm-y")).as("another file's header").isFalse();
        h.fill(SegmentHeader.KIND_DATA, 42, 7, 1, 2, 3, 4, 1 << 30);
        assertThat(mine.sealed(NONCE, h, "cctk-shm-x")).as("a changed size").isFalse();
    }

    @Test
    void aPlantedFileOrLinkMakesCreationFailWithoutTouchingIt() throws Exception {
        final Path planted = Files.writeString(dir.resolve("cctk-shm-planted"), "mine");
        final Path target = Files.writeString(dir.resolve("target"), "keep");
        final Path link = Files.createSymbolicLink(dir.resolve("cctk-shm-link"), target);
        final Path dangling = Files.createSymbolicLink(dir.resolve("cctk-shm-dangling"), dir.resolve("nothing"));
        for (final Path p : List.of(planted, link, dangling)) {
            assertThatThrownBy(() -> SegmentFiles.create(dir, p.getFileName().toString(), 1 << 20))
                    .isInstanceOf(CctkException.class).hasMessageContaining("already exists")
                    .hasMessageContaining(p.toString());
        }
        assertThat(Files.readString(planted)).isEqualTo("mine");
        assertThat(Files.readString(target)).isEqualTo("keep");
        assertThat(Files.exists(dir.resolve("nothing"))).isFalse();
        assertThat(SegmentFiles.open(dir, "cctk-shm-link")).as("links are not followed").isNull();
    }

    @Test
    void theSweepRemovesOnlyFilesOfDeadCreators() throws Exception {
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final long self = ProcessHandle.current().pid();
        final long started = ProcStat.selfStartTime();
        assertThat(started).as("this test needs /proc").isPositive();
        final Path dead = segment("cctk-shm-dead", gone.pid(), 12345);
        final Path live = segment("cctk-shm-live", self, started);
        final Path reused = segment("cctk-shm-reused", self, started + 1); // same pid, another process
        final Path fresh = Files.writeString(dir.resolve("cctk-shm-fresh"), "");
        final Path old = Files.writeString(dir.resolve("cctk-shm-old"), "");
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minusSeconds(600)));
        final Path otherName = segment("other-dead", gone.pid(), 12345);
        final Path link = Files.createSymbolicLink(dir.resolve("cctk-shm-linked"), dead);
        assertThat(ShmCommunicator.cleanStale(dir)).isEqualTo(3);
        assertThat(Files.exists(dead)).isFalse();
        assertThat(Files.exists(reused)).isFalse();
        assertThat(Files.exists(old)).isFalse();
        assertThat(List.of(live, fresh, otherName)).allMatch(Files::exists);
        assertThat(Files.isSymbolicLink(link)).isTrue();
    }

    /**
     * A rank about to halt (a signal, its launcher gone) closes nothing: {@link ShmCommunicator#releaseFiles} unlinks
     * the files it made that are still there (a buffer no peer has mapped yet) and what dead processes left in the
     * directories it used, and keeps its mappings and other live processes' files.
     */
    @Test
    void aRankAboutToHaltRemovesTheFilesItMadeAndThoseOfDeadProcessesButKeepsItsMappings() throws Exception {
        final long[] dead = deadProcess();
        final long self = ProcessHandle.current().pid();
        final Path[] planted = new Path[2];
        ShmWorld.run(2, ShmWorld.options(dir, Duration.ofSeconds(30)), comm -> {
            comm.barrier(); // connected (member 0 swept the directory then): the control files are gone
            if (comm.rank() == 0) {
                planted[0] = SegmentsOnDisk.leave(dir, dead[0], dead[1]);
                planted[1] = SegmentsOnDisk.leave(dir, self, ProcStat.selfStartTime());
                final CommBuffer b = comm.allocate(1 << 16); // rank 1 has not mapped it: its file is there
                final ByteBuffer data = ByteBuffer.allocate(1 << 16);
                for (int i = 0; i < data.capacity(); i++) {
                    data.put(i, (byte) i);
                }
                b.upload(data, 0);
                assertThat(ShmWorld.files(dir)).hasSize(3);
                try {
                    assertThat(ShmCommunicator.releaseFiles()).as("the buffer's file and the dead process's")
                            .isEqualTo(2);
                    assertThat(ShmWorld.files(dir)).containsExactly(planted[1].getFileName().toString());
                    final ByteBuffer back = ByteBuffer.allocate(1 << 16);
                    b.download(0, back);
                    assertThat(back.flip()).as("the mapping outlives the name").isEqualTo(data.clear());
                    // a thread that goes on until the halt makes no file that would outlive the process
                    assertThatThrownBy(() -> comm.allocate(1 << 16)).isInstanceOf(CctkException.class)
                            .hasMessageContaining("this rank is ending");
                    assertThat(ShmWorld.files(dir)).containsExactly(planted[1].getFileName().toString());
                } finally {
                    SegmentFiles.unrelease();
                }
            }
            comm.barrier();
            return null;
        });
        assertThat(ShmWorld.files(dir)).containsExactly(planted[1].getFileName().toString());
    }

    /** A rank whose group broke (a peer died or left) sweeps, as it closes, what dead processes left. */
    @Test
    void aRankWhoseGroupBrokeRemovesWhatDeadProcessesLeftWhenItCloses() throws Exception {
        final long[] dead = deadProcess();
        final long self = ProcessHandle.current().pid();
        final Path[] planted = new Path[2];
        final List<String> said = ShmWorld.run(2, ShmWorld.options(dir, Duration.ofSeconds(30)), comm -> {
            comm.barrier(); // connected: member 0 has swept the directory already
            if (comm.rank() == 1) {
                planted[0] = SegmentsOnDisk.leave(dir, dead[0], dead[1]);
                planted[1] = SegmentsOnDisk.leave(dir, self, ProcStat.selfStartTime());
                return "left"; // closes: leaves the group
            }
            try {
                comm.barrier();
                return "no failure";
            } catch (final CctkException e) {
                return e.getMessage();
            }
        });
        assertThat(said.get(0)).contains("rank 1 left the shared-memory group");
        assertThat(Files.exists(planted[0])).as("the dead process's segment").isFalse();
        assertThat(Files.exists(planted[1])).as("a running process's segment").isTrue();
    }

    /** The pid and start time of a process that ran and is gone. */
    private static long[] deadProcess() throws Exception {
        final Process p = new ProcessBuilder("sleep", "600").start();
        final long start = ProcStat.startTime(p.pid());
        assertThat(start).as("this test needs /proc").isPositive();
        p.destroyForcibly();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return new long[] {p.pid(), start};
    }

    /** A file with a data segment header naming {@code pid} started at {@code start}. */
    private Path segment(final String name, final long pid, final long start) {
        final MappedByteBuffer m = SegmentFiles.create(dir, name, SegmentHeader.LENGTH + 64);
        new SegmentHeader().wrap(m).fill(SegmentHeader.KIND_DATA, pid, start, 0, 1, 0, 1, 64);
        return dir.resolve(name);
    }
}
