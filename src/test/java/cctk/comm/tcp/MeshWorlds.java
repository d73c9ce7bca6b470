package cctk.comm.tcp;

import java.time.Duration;

/** Options for the mesh security tests. */
final class MeshWorlds {

    private MeshWorlds() {
    }

    static TcpOptions options() {
        return TcpOptions.local(Duration.ofSeconds(20), "sec", LocalWorld.SECRET);
    }
}
