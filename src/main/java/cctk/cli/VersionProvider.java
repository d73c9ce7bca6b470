package cctk.cli;

import picocli.CommandLine;

/** Reads the version from the jar manifest (Implementation-Version), as built by Maven. */
final class VersionProvider implements CommandLine.IVersionProvider {

    /** The running cctk version, or {@code dev} outside a jar. */
    static String version() {
        final String v = Main.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"cctk " + version(), "Java " + Runtime.version() + " (" + System.getProperty("java.vendor")
                + ")"};
    }
}
