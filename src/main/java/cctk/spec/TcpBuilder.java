package cctk.spec;

import java.util.Locale;

/** Checks the {@code tcp:} section and builds {@link TcpSettings}, with its defaults. */
final class TcpBuilder {

    private TcpBuilder() {
    }

    static TcpSettings build(final Section s) {
        final TcpSettings d = TcpSettings.DEFAULT;
        final TcpSettings.Shm shm = shm(s, d.shm());
        final TcpSettings.Algorithm algorithm = NcclBuilder.choice(s, "algorithm", TcpSettings.Algorithm.values(),
                d.algorithm());
        if (shm == TcpSettings.Shm.OFF && algorithm == TcpSettings.Algorithm.HIERARCHICAL) {
            s.problems().expected(s.get("algorithm"), s.keyPath("algorithm"), "auto or flat, because the"
                    + " hierarchical algorithms carry a node's share through shared memory and tcp.shm is off");
        }
        s.finish();
        return new TcpSettings(shm, algorithm);
    }

    /** auto or off; YAML's booleans count too ({@code off}, {@code false}, {@code no} unquoted are booleans). */
    private static TcpSettings.Shm shm(final Section s, final TcpSettings.Shm fallback) {
        final SpecValue v = s.get("shm");
        if (v == null) {
            return fallback;
        }
        if (v.kind() == SpecValue.Kind.BOOL) {
            final String t = v.text().toLowerCase(Locale.ROOT);
            return t.equals("true") || t.equals("yes") || t.equals("on") || t.equals("y") ? TcpSettings.Shm.AUTO
                    : TcpSettings.Shm.OFF;
        }
        return NcclBuilder.choice(s, "shm", TcpSettings.Shm.values(), fallback);
    }
}
