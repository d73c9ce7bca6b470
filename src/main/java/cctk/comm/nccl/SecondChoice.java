package cctk.comm.nccl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A second libnccl in one process: the dynamic linker keeps the first library with the soname libnccl.so.2 and
 * binds every later use to it, so a later nccl.library (or another one first on LD_LIBRARY_PATH) would be measured
 * with the first one's code, silently. {@link NcclLibraries#load} refuses it with this paragraph.
 * <b>Note:</b> threadsafe (no state).
 */
final class SecondChoice {

    private SecondChoice() {
    }

    /**
     * Why a second choice of libnccl in this process is refused, or null when it chooses the loaded file (or none:
     * no nccl.library and none on the library path).
     *
     * @param loaded       the libnccl loaded first (null: unknown, nothing to compare)
     * @param firstLibrary the nccl.library that chose it, or null
     * @param library      the nccl.library asked for now, or null
     * @param requested    the libnccl.so.2 that {@code library} and LD_LIBRARY_PATH choose now, or null
     */
    static String reason(final Path loaded, final String firstLibrary, final String library, final Path requested) {
        final boolean named = library != null && !library.isBlank();
        if (loaded == null || requested == null && !named || requested != null && sameFile(loaded, requested)) {
            return null;
        }
        final String wanted = requested != null ? requested.toString() : library;
        return "The nccl backend cannot use " + wanted + (named ? " (nccl.library: " + library + ")"
                : " (first on LD_LIBRARY_PATH)") + " on " + NcclLibraries.hostName() + ": this process already loaded "
                + loaded + (firstLibrary == null ? "" : " (nccl.library: " + firstLibrary + ")") + ", and a process"
                + " holds one libnccl.so.2 (every later use binds to the first), so the figures would be " + loaded
                + "'s. Measure each NCCL library in a run of its own (one cctk run or job per nccl.library).";
    }

    private static boolean sameFile(final Path a, final Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        }
    }
}
