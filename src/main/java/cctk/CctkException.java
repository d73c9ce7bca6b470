package cctk;

/**
 * The one exception type that reaches the user: its message is a complete paragraph, and its
 * exit code says whose fault it was. The CLI prints the message alone, never a stack trace
 * (unless --stacktrace).
 */
public class CctkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ExitCode exitCode;

    public CctkException(final ExitCode exitCode, final String message) {
        super(words(message, null));
        this.exitCode = exitCode;
    }

    public CctkException(final ExitCode exitCode, final String message, final Throwable cause) {
        super(words(message, cause), cause);
        this.exitCode = exitCode;
    }

    /** The message, or when there is none (a cause without one), why the cause happened: never null. */
    private static String words(final String message, final Throwable cause) {
        return message == null || message.isBlank() || message.equals("null") ? IoErrors.why(cause) : message;
    }

    public ExitCode exitCode() {
        return exitCode;
    }

    public static CctkException usage(final String message) {
        return new CctkException(ExitCode.USAGE, message);
    }

    public static CctkException environment(final String message) {
        return new CctkException(ExitCode.ENVIRONMENT, message);
    }

    public static CctkException environment(final String message, final Throwable cause) {
        return new CctkException(ExitCode.ENVIRONMENT, message, cause);
    }

    public static CctkException failed(final String message) {
        return new CctkException(ExitCode.FAILED, message);
    }
}
