package cctk.comm.shm;

import cctk.CctkException;
import cctk.comm.JobProof;
import cctk.comm.Store;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The ranks of one shared-memory group and how they met. Each rank creates its control segment, publishes its pid,
 * the pid's start time, its naming nonce and the host's boot id under {@code <keyPrefix>/shm/<rank>} in the store,
 * maps every peer's control segment (checking its seal), and then all pass a first handoff through the control
 * segments themselves; after it every peer has mapped every control segment, so each rank unlinks its own.
 * <b>Note:</b> not threadsafe.
 */
final class Members implements AutoCloseable {

    final int rank;
    final int size;
    final Path dir;
    final SegmentNames names;
    final long pid = ProcessHandle.current().pid();
    final long startTime = ProcStat.selfStartTime();
    final byte[][] nonces;
    final ControlBlock[] controls;
    final PeerProcess[] processes;
    private final ShmOptions options;
    private final MappedByteBuffer[] mappings;
    private Path controlPath;

    private Members(final ShmOptions options, final int rank, final int size) {
        this.options = options;
        this.rank = rank;
        this.size = size;
        this.dir = options.directory();
        this.names = new SegmentNames(options.secret(), options.keyPrefix());
        this.nonces = new byte[size][];
        this.controls = new ControlBlock[size];
        this.processes = new PeerProcess[size];
        this.mappings = new MappedByteBuffer[size];
    }

    /** The job's rank of member {@code member}. */
    int rankOf(final int member) {
        return options.rankOf(member);
    }

    /** How messages name member {@code member}: "rank N" with its world rank. */
    String label(final int member) {
        return options.label(member);
    }

    /** Meets the other members through {@code store}; the returned group has passed its first handoff. */
    static Members meet(final ShmOptions options, final int rank, final int size, final Store store) {
        if (!Files.isDirectory(options.directory()) || !Files.isWritable(options.directory())) {
            throw CctkException.environment(options.label(rank) + " cannot use " + options.directory() + " for shared"
                    + " memory: it is not a writable directory.");
        }
        final Members m = new Members(options, rank, size);
        try {
            m.createOwn();
            store.set(key(options, rank), m.card());
            for (int p = 0; p < size; p++) {
                if (p != rank) {
                    m.join(p, new String(store.get(key(options, p)), StandardCharsets.UTF_8));
                }
            }
            return m;
        } catch (final RuntimeException e) {
            m.close();
            throw e;
        }
    }

    private static String key(final ShmOptions options, final int rank) {
        return options.keyPrefix() + "/shm/" + rank;
    }

    private void createOwn() {
        nonces[rank] = Arrays.copyOf(JobProof.nonce(), SegmentNames.NONCE_BYTES);
        final String name = names.control(nonces[rank], rank);
        controlPath = dir.resolve(name);
        final MappedByteBuffer mapping = SegmentFiles.create(dir, name,
                SegmentHeader.LENGTH + ControlBlock.bytes(size));
        final SegmentHeader header = new SegmentHeader().wrap(mapping)
                .fill(SegmentHeader.KIND_CONTROL, pid, startTime, rank, size, 0, 0, ControlBlock.bytes(size));
        header.mac(names.seal(nonces[rank], header, name));
        mappings[rank] = mapping;
        controls[rank] = control(mapping);
        processes[rank] = PeerProcess.of(pid, startTime);
    }

    private ControlBlock control(final MappedByteBuffer mapping) {
        return new ControlBlock(mapping.slice(SegmentHeader.LENGTH, ControlBlock.bytes(size))
                .order(ByteOrder.nativeOrder()), size);
    }

    /** What this rank publishes: pid, start time, nonce, boot id. */
    private byte[] card() {
        return (pid + " " + startTime + " " + HexFormat.of().formatHex(nonces[rank]) + " " + bootId())
                .getBytes(StandardCharsets.UTF_8);
    }

    private void join(final int p, final String card) {
        final String[] f = card.split(" ");
        if (f.length != 4) {
            throw CctkException.environment(label(rank) + " read a malformed shared-memory card of " + label(p) + ".");
        }
        if (!f[3].equals(bootId())) {
            throw CctkException.environment(label(p) + " runs on another host than " + label(rank) + " (boot ids "
                    + f[3] + " and " + bootId() + "); shared memory only joins ranks of one host.");
        }
        nonces[p] = HexFormat.of().parseHex(f[2]);
        processes[p] = PeerProcess.of(Long.parseLong(f[0]), Long.parseLong(f[1]));
        final String name = names.control(nonces[p], p);
        final MappedByteBuffer mapping = SegmentFiles.open(dir, name);
        if (mapping == null) {
            throw CctkException.environment(label(rank) + " cannot find the control segment of " + label(p)
                    + " in " + dir + ": the two ranks do not share " + dir + " (another container or mount"
                    + " namespace?), or " + label(p) + " died.");
        }
        mappings[p] = mapping;
        final SegmentHeader header = new SegmentHeader().wrap(mapping);
        if (!names.sealed(nonces[p], header, name) || header.kind() != SegmentHeader.KIND_CONTROL
                || header.rank() != p || header.size() != size
                || mapping.capacity() != SegmentHeader.LENGTH + ControlBlock.bytes(size)) {
            throw CctkException.environment(label(rank) + " refuses the control segment " + dir.resolve(name)
                    + " of " + label(p) + ": it does not carry that rank's seal for a group of " + size + ".");
        }
        controls[p] = control(mapping);
    }

    /** After the first handoff: every peer has mapped this rank's control segment, so its name can go. */
    void unlinkOwn() {
        if (controlPath != null) {
            SegmentFiles.unlink(controlPath);
            controlPath = null;
        }
    }

    private static String bootId() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/random/boot_id"), StandardCharsets.US_ASCII).trim();
        } catch (final IOException e) {
            return "unknown";
        }
    }

    /** Tells peers this rank has left, unlinks its control file if still there, and unmaps every control segment. */
    @Override
    public void close() {
        if (controls[rank] != null) {
            controls[rank].goneRelease();
        }
        unlinkOwn();
        for (int p = 0; p < size; p++) {
            Unmapper.unmap(mappings[p]);
            mappings[p] = null;
            controls[p] = null;
            if (processes[p] != null) {
                processes[p].close();
            }
        }
    }
}
