package cctk.comm.gloo;

import cctk.CctkException;
import cctk.OwnerFiles;
import cctk.comm.BackendModule;
import cctk.comm.Communicator;
import cctk.comm.SharedDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.chrono.Milliseconds;
import org.bytedeco.pytorch.FileStore;
import org.bytedeco.pytorch.GlooDeviceVector;
import org.bytedeco.pytorch.ProcessGroupGloo;
import org.bytedeco.pytorch.global.torch;

/**
 * The gloo backend's module: unpacks PyTorch's native libraries into the node-local cache before anything loads
 * them, loads libtorch, and connects a c10d ProcessGroupGloo. Its rendezvous is a c10d FileStore in an owner-only
 * directory of the job's (shared) output file system, whose name rank 0 makes at random and passes to the others
 * through cctk's authenticated store: nobody else can read or write it. Gloo's own connections between the ranks
 * (its TCP pairs, on the NICs the spec names) carry no proof that a peer belongs to the job.
 */
public final class GlooModule implements BackendModule {

    private static final String CACHE_PROPERTY = "org.bytedeco.javacpp.cachedir";
    /** The prefix of rank 0's file that every rank must see before Gloo's FileStore opens. */
    private static final String SEEN = "seen-";

    @Override
    public String backend() {
        return "gloo";
    }

    @Override
    public String libraries() {
        final String preset = version("pytorch");
        return "PyTorch " + preset.substring(0, Math.max(0, preset.lastIndexOf('-'))) + " c10d ProcessGroupGloo"
                + " (JavaCPP preset " + preset + ", JavaCPP " + version("javacpp") + ")";
    }

    /** A JavaCPP artifact's version from its jar's Maven properties, or "?". */
    private static String version(final String artifact) {
        try {
            final String v = Loader.getVersion("org.bytedeco", artifact);
            return v == null ? "?" : v;
        } catch (final IOException e) {
            return "?";
        }
    }

    @Override
    public Communicator connect(final Request request) {
        load(request.nativeCache());
        final Path dir = rendezvousDir(request);
        final String name = SharedDir.meet(request.store(), request.keyPrefix() + "filestore", request.rank(),
                request.host(), dir, SEEN, SharedDir.SEEN_WITHIN.compareTo(request.deadline()) < 0
                        ? SharedDir.SEEN_WITHIN : request.deadline());
        final Path file = dir.resolve("store-" + name);
        final FileStore store = new FileStore(file.toString(), request.size());
        // the process group holds the store from here on; Java must never free it under it
        store.retainReference();
        store.setTimeout(new Milliseconds(request.deadline().toMillis()));
        final ProcessGroupGloo.Options options = ProcessGroupGloo.Options.create(
                new Milliseconds(request.deadline().toMillis()));
        final GlooDeviceVector devices = new GlooDeviceVector();
        final String carriers;
        try {
            if (request.nics().isEmpty()) {
                devices.push_back(ProcessGroupGloo.createDeviceForHostname(request.host()));
                carriers = "gloo over tcp to " + request.host();
            } else {
                for (final String nic : request.nics()) {
                    devices.push_back(ProcessGroupGloo.createDeviceForInterface(nic));
                }
                carriers = "gloo over tcp on " + String.join(",", request.nics());
            }
            options.devices(devices);
            final ProcessGroupGloo group = new ProcessGroupGloo(store, request.rank(), request.size(), options);
            group.retainReference();
            request.store().barrier(request.keyPrefix() + "connected");
            return new GlooCommunicator(group, request.rank(), request.size(), request.deadline(),
                    carriers + "; " + libraries(), () -> {
                        if (request.rank() == 0) {
                            quietDelete(file);
                            quietDelete(dir.resolve(SEEN + name));
                        }
                    });
        } catch (final RuntimeException e) {
            if (e instanceof CctkException c) {
                throw c;
            }
            throw CctkException.environment("rank " + request.rank() + " could not connect Gloo's process group of "
                    + request.size() + " ranks (" + (request.nics().isEmpty() ? "host " + request.host()
                    : "NICs " + request.nics()) + "): " + firstLine(e.getMessage()), e);
        }
    }

    /** Unpacks libtorch and its neighbours into the node-local cache, then loads them: never half from elsewhere. */
    private static void load(final Path cache) {
        try {
            OwnerFiles.directory(cache);
        } catch (final IOException e) {
            throw CctkException.environment("the gloo backend could not make its native-library cache " + cache + ": "
                    + e.getMessage() + " (set CCTK_JAVACPP_CACHE to an owner-only local directory).", e);
        }
        if (System.getProperty(CACHE_PROPERTY) == null) {
            System.setProperty(CACHE_PROPERTY, cache.toString());
        }
        // JavaCPP caps what it allocates at the JVM's heap size by default (a rank's heap is small: its buffers and
        // libtorch's memory are native); cctk sizes the buffers and checks memory itself
        for (final String cap : List.of("org.bytedeco.javacpp.maxBytes", "org.bytedeco.javacpp.maxPhysicalBytes")) {
            if (System.getProperty(cap) == null) {
                System.setProperty(cap, "0");
            }
        }
        try {
            // all of a library's files in the cache before the first load, so the dynamic linker finds libtorch_cpu
            // beside libtorch and never a system copy of another version
            for (final String preset : List.of("javacpp", "openblas", "pytorch")) {
                Loader.cacheResources("/org/bytedeco/" + preset + "/" + Loader.getPlatform() + "/");
            }
            Loader.load(torch.class);
        } catch (final IOException | UnsatisfiedLinkError | RuntimeException e) {
            throw CctkException.environment("the gloo backend could not load PyTorch's libraries from "
                    + System.getProperty(CACHE_PROPERTY) + ": " + e, e);
        }
    }

    /**
     * The rendezvous directory: an owner-only {@code .gloo} of the output directory, where every rank resolves the
     * FileStore's random name that rank 0 passes through cctk's store, once it sees rank 0's file of that name there
     * ({@link SharedDir}): no path is taken from data, a name that is not 32 hex digits is refused, and a rank whose
     * output directory is not shared with rank 0's says so within {@link SharedDir#SEEN_WITHIN} instead of waiting
     * out Gloo's rendezvous timeout.
     */
    private static Path rendezvousDir(final Request r) {
        try {
            return OwnerFiles.subdirectory(r.sharedDir(), ".gloo");
        } catch (final IOException e) {
            throw CctkException.environment("the gloo backend could not make its rendezvous directory in "
                    + r.sharedDir() + ": " + e.getMessage(), e);
        }
    }

    private static void quietDelete(final Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (final IOException e) {
            // the store's file stays; the directory is owner-only
        }
    }

    private static String firstLine(final String s) {
        if (s == null) {
            return "(no message)";
        }
        final int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
