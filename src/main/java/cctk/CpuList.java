package cctk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * CPU numbers in the kernel's list format ({@code 0-3,8,10-11}, cpuset(7)'s "List format"): the CPUs this process may
 * run on ({@code Cpus_allowed_list} of {@code /proc/self/status}, what {@code taskset}, a cgroup's cpuset or Slurm's
 * binding left it) and the CPUs online ({@code /sys/devices/system/cpu/online}). Sorted, without repeats.
 * <b>Note:</b> threadsafe (immutable).
 *
 * @param cpus the CPU numbers, ascending
 */
public record CpuList(List<Integer> cpus) {

    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path ONLINE = Path.of("/sys/devices/system/cpu/online");
    private static final String ALLOWED_KEY = "Cpus_allowed_list:";
    /** The largest CPU number taken from a list: a range beyond it is no list of this machine's CPUs. */
    static final int MAX_CPU = 1 << 16;

    public CpuList {
        cpus = List.copyOf(new TreeSet<>(cpus));
    }

    /** The list {@code text} names ({@code 0-3,8}), or null when it is not a non-empty list of CPU numbers. */
    public static CpuList parse(final String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        final List<Integer> cpus = new ArrayList<>();
        for (final String part : text.trim().split(",", -1)) {
            final int dash = part.indexOf('-');
            final int from = number(dash < 0 ? part : part.substring(0, dash));
            final int to = dash < 0 ? from : number(part.substring(dash + 1));
            if (from < 0 || to < from) {
                return null;
            }
            for (int c = from; c <= to; c++) {
                cpus.add(c);
            }
        }
        return new CpuList(cpus);
    }

    private static int number(final String s) {
        if (s.isEmpty() || s.length() > 5 || !s.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            return -1;
        }
        final int n = Integer.parseInt(s);
        return n > MAX_CPU ? -1 : n;
    }

    /** The CPUs this process may run on, or null where {@code /proc} does not say. */
    public static CpuList allowed() {
        try {
            for (final String line : Files.readAllLines(STATUS, StandardCharsets.UTF_8)) {
                if (line.startsWith(ALLOWED_KEY)) {
                    return parse(line.substring(ALLOWED_KEY.length()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc (not Linux, or hidden): unknown
        }
        return null;
    }

    /** The CPUs online, or null where {@code /sys} does not say. */
    public static CpuList online() {
        try {
            return parse(Files.readString(ONLINE, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** How many CPUs. */
    public int size() {
        return cpus.size();
    }

    /** The {@code i}-th CPU number, ascending. */
    public int get(final int i) {
        return cpus.get(i);
    }

    /** The kernel's list format, runs of consecutive CPUs as ranges: {@code 0-3,8}. */
    public String text() {
        final StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < cpus.size()) {
            int j = i;
            while (j + 1 < cpus.size() && cpus.get(j + 1) == cpus.get(j) + 1) {
                j++;
            }
            b.append(b.length() == 0 ? "" : ",").append(cpus.get(i));
            if (j > i) {
                b.append('-').append(cpus.get(j));
            }
            i = j + 1;
        }
        return b.toString();
    }
}
