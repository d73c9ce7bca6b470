package cctk.analysis;

import cctk.report.Numbers;
import cctk.spec.Sizes;

/** Message sizes for people: {@code 64 KiB}, {@code 1 GiB}, {@code 1.5 MiB}, {@code 1000 B} (binary units). */
public final class SizeText {

    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private SizeText() {
    }

    /** {@code bytes} in the largest binary unit it reaches, exact when it divides, else with 2 decimals. */
    public static String of(final long bytes) {
        final String exact = Sizes.formatBytes(bytes);
        final String digits = exact.replaceAll("[A-Za-z]+$", "");
        if (exact.endsWith("B") && !exact.endsWith("iB") && bytes >= 1024) {
            int u = 0;
            double v = bytes;
            while (v >= 1024 && u < UNITS.length - 1) {
                v /= 1024;
                u++;
            }
            return Numbers.fit(v, 10).trim() + " " + UNITS[u];
        }
        return digits + " " + exact.substring(digits.length());
    }
}
