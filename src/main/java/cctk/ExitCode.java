package cctk;

/** The process exit codes of every cctk command; listed in {@code cctk --help}. */
public enum ExitCode {
    /** Everything ran and every check passed. */
    OK(0),
    /** The run finished but something failed: wrong results, a job that ended badly, a reference missed. */
    FAILED(1),
    /** Bad input: a flag, a spec, a file the user named. */
    USAGE(2),
    /** The environment let us down: Slurm, NCCL, a peer, a port, memory. */
    ENVIRONMENT(3),
    /** A bug in cctk. */
    INTERNAL(4),
    /** A measurement that cannot tell: a diagnosis with too few nodes, or peers too scattered to judge. */
    INCONCLUSIVE(5);

    private final int code;

    ExitCode(final int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
